// Boards per game; any game without one gets the generic board.
import * as generic from "./generic.js";
import { loadCatalogue, roomFromPath } from "../catalogue.js";

const BOARDS = {
  "shooting-star": () => import("./shooting-star.js"),
  "blast-off": () => import("./blast-off.js"),
  meteor: () => import("./meteor.js"),
};

// a board draws cards from the room's catalogue (fetched once per room, before the board is made)
export async function loadBoard(gameId, roomId = roomFromPath()) {
  await loadCatalogue(roomId);
  const load = BOARDS[gameId];
  if (!load) return generic;
  try {
    return await load();
  } catch (e) {
    console.error("board failed to load, using the generic board", e);
    return generic;
  }
}
