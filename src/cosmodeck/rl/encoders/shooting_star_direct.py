"""Shooting Star observations and masks straight from the state, through seat ``me``'s information filter.

``encode_state(st, me)`` writes exactly what ``ShootingStarEncoder.encode(st.view(me))`` writes
(``tests/rl/test_direct.py`` proves it on thousands of random states), without building the view:
it reads the state's fields and keeps only what SHS-D2 lets ``me`` see: the board and every
card's owner, cell, arrow and order (public); the face of a placed card only if ``me`` placed it;
``me``'s own hand and missions (other hands: counts and the used cards, which are public once
revealed); the piles (public); the reserve as a count. The catalog index of a placement is
``(card * cells + cell) * arrows + arrow``, so the mask comes straight from the hand and the
free cells, and an index decodes back to the game's own ``Place`` object.

When the extension ``shooting_star_fast`` (``shooting_star_fast.pyx``) was built, ``write`` and ``fill_mask``
hand NumPy rows (and memoryviews of them) to its ``CompiledWriter``, which copies ``write_py`` and
``fill_mask_py`` line by line in C; without it (or for a list) the readable ``write_py``/``fill_mask_py`` run.
``tests/rl/test_direct.py`` proves both equal to encoding ``view(seat)``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cosmodeck.games.shooting_star.cards import DARK_LEVEL
from cosmodeck.games.shooting_star.rules_setup import PHASE_PLACE
from cosmodeck.games.shooting_star.rules_turn import planets_left
from cosmodeck.rl.encoders.base import ratio

try:  # the compiled writer (setup.py builds it); without it the readable methods below run
    from cosmodeck.rl.encoders.shooting_star_fast import CompiledWriter as _WRITER

    _COMPILED: type[_WRITER] | None = _WRITER
except ImportError:  # pragma: no cover - a build without the extensions
    _COMPILED = None

if TYPE_CHECKING:
    from cosmodeck.games.shooting_star.state import ShootingStarState
    from cosmodeck.rl.encoders.shooting_star import ShootingStarEncoder

ARROWS = ("N", "E", "S", "W")
KINDS = ("12", "34", "dark")
PILE_SCALE = 20.0


class ShootingStarDirect:
    """The direct path of one ``ShootingStarEncoder`` (built by it; shares its layout and catalog)."""

    def __init__(self, enc: ShootingStarEncoder) -> None:
        self.enc = enc
        sl = enc.slices()
        self.off = {name: s.start for name, s in sl.items()}
        self.size = enc.obs_size
        self.n = enc.players
        self.k = len(enc.cards)
        self.nm = len(enc.names)
        self.g = len(enc.cells)
        self.na = len(enc.arrows)
        self.arrow_index = {a: i for i, a in enumerate(enc.arrows)}
        self._on, self._off = b"\x01" * self.na, b"\x00" * self.na  # one cell's arrows in a mask row
        self._planet: dict[tuple[int, str, int], tuple[int, ...]] = {}
        self._prog: dict[tuple[str, ...], float] = {}
        self._progs: dict[tuple[tuple[str, ...], ...], tuple[float, ...]] = {}
        self._board: dict[tuple[Any, ...], tuple[int, ...]] = {}
        self._pile: dict[tuple[tuple[str, ...], tuple[str, ...]],
                         tuple[tuple[float, ...], tuple[float, ...], tuple[int, ...]]] = {}
        #: the compiled ``write``/``fill_mask`` (``shooting_star_fast``), ``None`` without the extension
        self.compiled: Any = _COMPILED(self) if _COMPILED is not None else None

    # ---- observation -------------------------------------------------------------------
    def _planet_slots(self, i: int, pid: str, lvl: int) -> tuple[int, ...]:
        """The indices set to 1 for planet ``pid`` at level ``lvl`` on cell ``i`` (cached)."""
        key = (i, pid, lvl)
        got = self._planet.get(key)
        if got is None:
            enc, off = self.enc, self.off
            p = enc.data.planets[pid]
            idx = [off["cell_planet"] + i, off["cell_kind"] + i * 3 + KINDS.index(p.kind)]
            if lvl != DARK_LEVEL:
                idx.append(off["cell_level"] + i * 4 + lvl - 1)
            if p.moons:
                idx.append(off["cell_moon"] + i)
            j = enc.name_index.get(p.name) if p.name is not None else None
            if j is not None:
                idx.append(off["cell_name"] + i * self.nm + j)
            got = self._planet[key] = tuple(idx)
        return got

    def _pile_stats(self, cq: tuple[str, ...], db: tuple[str, ...]
                    ) -> tuple[tuple[float, ...], tuple[float, ...], tuple[int, ...]]:
        """(conquest's 6 values, debris's 3 values, name indices captured) of two piles (cached)."""
        key = (tuple(cq), tuple(db))  # the engine's piles are tuples (``tuple`` returns them as they are)
        got = self._pile.get(key)
        if got is None:
            enc = self.enc
            planets = enc.data.planets
            cq_pl = [p for p in cq if p in planets]
            db_pl = [p for p in db if p in planets]
            conquest = (ratio(len(cq), PILE_SCALE), ratio(len(cq_pl), PILE_SCALE),
                        ratio(sum(1 for p in cq_pl if planets[p].moons), PILE_SCALE),
                        ratio(sum(1 for p in cq_pl if planets[p].kind == "12"), PILE_SCALE),
                        ratio(sum(1 for p in cq_pl if planets[p].kind == "34"), PILE_SCALE),
                        ratio(len(cq) - len(cq_pl), PILE_SCALE))
            debris = (ratio(len(db), PILE_SCALE), ratio(sum(1 for p in db_pl if planets[p].kind != "dark"), PILE_SCALE),
                      ratio(sum(1 for p in db_pl if planets[p].kind == "dark"), PILE_SCALE))
            names = tuple(sorted({enc.name_index[nm] for p in (*cq_pl, *db_pl)
                                  if (nm := planets[p].name) is not None and nm in enc.name_index}))
            if len(self._pile) > 50_000:
                self._pile.clear()
            got = self._pile[key] = (conquest, debris, names)
        return got

    def _board_slots(self, st: ShootingStarState) -> tuple[int, ...]:
        """The indices set to 1 by the planets on the board (public, the same for every seat; cached per
        board: it changes only when a turn resolves)."""
        key = tuple(st.board.items())
        got = self._board.get(key)
        if got is None:
            cell_index = self.enc.cell_index
            shown = st.shape if st.shape_order else st.board  # the view's cells
            idx: list[int] = []
            for cell_at, (pid, lvl) in key:
                i = cell_index.get(cell_at)
                if i is not None and cell_at in shown:
                    idx.extend(self._planet_slots(i, pid, lvl))
            if len(self._board) > 50_000:
                self._board.clear()
            got = self._board[key] = tuple(idx)
        return got

    def write(self, st: ShootingStarState, me: int, out: Any, cache: dict[str, Any] | None = None) -> None:
        """Fill ``out`` (all zero, the observation's length: a list, or a memoryview of a float32 row,
        written item by item) with seat ``me``'s observation: compiled when built (not for a list)."""
        compiled = self.compiled
        if compiled is not None and not isinstance(out, list):
            compiled.write(st, me, out, False)
            return
        self.write_py(st, me, out, cache)

    def write_py(self, st: ShootingStarState, me: int, out: Any, cache: dict[str, Any] | None = None) -> None:
        """``write`` in readable Python (the reference the compiled writer copies)."""
        enc, off = self.enc, self.off
        n, k, nm = self.n, self.k, self.nm
        turn = st.turn - 1
        if 0 <= turn < enc.max_turns:
            out[off["turn"] + turn] = 1.0
        out[off["invader"] + (st.invader - me) % n] = 1.0
        for s in st.to_act:
            out[off["to_act"] + (s - me) % n] = 1.0
        out[off["placed_count"]] = ratio(len(st.placed), n)
        cell_index = enc.cell_index
        shown = st.shape if st.shape_order else st.board  # the view's cells
        for j in self._board_slots(st):
            out[j] = 1.0
        card_index = enc.card_index
        owner, ctype, arrow, order = off["cell_card_owner"], off["cell_card_type"], off["cell_card_arrow"], \
            off["cell_card_order"]
        facedown: dict[int, str] = {}
        for num, (s, kind, cell, arr) in enumerate(st.placed):
            facedown[s] = kind
            i = cell_index.get(cell)
            if i is None or cell not in shown:
                continue
            out[owner + i * n + (s - me) % n] = 1.0
            if s == me:
                out[ctype + i * k + card_index[kind]] = 1.0
            out[arrow + i * 4 + ARROWS.index(arr)] = 1.0
            out[order + i] = ratio(num + 1, n)
        hand_mine, hand_count, used = off["hand_mine"], off["hand_count"], off["used"]
        for mine in st.hands[me]:
            out[hand_mine + card_index[mine]] = 1.0
        hand_size = enc.hand_size
        cards = enc.cards
        conquest, debris, names = off["conquest"], off["debris"], off["names_captured"]
        for s in range(n):
            r = (s - me) % n
            hand = st.hands[s]
            out[hand_count + r] = ratio(len(hand), hand_size)
            if len(hand) + (s in facedown) < k:
                gone = set(hand)
                if s in facedown:
                    gone.add(facedown[s])
                for j, name in enumerate(cards):
                    if name not in gone:
                        out[used + r * k + j] = 1.0
            cq_v, db_v, nm_i = self._pile_stats(st.conquest[s], st.debris[s])
            at = conquest + r * 6
            for j, v in enumerate(cq_v):  # item by item: ``out`` may be a memoryview of a float32 row
                out[at + j] = v
            at = debris + r * 3
            for j, v in enumerate(db_v):
                out[at + j] = v
            for j in nm_i:
                out[names + r * nm + j] = 1.0
        held = st.missions[me]
        for m in held:
            mj = enc.mission_index.get(m)
            if mj is not None:
                out[off["missions_mine"] + mj] = 1.0
        if held:
            prog = off["mission_progress"]
            for j, v in enumerate(self._missions_progress(tuple(held), st.conquest[me], st.debris[me])):
                out[prog + j] = v
        out[off["reserve"]] = ratio(len(st.reserve), 49)
        out[off["planets_left"]] = ratio(planets_left(st), self.g)
        out[off["over"]] = 1.0 if st.res is not None else 0.0

    def _missions_progress(self, held: tuple[str, ...], cq: tuple[str, ...], db: tuple[str, ...]) -> tuple[float, ...]:
        """The ``mission_progress`` values of missions ``held`` with piles ``cq`` and ``db`` (cached)."""
        key = (held, tuple(cq), tuple(db))
        got = self._progs.get(key)
        if got is None:
            data = self.enc.data
            planets = data.planets
            captured = [p for p in (*cq, *db) if p in planets]
            got = tuple(self._progress(m, captured)
                        for m in sorted(held, key=lambda m: data.missions[m].points)[:3])
            if len(self._progs) > 50_000:
                self._progs.clear()
            self._progs[key] = got
        return got

    def _progress(self, mid: str, captured: list[str]) -> float:
        key = (mid, *captured)
        got = self._prog.get(key)
        if got is None:
            m = self.enc.data.missions[mid]
            if len(self._prog) > 50_000:
                self._prog.clear()
            got = self._prog[key] = self.enc._progress({"named": list(m.named), "need": dict(m.need)}, captured)
        return got

    # ---- actions -----------------------------------------------------------------------
    def legal_indices(self, st: ShootingStarState, seat: int) -> list[int]:
        """The catalog indices of ``st.legal_actions(seat)`` (SHS-D1: hand x free cells x arrows)."""
        if st.res is not None or st.phase != PHASE_PLACE or seat not in st.to_act:
            return []
        enc = self.enc
        cell_index, card_index = enc.cell_index, enc.card_index
        cells = [cell_index[c] for c in st.free_cells() if c in cell_index]
        g, na = self.g, self.na
        out: list[int] = []
        for card in st.hands[seat]:
            base = card_index[card] * g
            for ci in cells:
                start = (base + ci) * na
                out.extend(range(start, start + na))
        return out

    def fill_mask(self, st: ShootingStarState, seat: int, row: Any) -> None:
        """Set ``row`` (an all-zero int8 vector of the catalog's length) to 1 at ``legal_indices(st, seat)``:
        compiled when built (for a contiguous int8 row), else ``fill_mask_py``."""
        compiled = self.compiled
        if compiled is not None and row.dtype.char == "b" and row.flags.c_contiguous:
            compiled.fill_mask(st, seat, row, False)
            return
        self.fill_mask_py(st, seat, row)

    def fill_mask_py(self, st: ShootingStarState, seat: int, row: Any) -> None:
        """``fill_mask`` in readable Python, with one NumPy assignment over (hand cards x free cells) instead
        of a Python list of indices."""
        if st.res is not None or st.phase != PHASE_PLACE or seat not in st.to_act:
            return
        enc = self.enc
        cell_index, card_index = enc.cell_index, enc.card_index
        cells = [cell_index[c] for c in st.free_cells() if c in cell_index]
        if not cells or not st.hands[seat]:
            return
        if row.itemsize != 1 or not row.flags.c_contiguous:  # the byte pattern below fits a contiguous int8 row
            row.reshape(self.k, self.g, self.na)[[[card_index[c]] for c in st.hands[seat]], cells] = 1
            return
        # each hand card's block of (cells x arrows) entries is the same pattern: 1 on the free cells' arrows
        free = set(cells)
        on, off = self._on, self._off
        pattern = b"".join([on if i in free else off for i in range(self.g)])
        block = len(pattern)
        out = memoryview(row).cast("B")
        for c in st.hands[seat]:
            at = card_index[c] * block
            out[at:at + block] = pattern

    def action_of(self, st: ShootingStarState, seat: int, index: int) -> Any | None:
        """The legal ``Place`` action of catalog ``index`` for ``seat`` now, or ``None`` if it is not legal
        (compiled when built, else ``action_of_py``)."""
        compiled = self.compiled
        if compiled is not None:
            return compiled.action_of(st, seat, index)
        return self.action_of_py(st, seat, index)

    def action_of_py(self, st: ShootingStarState, seat: int, index: int) -> Any | None:
        """``action_of`` in readable Python."""
        if st.res is not None or st.phase != PHASE_PLACE or seat not in st.to_act:
            return None
        if not 0 <= index < self.enc.num_actions:
            return None
        rest, a = divmod(index, self.na)
        ci, cell_i = divmod(rest, self.g)
        card = self.enc.cards[ci]
        cell = self.enc.cells[cell_i]
        if card not in st.hands[seat] or cell not in st.board or any(p[2] == cell for p in st.placed):
            return None
        return st.game.place_rows[card][cell][a]
