"""Meteor encoder: observations follow the MET-D4 view, actions a catalog of notation templates.

Meteor is real time: the environments give every seat that may act one decision per tick of
``step_s`` seconds (``wait`` is the no-op) and call ``advance`` themselves. Its notation names
card copies (``R10#2``), absolute sites (``s1``) and field handles (``m7``) that keep growing, so
the catalog uses templates that a legal action maps onto:

- card copies by their card type (``place_card R10 s+1``): copies of one type are interchangeable;
- sites relative to the actor (``s+0`` my site, ``s+1`` the next seat's; ``.1`` the Twin Pads slot);
  seats for Courier likewise (``p+1``);
- meteors by their position in the view's ``field`` list (``f0``, ``f1``...), up to the most
  meteors the field can ever hold (chart + bosses + every Fracturing extra);
- with Backwards, hand positions ``@0``.. ``@15``.

Left out: ``chat`` (free text), ``time_out`` and ``resume`` (a frozen clock is no decision for a
learning seat; a Time Out by a bot opponent is resumed by that bot).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from cosmodeck.engine.game import Game
from cosmodeck.games.meteor.actions import (
    EMOTES,
    SIGNALS,
    CompleteRetrofit,
    DiscardProject,
    Emote,
    Flip,
    Give,
    Launch,
    Mechanic,
    MeteorMulligan,
    Pass,
    PlaceCard,
    ShowHand,
    Signal,
    Site,
    Spot,
    Start,
)
from cosmodeck.games.meteor.game import MeteorGame
from cosmodeck.games.meteor.rules_sites import BUILT, DEAD, EMPTY, OPEN, RETROFIT, ROCKET, TECH
from cosmodeck.rl.encoders.base import Encoder, Feature, Legal, Vector, Writer, ratio, rel
from cosmodeck.rl.encoders.meteor_direct import MeteorDirect

WAIT = "wait"
HAND_POSITIONS = 16
STATUSES = (EMPTY, OPEN, ROCKET, TECH, RETROFIT, BUILT, DEAD)
FRACTURE = {"fracturing": 1, "fracturing_2": 2}
SIZE_SCALE = 12.0
FLAGS = ("", " demolition", " sharpshooter", " demolition sharpshooter")


def base_of(card: str) -> str:
    return card.partition("#")[0]


class MeteorEncoder(Encoder):
    game_id = "meteor"
    direct: MeteorDirect
    view_free_keys = False  # sites, seats and meteors are named relative to the view

    def __init__(self, game: Game[Any], players: int) -> None:
        super().__init__()
        assert isinstance(game, MeteorGame)
        data = game.data
        self.players = n = players
        self.bases: tuple[str, ...] = tuple(dict.fromkeys(data.resources[c].base for c in data.resource_order))
        self.base_index = {b: i for i, b in enumerate(self.bases)}
        copies = Counter(data.resources[c].base for c in data.resource_order)
        self.copies = tuple(copies[b] for b in self.bases)
        self.techs: tuple[str, ...] = tuple(dict.fromkeys(
            data.resources[c].base for c in data.resource_order if data.resources[c].is_tech))
        self.energy: tuple[str, ...] = tuple(e.code for e in data.energy)
        self.traits: tuple[str, ...] = tuple(sorted({m.trait for m in data.meteors.values() if m.trait}))
        self.powers: tuple[str, ...] = tuple(sorted(data.powers))
        self.challenges: tuple[str, ...] = tuple(sorted(data.challenges))
        self.zones: tuple[int, ...] = tuple(sorted(data.zones))
        level = data.difficulty[game.options["difficulty"]]
        extra = sum(FRACTURE.get(m.trait or "", 0) for m in data.meteors.values())
        self.field_slots = data.chart[players].meteors + level.bosses + extra
        self.resource_total = len(data.resource_order)
        self.meteor_total = len(data.meteors)
        self.window_s = float(game.options["volley_window_s"]) or 1.0
        f, b, s2 = self.field_slots, len(self.bases), 2 * n
        self.features = (
            Feature("phase", 2, "one-hot setup / play"),
            Feature("zone", len(self.zones), "one-hot current altitude zone (1..5)"),
            Feature("timer", 1, "time left on the zone timer / its length"),
            Feature("time_out", 1, "1 during a Time Out"),
            Feature("field_present", f, "per field position: 1 if a meteor is there"),
            Feature("field_boss", f, "per field position: 1 for a Boss Meteor"),
            Feature("field_back", f * 2, "per field position: size range on the back (low, high) / 12"),
            Feature("field_state", f * 3, "per field position: face up, hit, shield spent"),
            Feature("field_store", f * 2, "per field position: Cracked store / 12, tucked rockets / 4"),
            Feature("field_size", f, "per field position: exact size / 12 once face up"),
            Feature("field_trait", f * len(self.traits), "per field position: one-hot trait once face up"),
            Feature("field_targeted", f, "per field position: damage of the open volley aimed at it / 12"),
            Feature("removed", 1, "meteors removed so far / field positions"),
            Feature("meteor_deck", 1, "Meteor Deck size / meteor cards"),
            Feature("resource_deck", 1, "Resource Deck size / resource cards"),
            Feature("discard", b, "discard pile: copies per card type / copies of that type"),
            Feature("hand_mine", b, "my hand per card type / copies (zero while Backwards hides it)"),
            Feature("hand_hidden", 1, "1 if I cannot see my own hand (Backwards)"),
            Feature("hand_count", n, "per relative seat: cards in hand / 20"),
            Feature("known", n * b, "per relative seat: shown cards per card type / copies"),
            Feature("site_exists", s2, "per relative seat and slot (0, Twin Pads 1): 1 if the site exists"),
            Feature("site_cards", s2 * b, "per site: cards on it per card type / copies"),
            Feature("site_status", s2 * len(STATUSES), "per site: one-hot " + ", ".join(STATUSES)),
            Feature("site_missing", s2 * len(self.energy), "per site: energy still missing per type / 3"),
            Feature("site_damage", s2, "per site: damage of its rocket / 5"),
            Feature("site_countdown", s2, "per site: 1 while a Countdown (C11) launch is pending"),
            Feature("techs", len(self.techs), "technologies built (by card type)"),
            Feature("passes", n, "per relative seat: Pass flag"),
            Feature("volley", 2, "1 while a volley window is open; time until it closes / window"),
            Feature("powers", n * len(self.powers), "per relative seat: one-hot Power card"),
            Feature("powers_used", n, "per relative seat: 1 if a once-per-zone or once power is used"),
            Feature("challenges", n * len(self.challenges), "per relative seat: one-hot Challenge card"),
            Feature("talk", 2, "I may chat; I may show my hand"),
            Feature("mulligan_used", 1, "1 once the Meteor Mulligan is used"),
            Feature("over", 1, "1 once the game is over"),
        )
        acts: list[str] = ["start", "meteor_mulligan", "pass", "show_hand", "use_power chronometrist"]
        sites = [f"s+{k}{slot}" for k in range(n) for slot in ("", ".1")]
        own = ["s+0", "s+0.1"]
        acts += [f"place_card {c} {s}" for c in self.bases for s in sites]
        acts += [f"place_card @{i} {s}" for i in range(HAND_POSITIONS) for s in sites]
        acts += [f"discard_project {s}" for s in own] + [f"complete_retrofit {s}" for s in own]
        acts += [f"launch {s} f{j}{fl}" for s in own for j in range(f) for fl in FLAGS]
        acts += [f"use_power spotter f{j}" for j in range(f)]
        acts += [f"use_power mechanic {s} {c}" for s in own for c in self.bases]
        acts += [f"use_power courier {c} p+{k}" for c in (*self.bases, *(f"@{i}" for i in range(HAND_POSITIONS)))
                 for k in range(1, n)]
        acts += [f"signal {k}" for k in SIGNALS] + [f"emote {k}" for k in EMOTES if k != "point"]
        acts += [f"emote point f{j}" for j in range(f)] + [f"emote point {s}" for s in sites]
        acts.append(WAIT)
        self.actions = tuple(acts)
        self.noop = len(acts) - 1
        self._finish()
        self.direct = MeteorDirect(self)
        if self.direct.compiled is not None:  # the compiled writer as the table's hook (``Encoder.row_writer``)
            self.row_writer = self.direct.compiled.write

    # ---- the direct path (``meteor_direct``; tests/rl/test_direct.py proves it equal to the view's) ----
    def legal_state(self, state: Any, seat: int) -> Legal:
        compiled = self.direct.compiled
        if compiled is not None:  # the same legal map, compiled (``meteor_fast``)
            got: Legal = compiled.legal(state, seat)
            return got
        return self.direct.legal(state, seat)

    # ---- actions -----------------------------------------------------------------------
    def _site(self, site: Site, me: int) -> str:
        return f"s+{rel(site.seat, me, self.players)}{'.1' if site.slot else ''}"

    def _card(self, card: str) -> str:
        return card if card.startswith("@") else base_of(card)

    def key(self, action: Any, view: Mapping[str, Any]) -> str | None:
        me = int(view["seat"])
        if isinstance(action, (Start, MeteorMulligan, Pass, ShowHand, Flip, Signal)):
            return str(action)
        if isinstance(action, PlaceCard):
            return f"place_card {self._card(action.card)} {self._site(action.site, me)}"
        if isinstance(action, (DiscardProject, CompleteRetrofit)):
            return f"{str(action).split()[0]} {self._site(action.site, me)}"
        field = [m["ref"] for m in view["field"]]
        if isinstance(action, Launch):
            j = field.index(action.target) if action.target in field else -1
            flags = (" demolition" if action.demolition else "") + (" sharpshooter" if action.sharpshooter else "")
            return f"launch {self._site(action.site, me)} f{j}{flags}" if j >= 0 else None
        if isinstance(action, Spot):
            return f"use_power spotter f{field.index(action.target)}" if action.target in field else None
        if isinstance(action, Mechanic):
            return f"use_power mechanic {self._site(action.site, me)} {base_of(action.card)}"
        if isinstance(action, Give):
            return f"use_power courier {self._card(action.card)} p+{rel(action.to, me, self.players)}"
        if isinstance(action, Emote):
            if action.target is None:
                return str(action)
            if action.target in field:
                return f"emote point f{field.index(action.target)}"
            if action.target.startswith("s"):
                seat, _, slot = action.target[1:].partition(".")
                return f"emote point {self._site(Site(int(seat), 1 if slot else 0), me)}"
        return None  # chat, time_out, resume: not in the catalog

    # ---- observation -------------------------------------------------------------------
    def _per_base(self, out: list[float], start: int, cards: list[str]) -> None:
        """Copies per card type / copies of that type, written at ``out[start:]`` (sparse)."""
        index, copies = self.base_index, self.copies
        for b, c in Counter(base_of(x) for x in cards).items():
            i = index.get(b)
            if i is not None:
                out[start + i] = min(c / copies[i], 1.0)

    def encode(self, view: Mapping[str, Any]) -> Vector:
        n = self.players
        me = int(view["seat"])
        f = self.field_slots
        w = Writer(self.features)
        w.one_hot("phase", {"setup": 0, "play": 1}.get(view["phase"]))
        w.one_hot("zone", self.zones.index(view["zone"]) if view["zone"] in self.zones else None)
        timer = view["timer"]
        w.values("timer", [ratio(float(timer["remaining"] or 0.0), float(timer["length"]))])
        w.values("time_out", [1.0 if view["time_out"] else 0.0])
        field = list(view["field"])[:f]
        pad = [None] * (f - len(field))
        slots: list[Mapping[str, Any] | None] = [*field, *pad]
        w.values("field_present", (1.0 if m else 0.0 for m in slots))
        w.values("field_boss", (1.0 if m and m["kind"] == "boss" else 0.0 for m in slots))
        w.values("field_back", (ratio(m["back"][i], SIZE_SCALE) if m else 0.0 for m in slots for i in (0, 1)))
        w.values("field_state", (1.0 if m and m[k] else 0.0 for m in slots for k in ("face_up", "hit", "shield_spent")))
        w.values("field_store", (v for m in slots for v in (
            (ratio(m["store"], SIZE_SCALE), ratio(len(m["tucked"]), 4)) if m else (0.0, 0.0))))
        w.values("field_size", (ratio(m["size"], SIZE_SCALE) if m and m.get("size") is not None else 0.0
                                for m in slots))
        nt = len(self.traits)
        trait = [0.0] * (f * nt)
        for j, m in enumerate(slots):
            if m and m.get("trait") in self.traits:
                trait[j * nt + self.traits.index(m["trait"])] = 1.0
        w.values("field_trait", trait)
        refs = {m["ref"]: j for j, m in enumerate(field)}
        targeted = [0.0] * f
        vol = view["volley"]
        for launch in (vol or {}).get("launches", []):
            pos = refs.get(launch["target"])
            if pos is not None:
                targeted[pos] = min(1.0, targeted[pos] + float(launch["damage"] or 0) / SIZE_SCALE)
        w.values("field_targeted", targeted)
        w.values("removed", [ratio(len(view["removed"]), f)])
        w.values("meteor_deck", [ratio(int(view["meteor_deck"]), self.meteor_total)])
        w.values("resource_deck", [ratio(int(view["resource_deck"]), self.resource_total)])
        out = w.out
        nb = len(self.bases)
        self._per_base(out, w.start("discard"), view["discard"])
        hands = {int(h["seat"]): h for h in view["hands"]}
        mine = hands[me]["cards"]
        self._per_base(out, w.start("hand_mine"), mine or [])
        w.values("hand_hidden", [1.0 if mine is None and hands[me]["count"] else 0.0])
        order = [(me + r) % n for r in range(n)]
        w.values("hand_count", (ratio(hands[s]["count"], 20) for s in order))
        known = w.start("known")
        for r, s in enumerate(order):
            self._per_base(out, known + r * nb, hands[s]["known"])
        sites: dict[tuple[int, int], Mapping[str, Any]] = {(int(x["seat"]), int(x["slot"])): x for x in view["sites"]}
        keys = [(s, slot) for s in order for slot in (0, 1)]
        w.values("site_exists", (1.0 if k in sites else 0.0 for k in keys))
        site_cards = w.start("site_cards")
        for i, k in enumerate(keys):
            if k in sites:
                self._per_base(out, site_cards + i * nb, sites[k]["cards"])
        ns = len(STATUSES)
        status = [0.0] * (len(keys) * ns)
        missing: list[float] = []
        for i, k in enumerate(keys):
            site = sites.get(k)
            if site is not None and site["status"] in STATUSES:
                status[i * ns + STATUSES.index(site["status"])] = 1.0
            miss = Counter(site["missing"] or "") if site is not None else Counter()
            missing += [ratio(miss.get(e, 0), 3) for e in self.energy]
        w.values("site_status", status)
        w.values("site_missing", missing)
        w.values("site_damage", (ratio(sites[k]["damage"] or 0, 5) if k in sites else 0.0 for k in keys))
        w.values("site_countdown", (1.0 if k in sites and sites[k]["countdown"] is not None else 0.0 for k in keys))
        w.multi_hot("techs", (self.techs.index(base_of(t["id"])) for t in view["techs"]
                              if base_of(t["id"]) in self.techs))
        w.values("passes", (1.0 if view["passes"][s] else 0.0 for s in order))
        closes = float(vol["closes"]) - float(view["now"]) if vol else 0.0
        w.values("volley", [1.0 if vol else 0.0, ratio(closes, self.window_s)])
        npow = len(self.powers)
        powers = [0.0] * (n * npow)
        used = [0.0] * n
        for r, s in enumerate(order):
            p = view["powers"][s]
            if p is not None:
                powers[r * npow + self.powers.index(p["id"])] = 1.0
                used[r] = 1.0 if p["used"] else 0.0
        w.values("powers", powers)
        w.values("powers_used", used)
        nch = len(self.challenges)
        chal = [0.0] * (n * nch)
        for r, s in enumerate(order):
            c = view["challenges"][s]
            if c is not None:
                chal[r * nch + self.challenges.index(c["id"])] = 1.0
        w.values("challenges", chal)
        talk = view["talk"]
        w.values("talk", [1.0 if talk["chat"] else 0.0, 1.0 if talk["show_hand"] else 0.0])
        w.values("mulligan_used", [1.0 if view["mulligan_used"] else 0.0])
        w.values("over", [1.0 if view["over"] else 0.0])
        return w.done()
