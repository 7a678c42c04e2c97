"""The Shooting Star heuristic's scores, compiled or vectorised over every candidate placement at once.

When the compiled kernel (``shooting_star_kernel.pyx``: the reference's operations in C, in the same order,
from the view straight to the scores) is built, it scores every call it covers; otherwise, and for what it
does not cover, the NumPy path below runs, and it falls back to the reference in turn.

:func:`fast_scores` returns exactly what :func:`cosmodeck.bots.heuristic.shooting_star.scores` returns
(the readable reference, one placement at a time), from the same view, bit for bit: the per-target steps
of ``ShsEval._attack`` run as NumPy operations over all candidates in the same order of floating-point
operations, the memo of the reference (a placement takes the value of the first earlier placement
with the same card, cell and set of planet targets) is reproduced with ``np.unique``, and the rare
isolation step (SHS-10: a capture leaves a neighbour without neighbours) runs per candidate in Python.
``tests/bots/test_shooting_star_fast.py`` compares both on thousands of views of seeded games.

What is precomputed: per game, the interned ``Place`` actions (``game.place_rows``) as integer codes;
per view, a padded cell grid with the planet, level, opponent-card and capture tables, and the
"destroyed first" chance per (cell, priority).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from cosmodeck.bots.base import LazyView
from cosmodeck.bots.heuristic.shooting_star import (
    DESTROY_GAIN,
    FLIP_COST,
    ISOLATE_GAIN,
    KEEP,
    LATER_THREAT,
    SHIELD_LOSS,
    ShsEval,
    scores,
)
from cosmodeck.engine.rng import Rng
from cosmodeck.games.shooting_star.actions import Place
from cosmodeck.games.shooting_star.cards import NEIGHBOURS, Cell
from cosmodeck.games.shooting_star.game import ShootingStarGame

try:
    from cosmodeck.bots.heuristic.shooting_star_kernel import Kernel
except ImportError:  # pragma: no cover - a build without the compiled extension: the NumPy path below
    Kernel = None  # type: ignore[assignment,misc]
_BotView: type | None
try:
    from cosmodeck.games.shooting_star.view_fast import BotView as _BotView
except ImportError:  # pragma: no cover - not built: the bot is given plain dicts (``view.bot_view_py``)
    _BotView = None

Floats = npt.NDArray[np.float64]
Ints = npt.NDArray[np.int64]
Bools = npt.NDArray[np.bool_]
PAD = 4  # cells of margin around the grid: every hit offset must be at most this far (else: reference)


class _Codes:
    """Per game: card and arrow indices, hit offsets per (card, arrow), and the interned actions seen so far."""

    def __init__(self, game: ShootingStarGame) -> None:
        data = game.data
        self.cards = list(data.card_order)
        self.card_ix = {k: i for i, k in enumerate(self.cards)}
        self.arrows = list(game.arrows)
        self.arrow_ix = {a: i for i, a in enumerate(self.arrows)}
        self.max_hits = max(1, *(len(data.cards[k].hits) for k in self.cards))
        # offsets[card, arrow, slot] (dx, dy); nhits[card]
        self.dx = np.zeros((len(self.cards), len(self.arrows), self.max_hits), dtype=np.int64)
        self.dy = np.zeros_like(self.dx)
        self.nhits = np.zeros(len(self.cards), dtype=np.int64)
        self.ok = True
        for i, k in enumerate(self.cards):
            ct = data.cards[k]
            self.nhits[i] = len(ct.hits)
            for j, a in enumerate(self.arrows):
                for s, (dx, dy) in enumerate(ct.rotated[a]):
                    self.dx[i, j, s], self.dy[i, j, s] = dx, dy
                    if max(abs(dx), abs(dy)) > PAD:
                        self.ok = False
        self.dx_flat = [self.dx[:, :, s].reshape(-1).copy() for s in range(self.max_hits)]  # [slot][card * na + arrow]
        self.dy_flat = [self.dy[:, :, s].reshape(-1).copy() for s in range(self.max_hits)]
        self.priority = np.array([data.cards[k].priority or 0 for k in self.cards], dtype=np.int64)
        self.shield = np.array([data.cards[k].shield for k in self.cards], dtype=np.bool_)
        self.keep = np.array([KEEP.get(k, 0.0) for k in self.cards], dtype=np.float64)
        self.p7 = np.array([k == "P7" for k in self.cards], dtype=np.bool_)  # the reference names it
        # slot s may hit the cell an earlier slot k hit (some card has the same offset twice): repeats[s] = ks
        self.repeats: dict[int, tuple[int, ...]] = {}
        for s in range(self.max_hits):
            has = self.nhits[:, None] > s
            ks = tuple(k for k in range(s)
                       if ((self.dx[:, :, k] == self.dx[:, :, s]) & (self.dy[:, :, k] == self.dy[:, :, s]) & has).any())
            if ks:
                self.repeats[s] = ks
        self.code: dict[int, int] = {}  # id(action) -> code; ``obj`` keeps the action alive (ids stay unique)
        self.obj: dict[int, Place] = {}
        self.gains: dict[Any, dict[str, float]] = {}  # ShsEval's mission_gain memo, shared by this game's views
        self.kernel: Kernel | None = None
        if Kernel is not None:
            kernel = Kernel(game)
            self.kernel = kernel if kernel.ok else None

    def repeated_later(self, k: int) -> bool:
        return any(k in ks for ks in self.repeats.values())

    def _learn(self, a: Any) -> bool:
        if not isinstance(a, Place) or a.card not in self.card_ix or a.orientation not in self.arrow_ix:
            return False
        x, y = a.cell
        if not (-_OFF <= x < _OFF and -_OFF <= y < _OFF):
            return False
        if len(self.code) > 200_000:
            self.code.clear()
            self.obj.clear()
        cell = (x + _OFF) * _SPAN + y + _OFF
        self.code[id(a)] = (self.card_ix[a.card] * _SPAN * _SPAN + cell) * 8 + self.arrow_ix[a.orientation]
        self.obj[id(a)] = a
        return True

    def encode(self, legal: Sequence[Any]) -> tuple[Ints, Ints, Ints, Ints] | None:
        """(card, x, y, arrow) arrays of ``legal``, or ``None`` if an action is not a known kind of ``Place``.

        An id in ``code`` is that of the very action stored in ``obj`` (kept alive there, so no other
        live object has its id): a hit needs no identity check.
        """
        try:
            code = np.fromiter(map(self.code.__getitem__, map(id, legal)), dtype=np.int64, count=len(legal))
        except KeyError:
            for a in legal:
                if self.obj.get(id(a)) is not a and not self._learn(a):
                    return None
            code = np.fromiter(map(self.code.__getitem__, map(id, legal)), dtype=np.int64, count=len(legal))
        arrow = code % 8
        code //= 8
        y = code % _SPAN - _OFF
        code //= _SPAN
        return code // _SPAN, code % _SPAN - _OFF, y, arrow


_OFF = 1 << 12
_SPAN = 2 * _OFF
_CODES: dict[int, tuple[ShootingStarGame, _Codes]] = {}


def _codes(game: ShootingStarGame) -> _Codes:
    hit = _CODES.get(id(game))
    if hit is None or hit[0] is not game:
        if len(_CODES) > 16:
            _CODES.clear()
        hit = _CODES[id(game)] = (game, _Codes(game))
    return hit[1]


def fast_scores(game: ShootingStarGame, view: Mapping[str, Any], legal: Sequence[Any],
                compiled: bool = True) -> list[float]:
    """A score per legal action, identical to the reference ``scores`` (which it falls back to when an
    action is not a ``Place``, the card set hits farther than the padding or the board is too large).
    ``compiled=False``: never the compiled kernel (the NumPy path, for tests)."""
    if not legal:
        return []
    got = score_array(game, view, legal, compiled)
    return got.tolist() if isinstance(got, np.ndarray) else got


def _plain(view: Mapping[str, Any]) -> Mapping[str, Any] | None:
    """The view as the kernel reads it (a plain dict, a simulator's ``LazyView`` resolved, or the compiled bot
    view ``games/shooting_star/view_fast.pyx:BotView``), or ``None``."""
    if type(view) is LazyView:
        view = view.resolve()
    return view if type(view) is dict or type(view) is _BotView else None


def best_indices(game: ShootingStarGame, view: Mapping[str, Any], legal: Sequence[Any]) -> list[int] | None:
    """The compiled kernel's indices of the best scores (within 1e-12 of the top, in order), or ``None``
    when it does not score this call (the caller then scores with ``score_array``)."""
    return best_indices_of(game)(view, legal)


def best_indices_of(game: ShootingStarGame) -> Callable[[Mapping[str, Any], Sequence[Any]], list[int] | None]:
    """``best_indices`` bound to ``game`` (what a bot keeps: no per-call look-up of the game's kernel)."""
    kernel = _codes(game).kernel
    if kernel is None:
        return lambda view, legal: None
    kbest = kernel.best

    def best(view: Mapping[str, Any], legal: Sequence[Any]) -> list[int] | None:
        if type(view) is LazyView:
            view = view.resolve()
        if type(legal) is not list or (type(view) is not dict and type(view) is not _BotView):
            return None
        return kbest(view, legal)

    return best


def chooser_of(game: ShootingStarGame) -> Callable[[Mapping[str, Any], Sequence[Any], Rng], Any | None]:
    """The bot's move without noise, bound to ``game``: the compiled kernel's ``choose`` (one of the best scores'
    actions, drawn with ``rng.randbelow`` as the bot's list path draws it; it scores only the attacks that may
    be among the best), or ``None`` when it does not score this call (the caller then scores and picks)."""
    kernel = _codes(game).kernel
    if kernel is None:
        return lambda view, legal, rng: None
    return kernel.choose


def noisy_best_indices_of(game: ShootingStarGame) -> Callable[[Mapping[str, Any], Sequence[Any], float, Rng],
                                                              list[int] | None]:
    """The compiled kernel's best indices of the scores plus ``noise * rng.random()`` each (drawn in the order of
    ``legal``, as the bot's list path draws them), bound to ``game``; ``None``: the caller draws and picks."""
    kernel = _codes(game).kernel
    if kernel is None:
        return lambda view, legal, noise, rng: None
    knoisy = kernel.best_noisy

    def best(view: Mapping[str, Any], legal: Sequence[Any], noise: float, rng: Rng) -> list[int] | None:
        if type(view) is LazyView:
            view = view.resolve()
        if type(legal) is not list or (type(view) is not dict and type(view) is not _BotView):
            return None
        return knoisy(view, legal, noise, rng)

    return best


def score_array(game: ShootingStarGame, view: Mapping[str, Any], legal: Sequence[Any],
                compiled: bool = True) -> Floats | list[float]:
    """``fast_scores`` as a NumPy array, or as a list (the compiled kernel's, or the reference's)."""
    codes = _codes(game)
    if compiled and codes.kernel is not None and type(legal) is list:
        plain = _plain(view)
        if plain is not None:
            got = codes.kernel.scores(plain, legal)
            if got is not None:
                return got
    enc = codes.encode(legal) if codes.ok and legal else None
    if enc is None:
        return scores(game, view, legal)
    ev = ShsEval(game, view, codes.gains)
    if len(ev.board) > 62:
        return scores(game, view, legal)
    return _Scorer(codes, ev).run(*enc)


class _Scorer:
    """Tables of one view over a padded grid (index ``(y - y0) * w + (x - x0)``)."""

    def __init__(self, codes: _Codes, ev: ShsEval) -> None:
        self.c = codes
        self.ev = ev
        xs = [x for x, _ in ev.shape] or [0]
        ys = [y for _, y in ev.shape] or [0]
        self.x0, self.y0 = min(xs) - PAD, min(ys) - PAD
        self.w = w = max(xs) - self.x0 + PAD + 1
        n = w * (max(ys) - self.y0 + PAD + 1)
        present = [False] * n
        level = [0] * n
        opp = [False] * n
        oms = [1.0] * n
        capv = [0.0] * n
        bit = [0] * n  # 1 << compact index of a planet cell
        self.cell_of: dict[int, Cell] = {}
        for b, (cell, (pid, lv)) in enumerate(ev.board.items()):
            i = (cell[1] - self.y0) * w + (cell[0] - self.x0)
            present[i] = True
            level[i] = lv
            bit[i] = 1 << b
            capv[i] = ev.capture_value(pid) if lv else 0.0
            self.cell_of[i] = cell
        dirs = [dy * w + dx for dx, dy in NEIGHBOURS]
        for cell in ev.opp:
            if cell in ev.board:
                i = (cell[1] - self.y0) * w + (cell[0] - self.x0)
                opp[i] = True
                oms[i] = 1.0 - ev.shield_p.get(cell, 0.0)
        self.present = np.array(present, dtype=np.bool_)
        self.level = np.array(level, dtype=np.int64)
        self.opp = np.array(opp, dtype=np.bool_)
        self.one_minus_shield = np.array(oms, dtype=np.float64)
        self.capv = np.array(capv, dtype=np.float64)
        self.bit = np.array(bit, dtype=np.int64)
        self.board_ix = np.array(list(self.cell_of), dtype=np.int64)  # padded index per compact index
        self.board_bits = self.bit[self.board_ix]
        nbm = np.zeros(len(self.board_ix), dtype=np.int64)  # each planet's planet neighbours, as bits
        for d in dirs:  # distinct bits: the sum is their union (the padding keeps i + d on the grid)
            nbm += self.bit[self.board_ix + d]
        self.board_nbm = nbm

    def run(self, card: Ints, x: Ints, y: Ints, arrow: Ints) -> Floats:
        c, ev = self.c, self.ev
        cell_ix = (y - self.y0) * self.w + (x - self.x0)
        out = np.zeros(len(card), dtype=np.float64)
        shield = c.shield[card]
        if shield.any():  # the value of a Shield depends on its cell only
            per_cell: dict[int, float] = {}
            rows = np.flatnonzero(shield)
            cells, cards, xs, ys = cell_ix[rows].tolist(), card[rows].tolist(), x[rows].tolist(), y[rows].tolist()
            vals = []
            for ci, k, cx, cy in zip(cells, cards, xs, ys, strict=True):
                v = per_cell.get(ci)
                if v is None:
                    v = per_cell[ci] = ev.value(c.cards[k], (cx, cy), "N")
                vals.append(v)
            out[rows] = vals
        att = np.flatnonzero(~shield)
        if len(att):
            out[att] = self._attacks(card[att], x[att], y[att], arrow[att], cell_ix[att])
        return out

    def _table(self, pairs: set[tuple[int, int]], f: Any) -> Floats:
        """``f(cell, priority)`` as a table [priority, padded cell], filled at the given (cell, priority) pairs."""
        tab = np.zeros((max(p for _, p in pairs) + 1, len(self.present)), dtype=np.float64)
        for ci, p in pairs:
            cell = self.cell_of.get(ci)
            if cell is None:
                cell = (ci % self.w + self.x0, ci // self.w + self.y0)
            tab[p, ci] = f(cell, p)
        return tab

    def _attacks(self, card: Ints, x: Ints, y: Ints, arrow: Ints, cell_ix: Ints) -> Floats:
        c, ev = self.c, self.ev
        hits = c.nhits[card]
        # a slot the card does not have points at the padding corner (index 0: never a planet)
        ca = card * len(c.arrows) + arrow
        base = (y - self.y0) * self.w + (x - self.x0)
        tix = [np.where(hits > s, base + c.dy_flat[s][ca] * self.w + c.dx_flat[s][ca], 0) for s in range(c.max_hits)]
        # the reference's memo key: (card, cell, set of targets holding a planet at the start)
        bits = self.bit[tix[0]]
        for t in tix[1:]:
            bits = bits | self.bit[t]
        ck = card * len(self.present) + cell_ix
        order = np.lexsort((bits, ck))  # stable: the first of a group is its first placement in ``legal``
        sb, sc = bits[order], ck[order]
        start = np.ones(len(order), dtype=np.bool_)
        start[1:] = (sb[1:] != sb[:-1]) | (sc[1:] != sc[:-1])
        group = np.cumsum(start) - 1
        first = order[start]
        inverse = np.empty(len(order), dtype=np.int64)
        inverse[order] = group
        # from here on, one row per distinct key (its first placement in ``legal``)
        card, x, y, arrow, cell_ix = card[first], x[first], y[first], arrow[first], cell_ix[first]
        tix = [t[first] for t in tix]
        m = len(card)
        prio = c.priority[card]
        prio_l = prio.tolist()
        opp_cells = [i for i in self.cell_of if self.opp[i]]
        after_tab = None
        if opp_cells:
            after_tab = self._table({(ci, p) for ci in opp_cells for p in set(prio_l)}, ev.resolves_after)
        gain = np.zeros(m, dtype=np.float64)
        keep_shield = np.ones(m, dtype=np.float64)
        not_p7 = ~c.p7[card]
        removed = np.zeros(m, dtype=np.int64)  # bits of planet cells emptied by the hits
        blanks = np.zeros(m, dtype=np.int64)  # bits of cells now holding a replacement 1/2 card
        bad = np.zeros(m, dtype=np.bool_)
        st: list[tuple[Bools, Ints, Bools]] = []  # per slot: (present, level, replacement) of its target after it
        for s in range(c.max_hits):
            t = tix[s]
            pres = self.present[t]
            lev = self.level[t]
            blank = None
            for k in c.repeats.get(s, ()):  # targets may repeat (P7 hits its own cell twice): carry the state
                same = tix[k] == t
                same &= t != 0
                if same.any():
                    pres = np.where(same, st[k][0], pres)
                    lev = np.where(same, st[k][1], lev)
                    blank = np.where(same, st[k][2], False if blank is None else blank)
            if after_tab is not None:
                opp = pres & self.opp[t]
                keep_shield = np.where(opp, keep_shield * self.one_minus_shield[t], keep_shield)
                after = after_tab[prio, t]
                gain = np.where(opp, gain + after * DESTROY_GAIN, gain)
                act = pres & ~(opp & (after >= 0.5)) & (lev != 0)
            else:
                act = pres & (lev != 0)
            odd = (lev & 1) == 1
            flip = act & ~odd
            gain = np.where(flip & not_p7, gain - FLIP_COST, gain)
            cap = act & odd
            if blank is not None:
                bad |= cap & blank  # the reference would look up the "" planet: let it decide
            gain = np.where(cap, gain + self.capv[t], gain)
            to_blank = cap & (lev == 3)
            gone = cap & (lev == 1)
            removed |= np.where(gone, self.bit[t], 0)
            blanks = np.where(to_blank, blanks | self.bit[t], np.where(gone, blanks & ~self.bit[t], blanks))
            if c.repeated_later(s):
                st.append((pres & ~gone, np.where(flip, lev - 1, np.where(to_blank, 2, lev)),
                           to_blank if blank is None else to_blank | blank))
            else:
                st.append((pres, lev, pres))  # never read
        gain, multi = self._isolate(gain, removed, blanks, cell_ix)
        p_shield = 1.0 - keep_shield
        val = self._survive(cell_ix, prio_l)[prio, cell_ix] * (1.0 - p_shield) * gain - p_shield * SHIELD_LOSS
        val = val - c.keep[card]
        for r in np.flatnonzero(bad | multi).tolist():
            val[r] = ev.value(c.cards[int(card[r])], (int(x[r]), int(y[r])), c.arrows[int(arrow[r])])
        return val[inverse]

    def _survive(self, cell_ix: Ints, prio_l: list[int]) -> Floats:
        """``1 - destroyed_first(cell, priority)`` as a table [priority, padded cell] (same operations)."""
        ev = self.ev
        later = (1.0 - LATER_THREAT) ** ev.later
        alone = 1.0 - (1.0 - 1.0 * later)  # a cell no placed card threatens
        tab = np.full((max(prio_l) + 1, len(self.present)), alone, dtype=np.float64)
        threat = ev.threat
        cell_of = self.cell_of
        hit = {i for i, cell in cell_of.items() if threat.get(cell)}  # planet cells a placed card threatens
        if not hit:
            return tab
        cells = cell_ix.tolist()
        for ci, p in {(ci, p) for ci, p in zip(cells, prio_l, strict=True) if ci in hit}:
            lst = threat[cell_of[ci]]
            if lst:
                keep = 1.0
                for prob, pr, _order in lst:
                    if pr >= p:
                        keep *= 1.0 - prob
                tab[p, ci] = 1.0 - (1.0 - keep * later)
        return tab

    def _isolate(self, gain: Floats, removed: Ints, blanks: Ints, cell_ix: Ints) -> tuple[Floats, Bools]:
        """SHS-10: a planet all of whose planet neighbours the hits emptied goes to the debris.

        One such planet per placement is added here; two or more (whose order of addition the reference
        fixes) are flagged for the reference.
        """
        multi = np.zeros(len(gain), dtype=np.bool_)
        has = removed != 0
        if not has.any():
            return gain, multi
        rows = np.flatnonzero(has)
        r = removed[rows][:, None]
        nbm = self.board_nbm[None, :]
        iso = (nbm != 0) & ((nbm & ~r) == 0) & ((self.board_bits[None, :] & r) == 0)
        count = iso.sum(axis=1)
        multi[rows[count > 1]] = True
        one = count == 1
        if one.any():
            rw = rows[one]
            n = self.board_ix[iso[one].argmax(axis=1)]
            nb = self.bit[n]
            board = self.ev.board
            iso_of = {i: ISOLATE_GAIN + self.ev.mission_gain(board[self.cell_of[i]][0]) for i in set(n.tolist())}
            isov = np.array([iso_of[i] for i in n.tolist()], dtype=np.float64)
            add = np.where((blanks[rw] & nb) != 0, ISOLATE_GAIN + 0.0, isov)
            g = gain[rw] + add
            g = np.where(self.opp[n] & (n != cell_ix[rw]), g + DESTROY_GAIN, g)
            gain = gain.copy()
            gain[rw] = g
        return gain, multi
