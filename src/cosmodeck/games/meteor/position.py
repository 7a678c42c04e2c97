"""``MeteorGame.position``: a validated Meteor state from named zones (docs/state-formats.md)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from cosmodeck.engine import validate as V
from cosmodeck.engine.position import Picker, names, per_seat
from cosmodeck.games.meteor.rules_meteors import FieldMeteor, enters_face_up
from cosmodeck.games.meteor.state import MeteorState

if TYPE_CHECKING:
    from cosmodeck.games.meteor.game import MeteorGame


def position(game: MeteorGame, hands: Sequence[Sequence[str]], *, field: Sequence[str] = (),
             face_up: Sequence[str] = (), zone: int | None = None, timer: float | None = None,
             phase: str = "play", deck: Sequence[str] = (), discard: Sequence[str] = (),
             techs: Sequence[str] = (), sites: Sequence[Sequence[Sequence[str]]] | None = None,
             built: Sequence[Sequence[bool]] | None = None, powers: Sequence[str | None] | None = None,
             challenges: Sequence[str | None] | None = None, seed: int = 0) -> MeteorState:
    """A Meteor position at game time 0.

    ``hands``: one list of Resource cards per seat (``A`` is any Antimatter copy not named elsewhere,
    ``R05#1`` one card). ``field``: the meteors in the field, in order (handles m1, m2, ...), face down unless
    listed in ``face_up`` (or dealt face up by the rules: first game, never Stealth). ``zone``: the zone number
    (default the first, 5). ``phase``: ``"play"`` (the zone timer runs, ``timer`` seconds left, default the
    option ``zone_timer_s``) or ``"setup"`` (before the host starts). ``deck``: the top of the Resource deck,
    the next card drawn last; every card not named goes under it, shuffled by ``seed``. ``sites``: per seat,
    one list of cards per launch site (two with Twin Pads); ``built``: per seat, whether each site is built.
    ``powers`` / ``challenges``: per seat a card id (``P04``) or ``None``. Meteors not named are in the meteor
    deck (standard) or the box (bosses), shuffled by ``seed``.
    """
    data = game.data
    players = len(V.seq(list(hands) if isinstance(hands, tuple) else hands, "hands"))
    V.integer(players, "hands (number of seats)", game.info.min_players, game.info.max_players)
    V.integer(seed, "seed")
    st = MeteorState(game, players, seed)
    st.powers = _dealt(powers, "powers", players, data.powers)
    st.challenges = _dealt(challenges, "challenges", players, data.challenges)
    st.power_box = sorted(p for p in data.powers if p not in st.powers)
    st.challenge_box = sorted(c for c in data.challenges if c not in st.challenges)
    slots = [2 if st.has_power(s, "twin_pads") else 1 for s in range(players)]
    site_rows = per_seat(sites, "sites", players) if sites is not None else [[[]] * k for k in slots]
    zones: list[tuple[str, Any]] = [(f"hands[{s}]", h) for s, h in enumerate(hands)]
    for s in range(players):
        row = V.seq(names(site_rows[s], f"sites[{s}]"), f"sites[{s}]", slots[s])
        zones += [(f"sites[{s}][{k}]", cards) for k, cards in enumerate(row)]
    zones += [("discard", discard), ("techs", techs), ("deck", deck)]
    picker = Picker(data.resource_order, "Resource card")
    got = picker.zones(zones)
    st.hands = got[:players]
    it = iter(got[players:-3])
    st.sites = [[next(it) for _ in range(slots[s])] for s in range(players)]
    st.discard, st.techs, top = got[-3:]
    rest = picker.rest()
    st.rng.shuffle(rest)
    st.deck = rest + top
    st.built = ([[False] * k for k in slots] if built is None else
                [[V.boolean(b, f"built[{s}][{k}]") for k, b in enumerate(V.seq(names(row, f"built[{s}]"),
                                                                                f"built[{s}]", slots[s]))]
                 for s, row in enumerate(per_seat(built, "built", players))])
    meteors = Picker(data.meteors, "meteor")
    ids = meteors.zones([("field", field)])[0]
    up = {V.string(m, f"face_up[{i}]") for i, m in enumerate(names(face_up, "face_up"))}
    for i, m in enumerate(sorted(up - set(ids))):
        V.fail(f"face_up[{i}]", f"{m!r} is not a meteor in the field", V.INCONSISTENT)
    for mid in ids:
        ref = f"m{st.next_ref}"
        st.next_ref += 1
        st.field.append(FieldMeteor(ref, mid, up=mid in up or enters_face_up(st, mid)))
    st.meteor_deck = [m for m in data.standard_ids if m not in ids]
    st.rng.shuffle(st.meteor_deck)
    st.boss_box = [m for m in data.boss_ids if m not in ids]
    st.rng.shuffle(st.boss_box)
    st.zone = max(data.zones) if zone is None else V.one_of(zone, "zone", tuple(data.zones))
    st.phase = V.one_of(phase, "phase", ("setup", "play"))
    if phase == "play":
        left = float(game.options["zone_timer_s"]) if timer is None else V.number(timer, "timer", 0.0, 3600.0)
        st.timer_end = left
    elif timer is not None:
        V.fail("timer", "no timer runs in set-up", V.INCONSISTENT)
    # the same validation as load_state: the position is a state the engine could be in
    return MeteorState._from_json(game, json.loads(st.to_json(version=1)))


def _dealt(value: Any, field: str, players: int, table: Any) -> list[str | None]:
    if value is None:
        return [None] * players
    out: list[str | None] = []
    for s, p in enumerate(per_seat(value, field, players)):
        out.append(None if p is None else V.card_id(p, f"{field}[{s}]", set(table)))
    if len({p for p in out if p is not None}) != sum(p is not None for p in out):
        V.fail(field, "a card is dealt to two seats", V.CENSUS)
    return out
