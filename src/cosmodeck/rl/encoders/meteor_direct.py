"""Meteor observations and masks straight from the state, through seat ``me``'s information filter (MET-D4).

``write(st, me, out)`` writes exactly what ``MeteorEncoder.encode(st.view(me))`` writes
(``tests/rl/test_direct.py`` proves it on thousands of random states) without building the view.
Of the hidden state it reads only ``me``'s own hand, and only when ``me`` may see it (not under
Backwards, where only its size is shown); the other hands are read as counts and their ``known``
cards (shown to everyone); the face of a meteor only once it is face up (a face-down meteor: its
back and kind, printed on the back); the decks as counts. Everything else is public (sites,
techs, discard pile, volley, Powers and Challenges, Pass flags, the timer).

The mask: the legal actions of ``st.legal_actions(seat)`` are mapped onto the catalog with the
encoder's own ``key``, cached per (seat, action, field position of its target), so the view is
never built; the first legal action of each catalog entry wins, as in ``legal_map``.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from cosmodeck.games.meteor.actions import Site
from cosmodeck.games.meteor.rules_powers import may_chat, may_show
from cosmodeck.games.meteor.rules_sites import classify, cost_rules
from cosmodeck.games.meteor.view import _project
from cosmodeck.rl.encoders.base import MapLegal, ratio

try:  # the compiled writer (setup.py builds it); without it the readable ``write`` below is the only one
    from cosmodeck.rl.encoders.meteor_fast import CompiledWriter as _WRITER

    _COMPILED: Any = _WRITER
except ImportError:  # pragma: no cover - a build without the extension
    _COMPILED = None

if TYPE_CHECKING:
    from cosmodeck.games.meteor.state import MeteorState
    from cosmodeck.rl.encoders.meteor import MeteorEncoder

SIZE_SCALE = 12.0
CACHE_MAX = 100_000


def _base(card: str) -> str:
    return card.partition("#")[0]


class MeteorDirect:
    """The direct path of one ``MeteorEncoder`` (built by it; shares its layout and catalog)."""

    def __init__(self, enc: MeteorEncoder) -> None:
        from cosmodeck.rl.encoders.meteor import STATUSES

        self.enc = enc
        self.off = {name: s.start for name, s in enc.slices().items()}
        self.size = enc.obs_size
        self.n = enc.players
        self.nb = len(enc.bases)
        self.status_index = {s: i for i, s in enumerate(STATUSES)}
        self.ns = len(STATUSES)
        self.trait_index = {t: i for i, t in enumerate(enc.traits)}
        self.zone_index = {z: i for i, z in enumerate(enc.zones)}
        self.power_index = {p: i for i, p in enumerate(enc.powers)}
        self.challenge_index = {c: i for i, c in enumerate(enc.challenges)}
        self.tech_index = {t: i for i, t in enumerate(enc.techs)}
        self.energy = enc.energy
        self._site: dict[tuple[Any, ...], tuple[int, tuple[float, ...], float]] = {}
        self._keys: dict[tuple[Any, ...], int] = {}
        #: the compiled ``write`` (``meteor_fast``, the table's ``row_writer``), ``None`` without the extension
        self.compiled: Any = _COMPILED(self) if _COMPILED is not None else None

    # ---- observation -------------------------------------------------------------------
    def _per_base(self, out: Any, start: int, cards: list[str]) -> None:
        """As ``MeteorEncoder._per_base``: copies per card type / copies of that type."""
        index, copies = self.enc.base_index, self.enc.copies
        counts: dict[str, int] = {}
        for x in cards:
            b = _base(x)
            counts[b] = counts.get(b, 0) + 1
        for b, c in counts.items():
            i = index.get(b)
            if i is not None:
                out[start + i] = min(c / copies[i], 1.0)

    def _site_facts(self, st: MeteorState, seat: int, slot: int) -> tuple[int, tuple[float, ...], float]:
        """(status index, missing energy per type / 3, rocket damage / 5) of a site, cached by content."""
        cards = st.sites[seat][slot]
        rules = cost_rules(st, seat)
        key = (st.built[seat][slot], rules.fa, rules.solar, *cards)
        got = self._site.get(key)
        if got is None:
            site = Site(seat, slot)
            status = self.status_index.get(classify(st, site), -1)
            project = _project(st, site, cards)
            missing = Counter(project["missing"] or "")
            miss = tuple(ratio(missing.get(e, 0), 3) for e in self.energy)
            damage = ratio(project["damage"] or 0, 5)
            if len(self._site) > CACHE_MAX:
                self._site.clear()
            got = self._site[key] = (status, miss, damage)
        return got

    def write(self, st: MeteorState, me: int, out: Any, cache: dict[str, Any] | None = None) -> None:
        """Fill ``out`` (all zero, the observation's length: a list, or a memoryview of a float32 row,
        written item by item) with seat ``me``'s observation."""
        enc, off = self.enc, self.off
        n, nb, f = self.n, self.nb, enc.field_slots
        data = st.data
        opts = st.game.options
        if st.phase == "setup":
            out[off["phase"]] = 1.0
        elif st.phase == "play":
            out[off["phase"] + 1] = 1.0
        z = self.zone_index.get(st.zone)
        if z is not None:
            out[off["zone"] + z] = 1.0
        out[off["timer"]] = ratio(float(st.remaining() or 0.0), float(opts["zone_timer_s"]))
        out[off["time_out"]] = 1.0 if st.paused else 0.0
        meteors = data.meteors
        zone = st.zone
        refs: dict[str, int] = {}
        for j, fm in enumerate(st.field[:f]):
            refs[fm.ref] = j
            card = meteors[fm.id]
            out[off["field_present"] + j] = 1.0
            if card.kind == "boss":
                out[off["field_boss"] + j] = 1.0
            out[off["field_back"] + 2 * j] = ratio(card.back[0], SIZE_SCALE)
            out[off["field_back"] + 2 * j + 1] = ratio(card.back[1], SIZE_SCALE)
            fs = off["field_state"] + 3 * j
            out[fs] = 1.0 if fm.up else 0.0
            out[fs + 1] = 1.0 if fm.hit else 0.0
            out[fs + 2] = 1.0 if fm.shield_spent else 0.0
            out[off["field_store"] + 2 * j] = ratio(fm.store, SIZE_SCALE)
            out[off["field_store"] + 2 * j + 1] = ratio(len(fm.tucked), 4)
            if fm.up:  # the face is public once face up (MET-D4)
                size = card.size_by_zone[zone] if card.size_by_zone is not None else card.size
                if size is not None:
                    out[off["field_size"] + j] = ratio(size, SIZE_SCALE)
                t = self.trait_index.get(card.trait) if card.trait else None
                if t is not None:
                    out[off["field_trait"] + j * len(self.trait_index) + t] = 1.0
        win = st.window
        if win is not None:
            res = data.resources
            tg = off["field_targeted"]
            targeted: dict[int, float] = {}  # summed in double precision, then written once
            for launch in win["launches"]:
                pos = refs.get(launch["target"])
                if pos is not None:
                    dmg = res[launch["cards"][0]].damage
                    targeted[pos] = min(1.0, targeted.get(pos, 0.0) + float(dmg or 0) / SIZE_SCALE)
            for pos, v in targeted.items():
                out[tg + pos] = v
        out[off["removed"]] = ratio(len(st.removed), f)
        out[off["meteor_deck"]] = ratio(len(st.meteor_deck), enc.meteor_total)
        out[off["resource_deck"]] = ratio(len(st.deck), enc.resource_total)
        self._per_base(out, off["discard"], st.discard)
        if not st.has_challenge(me, "backwards"):  # Backwards: only the others see my hand (MET-D4)
            self._per_base(out, off["hand_mine"], st.hands[me])
        elif st.hands[me]:
            out[off["hand_hidden"]] = 1.0
        hand_count, known = off["hand_count"], off["known"]
        ex, cards_at, status, missing = off["site_exists"], off["site_cards"], off["site_status"], off["site_missing"]
        damage, countdown, passes = off["site_damage"], off["site_countdown"], off["passes"]
        ne = len(self.energy)
        for r in range(n):
            s = (me + r) % n
            out[hand_count + r] = ratio(len(st.hands[s]), 20)
            self._per_base(out, known + r * nb, st.known[s])
            for slot in range(min(2, len(st.sites[s]))):
                i = 2 * r + slot
                out[ex + i] = 1.0
                self._per_base(out, cards_at + i * nb, st.sites[s][slot])
                st_i, miss, site_dmg = self._site_facts(st, s, slot)
                if st_i >= 0:
                    out[status + i * self.ns + st_i] = 1.0
                at = missing + i * ne
                for j, v in enumerate(miss):  # item by item: ``out`` may be a memoryview of a float32 row
                    if v:
                        out[at + j] = v
                out[damage + i] = site_dmg
                for cd in st.countdowns:
                    if cd["site"] == [s, slot]:
                        out[countdown + i] = 1.0 if cd["due"] is not None else 0.0
                        break
            if st.passes[s]:
                out[passes + r] = 1.0
        techs = off["techs"]
        for tech in st.techs:
            ti = self.tech_index.get(_base(tech))
            if ti is not None:
                out[techs + ti] = 1.0
        if win is not None:
            out[off["volley"]] = 1.0
            out[off["volley"] + 1] = ratio(float(win["closes"]) - float(st.now), enc.window_s)
        npow, nch = len(self.power_index), len(self.challenge_index)
        powers, used, chal = off["powers"], off["powers_used"], off["challenges"]
        for r in range(n):
            s = (me + r) % n
            p = st.powers[s]
            if p is not None:
                out[powers + r * npow + self.power_index[p]] = 1.0
                if st.used[s] or st.zone_used[s]:
                    out[used + r] = 1.0
            c = st.challenges[s]
            if c is not None:
                out[chal + r * nch + self.challenge_index[c]] = 1.0
        out[off["talk"]] = 1.0 if may_chat(st, me) else 0.0
        out[off["talk"] + 1] = 1.0 if may_show(st, me) else 0.0
        out[off["mulligan_used"]] = 1.0 if st.mulligan_used else 0.0
        out[off["over"]] = 1.0 if st.outcome is not None else 0.0

    # ---- actions -----------------------------------------------------------------------
    def legal(self, st: MeteorState, seat: int) -> MapLegal:
        """``legal_map(st.legal_actions(seat), st.view(seat))`` without the view."""
        enc = self.enc
        keys = self._keys
        index = enc.index
        pos = {fm.ref: j for j, fm in enumerate(st.field)}
        mini: dict[str, Any] | None = None
        out: dict[int, Any] = {}
        for a in st.legal_actions(seat):
            target = getattr(a, "target", None)
            k = (seat, a, pos.get(target, -1) if target is not None else -1)
            i = keys.get(k)
            if i is None:
                if mini is None:  # all that ``key`` reads of a view: the seat and the field's handles
                    mini = {"seat": seat, "field": [{"ref": fm.ref} for fm in st.field]}
                name = enc.key(a, mini)
                i = index.get(name, -1) if name is not None else -1
                if len(keys) > CACHE_MAX:
                    keys.clear()
                keys[k] = i
            if i >= 0 and i not in out:
                out[i] = a
        return MapLegal(out)
