"""Blast Off! observations straight from the state, through seat ``me``'s information filter (BLO-13).

``write(st, me, out, cache)`` writes exactly what ``BlastOffEncoder.encode(st.view(me))`` writes
(``tests/rl/test_direct.py`` proves it on thousands of random states) without building the view.
Of the hidden state it reads only ``me``'s own hand, ``me``'s own obligations, the card ``me``
drew (DRAWN, ``me`` to decide) and ``me``'s own pending hidden submission; everything else it
reads is public (hand sizes, piles' contents that are face up, counts of the face-down ones,
missions in force, countdown slots, penalties). The public log (``recent``) is replayed with
the bots' ``PublicLog`` from a dict of the public facts it reads; it is the same for every seat,
so it is replayed once per position (``cache``) and only expressed relative to each observer; a table
keeps a ``LogTrack`` in ``cache[MEMO]`` that follows the log from its last position instead of
replaying the whole window (``blast_off_track``: the same log, fewer events fed); when built, its compiled
copy ``blast_off_track_fast.FastLogTrack`` (``TRACK``), on the compiled ``FastPublicLog``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cosmodeck.bots.blast_off_log import PublicLog, replay_view
from cosmodeck.games.blast_off.cards import NO_VALUE, TYPE_NAME, VALUES, face_text
from cosmodeck.games.blast_off.phases import AUTHOR, CHOOSE, COUNTDOWN, DECLARE, DRAWN, PHASE_NAMES, RESPONSE
from cosmodeck.games.blast_off.view import _pile_face
from cosmodeck.rl.encoders.base import MEMO, ratio
from cosmodeck.rl.encoders.blast_off_track import LogTrack, pile_kind_face

try:  # the compiled writer (setup.py builds it); without it the readable path below is the only one
    from cosmodeck.rl.encoders.blast_off_fast import CompiledWriter as _WRITER

    _COMPILED: Any = _WRITER
except ImportError:  # pragma: no cover - a build without the extension
    _COMPILED = None

try:  # the compiled log tracker (``blast_off_track_fast.pyx``, the same features as ``LogTrack``)
    from cosmodeck.rl.encoders.blast_off_track_fast import FastLogTrack as _FAST_TRACK

    TRACK: type[LogTrack] | type[FastLogTrack] = _FAST_TRACK
except ImportError:  # pragma: no cover - a build without the extension
    TRACK = LogTrack

if TYPE_CHECKING:
    from cosmodeck.bots.blast_off_log.replay_fast import FastPublicLog
    from cosmodeck.games.blast_off.state import BlastOffState
    from cosmodeck.rl.encoders.blast_off import BlastOffEncoder
    from cosmodeck.rl.encoders.blast_off_track_fast import FastLogTrack

HAND_SCALE = 20.0
DECISION_OF = {DRAWN: 3, CHOOSE: 1, DECLARE: 0, AUTHOR: 2}  # index in the encoder's DECISIONS
VALUE_POS = {v: i for i, v in enumerate(VALUES)}


class BlastOffDirect:
    """The direct path of one ``BlastOffEncoder`` (built by it; shares its layout)."""

    def __init__(self, enc: BlastOffEncoder) -> None:
        self.enc = enc
        self.off = {name: s.start for name, s in enc.slices().items()}
        self.size = enc.obs_size
        self.n = enc.players
        self.ctype = enc.game.ctype
        self.inv_copies = tuple(1.0 / c for c in enc.copies)
        self.phase_pos = tuple(PHASE_NAMES.index(name) for name in PHASE_NAMES)
        self._count_cache: dict[tuple[int, ...], tuple[tuple[int, float], ...]] = {}
        #: the tracker a table's memo keeps (``TRACK``: the compiled ``FastLogTrack`` when built, else ``LogTrack``)
        self.track: type[LogTrack] | type[FastLogTrack] = TRACK
        #: the compiled writer (``blast_off_fast``: ``write`` and the mask and decoding of ``legal_map``, for the
        #: table's hooks), ``None`` without the extension
        self.compiled: Any = _COMPILED(self) if _COMPILED is not None else None

    def _counts(self, out: Any, start: int, cards: list[int]) -> None:
        """Per card type: the cards of that type among ``cards`` / its copies (cached per list of cards)."""
        key = tuple(cards)
        got = self._count_cache.get(key)
        if got is None:
            ctype, copies = self.ctype, self.enc.copies
            counts: dict[int, int] = {}
            for c in cards:
                t = ctype[c]
                counts[t] = counts.get(t, 0) + 1
            got = tuple((t, ratio(k, copies[t])) for t, k in counts.items())
            if len(self._count_cache) > 50_000:
                self._count_cache.clear()
            self._count_cache[key] = got
        for t, v in got:
            out[start + t] = v

    def _missions(self, out: Any, start: int, st: BlastOffState, missions: list[int], scale: float) -> None:
        index = self.enc.mission_index
        nm = len(self.enc.mission_ids)
        authored = 0
        for mi in missions:
            i = index.get(st.mission(mi).id)
            if i is None:
                authored += 1
            else:
                out[start + i] = 1.0
        out[start + nm] = ratio(authored, scale)

    def public_log(self, st: BlastOffState, cache: dict[str, Any] | None) -> PublicLog | FastPublicLog | None:
        """The replayed public log of this position (``None``: over, or nothing logged yet)."""
        if st.res is not None or not st.recent:
            return None
        if cache is not None and "blast_off_log" in cache:
            got: PublicLog | FastPublicLog | None = cache["blast_off_log"]
            return got
        memo = cache.get(MEMO) if cache is not None else None
        log: PublicLog | FastPublicLog
        if memo is not None:  # the table's log followed from its last position (equal to the full replay)
            track: LogTrack | FastLogTrack | None = memo.get("blast_off_track")
            if track is None:
                track = memo["blast_off_track"] = self.track()
            if isinstance(track, LogTrack):
                log = track.log(self.enc.game, st, self.public_facts(st))
            else:  # the compiled tracker reads the public facts from the state (``log_state``)
                log = track.log_state(self.enc.game, st, self)
        else:
            log = replay_view(self.enc.game, self.public_facts(st))
        if cache is not None:
            cache["blast_off_log"] = log
        return log

    def public_facts(self, st: BlastOffState) -> dict[str, Any]:
        """What the log's replay reads of the view, from the state (public facts only)."""
        return {
            "timing": "realtime" if st.rt else "steps",
            "missions": [{"id": m.id, "source": m.source} for mi in st.revealed
                         if mi >= len(st.g.missions) for m in (st.mission(mi),)],
            "missions_in_force": [{"id": st.mission(mi).id} for mi in st.inforce],
            "hand_sizes": [len(h) for h in st.hands],
            "top": {"card": TYPE_NAME[self.ctype[st.disc[-1]]], "face": face_text(st.fcol, st.fval)},
            "countdown": {} if st.in_countdown() else None,
            "response_step": st.resp_no,
            "now": st.now,
            "recent": st.recent,
            "discard": _Discard(st),
        }

    def write(self, st: BlastOffState, me: int, out: Any, cache: dict[str, Any] | None) -> None:
        """Fill ``out`` (all zero, the observation's length: a list, or a memoryview of a float32 row,
        written item by item) with seat ``me``'s observation."""
        enc, off, n = self.enc, self.off, self.n
        out[off["phase"] + self.phase_pos[st.phase]] = 1.0
        out[off["turn"] + (st.cur - me) % n] = 1.0
        out[off["dealer"] + (st.dealer - me) % n] = 1.0
        out[off["direction"]] = 1.0 if st.dir == 1 else 0.0
        self._counts(out, off["hand"], st.hands[me])
        hs, act = off["hand_sizes"], off["active"]
        for s, h in enumerate(st.hands):
            r = (s - me) % n
            out[hs + r] = ratio(len(h), HAND_SCALE)
            if h:
                out[act + r] = 1.0
        out[off["draw_pile"]] = ratio(len(st.draw), enc.deck_size)
        self._counts(out, off["discard"], st.disc)
        out[off["top_card"] + self.ctype[st.disc[-1]]] = 1.0
        if 0 <= st.fcol < 4:
            out[off["top_colour"] + st.fcol] = 1.0
        if st.fval != NO_VALUE:
            out[off["top_value"] + VALUE_POS[st.fval]] = 1.0
        self._missions(out, off["missions_in_force"], st, st.inforce, 1.0)
        self._missions(out, off["missions_discarded"], st, st.mdisc, 4.0)
        out[off["mission_deck"]] = ratio(len(st.mdeck), max(1, len(enc.mission_ids)))
        sk = off["skip_marks"]
        for s, k in enumerate(st.skip):
            out[sk + (s - me) % n] = ratio(k, 3)
        for s in st.placings:
            out[off["placings"] + (s - me) % n] = 1.0
        out[off["passes"]] = ratio(st.passes, n)
        if st.in_countdown():
            out[off["countdown"]] = 1.0
            out[off["cd_rocket"] + (st.cd_rocket - me) % n] = 1.0
            idx, seq, slots = st.cd_idx, st.cd_seq, st.cd_slots
            if 0 <= idx < len(seq):
                out[off["cd_called"] + VALUE_POS[seq[idx]]] = 1.0
            for v in slots:
                out[off["cd_filled"] + VALUE_POS[v]] = 1.0
            for v in seq[:max(idx, 0)]:
                if v not in slots:
                    out[off["cd_skipped"] + VALUE_POS[v]] = 1.0
            if st.cd_last >= 0:
                out[off["cd_last"] + (st.cd_last - me) % n] = 1.0
            acted = st.cd_acted if st.rt else st.pend if st.phase == COUNTDOWN else ()
            for s in acted:
                out[off["cd_acted"] + (s - me) % n] = 1.0
        nm = len(enc.mission_ids)
        first_count: int | None = None
        for o in st.obls:
            if o[0] == me:
                out[off["obligations"] + enc.mission_index.get(st.mission(o[1]).id, nm)] = 1.0
                expect = o[2]
                if first_count is None and isinstance(expect, str) and expect.isdigit():
                    first_count = int(expect)
        if first_count is not None:
            out[off["obligation_count"]] = ratio(first_count, enc.deck_size)
        dec = DECISION_OF.get(st.phase)
        if dec is not None:
            out[off["decision"] + dec] = 1.0
        if st.phase == DRAWN and me == st.cur and st.drawn >= 0:
            out[off["drawn"] + self.ctype[st.drawn]] = 1.0
        if not st.rt and me in st.pend:
            p = st.pend[me]
            out[off["pending"]] = ratio(len(p) if isinstance(p, list) else 1, 4)
        if st.phase == RESPONSE:
            for s in st.rdone:
                out[off["responded"] + (s - me) % n] = 1.0
        pen = off["penalties"]
        for s, kind, _m in st.penalties:
            out[pen + ((s - me) % n) * 2 + (1 if kind == "false_catch" else 0)] += 0.25
        for j in range(pen, pen + 2 * n):  # counts / 4, clipped to [0, 1] as ratio() does
            out[j] = min(out[j], 1.0)
        log = self.public_log(st, cache)
        if log is not None and (log.obls or log.viols):  # (nothing owed nor found: every feature is 0)
            owed, owed_left, viol, viol_left = enc.log_features(log, st.now, me)
            for name, vals in (("owed", owed), ("owed_left", owed_left), ("violations", viol),
                               ("violation_left", viol_left)):
                start = off[name]
                for k, x in enumerate(vals):  # item by item: ``out`` may be a memoryview of a float32 row
                    if x:
                        out[start + k] = x
        out[off["over"]] = 1.0 if st.res is not None else 0.0


class _Discard:
    """The discard pile as the view lists it (card name and face), built only for the entries read."""

    __slots__ = ("st",)

    def __init__(self, st: BlastOffState) -> None:
        self.st = st

    def __len__(self) -> int:
        return len(self.st.disc)

    def __getitem__(self, i: int) -> dict[str, str]:
        cid = self.st.disc[i]
        return {"card": TYPE_NAME[self.st.g.ctype[cid]], "face": _pile_face(self.st, cid)}

    def kind_face(self, i: int) -> tuple[int, tuple[int, int]]:
        """What the log's tracker reads of entry ``i``: ``TYPE_KIND[TYPE_BY_NAME[e["card"]]]`` and
        ``records.face(e["face"])`` of ``e = self[i]``, without building the entry (``pile_kind_face``)."""
        return pile_kind_face(self.st, i)
