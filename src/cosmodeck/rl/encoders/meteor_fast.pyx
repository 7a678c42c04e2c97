# cython: language_level=3, boundscheck=True, wraparound=True
"""Meteor's observation written by compiled code: exactly ``meteor_direct``'s ``MeteorDirect.write``.

``MeteorDirect`` builds one ``CompiledWriter`` per encoder when this extension was built, and the encoder sets
its ``write`` as the table's ``row_writer`` hook (``Encoder.row_writer``). It reads the same state fields
through the same information filter (MET-D4) and copies each block of ``MeteorDirect.write`` in order (the
comments name them); a card's type is looked up once per card text (``_base`` and the encoder's
``base_index``), the sites' facts come from ``MeteorDirect._site_facts``'s cache by content (read here with
the same key; the method fills it) and the talk flags from ``rules_powers``. The mask and the decoding stay the readable ``MeteorDirect.legal`` (real time:
the table decodes from the same legal map it masks with). ``tests/rl/test_meteor_fast.py`` proves the rows
equal to the readable path's at every step of seeded games.
"""

from libc.string cimport memset
from cosmodeck.rl.encoders.scale cimport ratio as _ratio

from cosmodeck.games.meteor.rules_powers import may_chat as _may_chat
from cosmodeck.games.meteor.rules_sites import cost_rules as _cost_rules
from cosmodeck.games.meteor.rules_powers import may_show as _may_show
from cosmodeck.rl.encoders.base import MapLegal as _MapLegal

DEF MAXBASES = 256  # card types (the default data has far fewer)
DEF CACHE_MAX = 100_000  # ``meteor_direct.CACHE_MAX``

cdef double SIZE_SCALE = 12.0  # ``meteor_direct.SIZE_SCALE``
cdef str BACKWARDS = "backwards"
cdef str BOSS = "boss"



cdef class CompiledWriter:
    """One encoder's layout as C offsets and tables; ``write`` as ``MeteorDirect.write``."""

    cdef object direct, enc
    cdef int n, nb, f, ns, ne, npow, nch, ntraits, size
    cdef int o_phase, o_zone, o_timer, o_time_out, o_field_present, o_field_boss, o_field_back, o_field_state
    cdef int o_field_store, o_field_size, o_field_trait, o_field_targeted, o_removed, o_meteor_deck
    cdef int o_resource_deck, o_discard, o_hand_mine, o_hand_hidden, o_hand_count, o_known, o_site_exists
    cdef int o_site_cards, o_site_status, o_site_missing, o_site_damage, o_site_countdown, o_techs, o_passes
    cdef int o_volley, o_powers, o_powers_used, o_challenges, o_talk, o_mulligan_used, o_over
    cdef double meteor_total, resource_total, window_s
    cdef double copies[MAXBASES]
    cdef dict base_of  # card text -> its type's index in the encoder's bases (-1: none), filled as met
    cdef dict base_index, zone_index, trait_index, tech_index, power_index, challenge_index
    cdef dict keys  # ``MeteorDirect._keys``: (seat, action, target's field position) -> catalog index or -1
    cdef dict by_id  # (seat, id(action), target's field position) -> catalog index or -1
    cdef list alive  # the actions of ``by_id``, kept alive so that no id is reused while it is a key
    cdef dict index  # the encoder's catalog entry -> index

    def __init__(self, direct):
        enc = direct.enc
        off = direct.off
        self.direct = direct
        self.enc = enc
        self.n, self.nb, self.ns = direct.n, direct.nb, direct.ns
        self.f = enc.field_slots
        self.ne = len(direct.energy)
        self.npow, self.nch = len(direct.power_index), len(direct.challenge_index)
        self.ntraits = len(direct.trait_index)
        self.size = direct.size
        if self.nb > MAXBASES:
            raise ValueError("meteor_fast: more card types than this module's tables")
        cdef int i
        for i in range(self.nb):
            self.copies[i] = enc.copies[i]
        self.meteor_total, self.resource_total = enc.meteor_total, enc.resource_total
        self.window_s = enc.window_s
        self.base_of = {}
        self.base_index = enc.base_index
        self.zone_index, self.trait_index = direct.zone_index, direct.trait_index
        self.tech_index, self.power_index = direct.tech_index, direct.power_index
        self.challenge_index = direct.challenge_index
        self.o_phase, self.o_zone, self.o_timer, self.o_time_out = off["phase"], off["zone"], off["timer"], \
            off["time_out"]
        self.o_field_present, self.o_field_boss, self.o_field_back = off["field_present"], off["field_boss"], \
            off["field_back"]
        self.o_field_state, self.o_field_store, self.o_field_size = off["field_state"], off["field_store"], \
            off["field_size"]
        self.o_field_trait, self.o_field_targeted, self.o_removed = off["field_trait"], off["field_targeted"], \
            off["removed"]
        self.o_meteor_deck, self.o_resource_deck, self.o_discard = off["meteor_deck"], off["resource_deck"], \
            off["discard"]
        self.o_hand_mine, self.o_hand_hidden, self.o_hand_count = off["hand_mine"], off["hand_hidden"], \
            off["hand_count"]
        self.o_known, self.o_site_exists, self.o_site_cards = off["known"], off["site_exists"], off["site_cards"]
        self.o_site_status, self.o_site_missing, self.o_site_damage = off["site_status"], off["site_missing"], \
            off["site_damage"]
        self.o_site_countdown, self.o_techs, self.o_passes = off["site_countdown"], off["techs"], off["passes"]
        self.o_volley, self.o_powers, self.o_powers_used = off["volley"], off["powers"], off["powers_used"]
        self.o_challenges, self.o_talk, self.o_mulligan_used = off["challenges"], off["talk"], off["mulligan_used"]
        self.o_over = off["over"]
        if self.o_over + 1 != self.size:
            raise ValueError("meteor_fast: 'over' is not the layout's last entry")
        self.keys = direct._keys
        self.by_id = {}
        self.alive = []
        self.index = enc.index

    cdef int _base(self, object card) except -2:
        """The index of ``card``'s type (``base_index.get(_base(card))``; -1: none), looked up once per text."""
        got = self.base_of.get(card)
        if got is None:
            got = self.base_index.get(card.partition("#")[0], -1)
            if len(self.base_of) > 100_000:
                self.base_of.clear()
            self.base_of[card] = got
        return got

    cdef int _per_base(self, float* out, int start, object cards) except -1:
        """``MeteorDirect._per_base``: copies per card type / copies of that type."""
        cdef int counts[MAXBASES]
        cdef int i, any_ = 0
        memset(counts, 0, self.nb * sizeof(int))
        for x in cards:
            i = self._base(x)
            if i >= 0:
                counts[i] += 1
                any_ = 1
        if any_:
            for i in range(self.nb):
                if counts[i]:
                    out[start + i] = min(counts[i] / self.copies[i], 1.0)
        return 0

    def write(self, st, int seat, float[::1] row):
        """``MeteorDirect.write`` into ``row`` (zeroed first; the observation's length)."""
        if row.shape[0] != self.size:
            raise ValueError("meteor_fast: the row is not the observation's length")
        if not 0 <= seat < self.n:
            raise ValueError("meteor_fast: no such seat")
        self._write(st, seat, &row[0])

    cdef int _write(self, st, int me, float* out) except -1:
        cdef int n = self.n, nb = self.nb, f = self.f, j, r, s, slot, i, at
        memset(out, 0, self.size * sizeof(float))
        data = st.data
        phase = st.phase
        if phase == "setup":
            out[self.o_phase] = 1.0
        elif phase == "play":
            out[self.o_phase + 1] = 1.0
        zone = st.zone
        z = self.zone_index.get(zone)
        if z is not None:
            out[self.o_zone + <int>z] = 1.0
        out[self.o_timer] = _ratio(float(st.remaining() or 0.0), float(st.game.options["zone_timer_s"]))
        out[self.o_time_out] = 1.0 if st.paused else 0.0
        meteors = data.meteors
        cdef dict refs = {}
        field = st.field
        j = 0
        for fm in field[:f]:  # the field
            refs[fm.ref] = j
            card = meteors[fm.id]
            out[self.o_field_present + j] = 1.0
            if card.kind == BOSS:
                out[self.o_field_boss + j] = 1.0
            back = card.back
            out[self.o_field_back + 2 * j] = _ratio(back[0], SIZE_SCALE)
            out[self.o_field_back + 2 * j + 1] = _ratio(back[1], SIZE_SCALE)
            at = self.o_field_state + 3 * j
            up = fm.up
            out[at] = 1.0 if up else 0.0
            out[at + 1] = 1.0 if fm.hit else 0.0
            out[at + 2] = 1.0 if fm.shield_spent else 0.0
            out[self.o_field_store + 2 * j] = _ratio(fm.store, SIZE_SCALE)
            out[self.o_field_store + 2 * j + 1] = _ratio(len(fm.tucked), 4)
            if up:  # the face is public once face up (MET-D4)
                size = card.size_by_zone[zone] if card.size_by_zone is not None else card.size
                if size is not None:
                    out[self.o_field_size + j] = _ratio(size, SIZE_SCALE)
                trait = card.trait
                t = self.trait_index.get(trait) if trait else None
                if t is not None:
                    out[self.o_field_trait + j * self.ntraits + <int>t] = 1.0
            j += 1
        win = st.window
        cdef dict targeted
        if win is not None:  # the volley's targets, summed in double precision, then written once
            res = data.resources
            targeted = {}
            for launch in win["launches"]:
                pos = refs.get(launch["target"])
                if pos is not None:
                    dmg = res[launch["cards"][0]].damage
                    targeted[pos] = min(1.0, targeted.get(pos, 0.0) + float(dmg or 0) / SIZE_SCALE)
            for pos, v in targeted.items():
                out[self.o_field_targeted + <int>pos] = v
        out[self.o_removed] = _ratio(len(st.removed), f)
        out[self.o_meteor_deck] = _ratio(len(st.meteor_deck), self.meteor_total)
        out[self.o_resource_deck] = _ratio(len(st.deck), self.resource_total)
        self._per_base(out, self.o_discard, st.discard)
        hands = st.hands
        if not st.has_challenge(me, BACKWARDS):  # Backwards: only the others see my hand (MET-D4)
            self._per_base(out, self.o_hand_mine, hands[me])
        elif hands[me]:
            out[self.o_hand_hidden] = 1.0
        sites, known, countdowns, passes = st.sites, st.known, st.countdowns, st.passes
        site_facts = self.direct._site_facts
        cdef dict facts = self.direct._site  # its cache by content, read here first (the same key)
        built = st.built
        for r in range(n):  # per relative seat: hand, shown cards, sites, Pass
            s = (me + r) % n
            out[self.o_hand_count + r] = _ratio(len(hands[s]), 20)
            self._per_base(out, self.o_known + r * nb, known[s])
            mine = sites[s]
            for slot in range(min(2, len(mine))):
                i = 2 * r + slot
                out[self.o_site_exists + i] = 1.0
                self._per_base(out, self.o_site_cards + i * nb, mine[slot])
                rules = _cost_rules(st, s)
                got = facts.get((built[s][slot], rules.fa, rules.solar, *mine[slot]))
                st_i, miss, site_dmg = got if got is not None else site_facts(st, s, slot)
                if st_i >= 0:
                    out[self.o_site_status + i * self.ns + <int>st_i] = 1.0
                at = self.o_site_missing + i * self.ne
                for v in miss:
                    if v:
                        out[at] = v
                    at += 1
                out[self.o_site_damage + i] = site_dmg
                for cd in countdowns:
                    if cd["site"] == [s, slot]:
                        out[self.o_site_countdown + i] = 1.0 if cd["due"] is not None else 0.0
                        break
            if passes[s]:
                out[self.o_passes + r] = 1.0
        for tech in st.techs:  # technologies built
            ti_ = self.tech_index.get(tech.partition("#")[0])
            if ti_ is not None:
                out[self.o_techs + <int>ti_] = 1.0
        if win is not None:
            out[self.o_volley] = 1.0
            out[self.o_volley + 1] = _ratio(float(win["closes"]) - float(st.now), self.window_s)
        powers, used, zone_used, challenges = st.powers, st.used, st.zone_used, st.challenges
        for r in range(n):  # Powers and Challenges
            s = (me + r) % n
            p = powers[s]
            if p is not None:
                out[self.o_powers + r * self.npow + <int>self.power_index[p]] = 1.0
                if used[s] or zone_used[s]:
                    out[self.o_powers_used + r] = 1.0
            c = challenges[s]
            if c is not None:
                out[self.o_challenges + r * self.nch + <int>self.challenge_index[c]] = 1.0
        out[self.o_talk] = 1.0 if _may_chat(st, me) else 0.0
        out[self.o_talk + 1] = 1.0 if _may_show(st, me) else 0.0
        out[self.o_mulligan_used] = 1.0 if st.mulligan_used else 0.0
        out[self.o_over] = 1.0 if st.outcome is not None else 0.0
        return 0

    def legal(self, st, int seat):
        """``MeteorDirect.legal(st, seat)``: ``legal_map(st.legal_actions(seat), st.view(seat))`` without the view,
        the first legal action of each catalog entry winning."""
        cdef dict out = {}
        cdef dict pos = {}
        cdef dict by_id = self.by_id
        cdef int j = 0
        for fm in st.field:
            pos[fm.ref] = j
            j += 1
        mini = None
        for a in st.legal_actions(seat):
            target = getattr(a, "target", None)
            p = pos.get(target, -1) if target is not None else -1
            kid = (seat, id(a), p)
            i = by_id.get(kid)
            if i is None:
                k = (seat, a, p)  # the readable path's key and cache
                i = self.keys.get(k)
                if i is None:
                    if mini is None:  # all that ``key`` reads of a view: the seat and the field's handles
                        mini = {"seat": seat, "field": [{"ref": fm.ref} for fm in st.field]}
                    name = self.enc.key(a, mini)
                    i = self.index.get(name, -1) if name is not None else -1
                    if len(self.keys) > CACHE_MAX:
                        self.keys.clear()
                    self.keys[k] = i
                if len(by_id) > CACHE_MAX:
                    by_id.clear()
                    del self.alive[:]
                by_id[kid] = i
                self.alive.append(a)
            if i >= 0 and i not in out:
                out[i] = a
        return _MapLegal(out)
