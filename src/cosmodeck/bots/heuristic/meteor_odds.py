"""What a face-down Meteor may be, from public information only.

A face-down meteor's back is public; so are the card data (every meteor's back, size and trait),
the face-up meteors in the field and the meteors already removed. Every meteor with the same back
that nobody has seen yet is equally likely to be under that back (the decks are shuffled), so the
bot weighs them uniformly. Nothing here reads a hidden card.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cosmodeck.games.meteor.cards import MeteorData

Face = tuple[int, str | None]  # (size in the current zone, trait)


def candidates(data: MeteorData, view: Mapping[str, Any], meteor: Mapping[str, Any]) -> list[Face]:
    """The faces ``meteor`` may have (one per unseen meteor card with its back), for the current zone."""
    zone = int(view["zone"])
    if meteor.get("face_up") and meteor.get("size") is not None:
        return [(int(meteor["size"]), meteor.get("trait"))]
    seen = {str(m["id"]) for m in view["field"] if m.get("id")} | {str(r["id"]) for r in view.get("removed", ())}
    back = (int(meteor["back"][0]), int(meteor["back"][1]))
    kind = str(meteor.get("kind") or "standard")
    out: list[Face] = []
    for mid, card in data.meteors.items():
        if mid in seen or card.back != back or str(card.kind) != kind:
            continue
        if meteor.get("hit") and card.trait != "stealth":
            continue  # a hit reveals every meteor but a Stealth one
        out.append((card.size_in(zone), card.trait))
    if not out:  # nothing fits (edited data): fall back on the range
        out = [(s, None) for s in range(back[0], back[1] + 1)]
    return out
