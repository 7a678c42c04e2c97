// Boards per game; any game without one gets the generic board.
import * as generic from "./generic.js";

const BOARDS = {
  "shooting-star": () => import("./shooting-star.js"),
  "blast-off": () => import("./blast-off.js"),
  meteor: () => import("./meteor.js"),
};

export async function loadBoard(gameId) {
  const load = BOARDS[gameId];
  if (!load) return generic;
  try {
    return await load();
  } catch (e) {
    console.error("board failed to load, using the generic board", e);
    return generic;
  }
}
