"""The Blast Off! game state: fields and the engine hooks (rules live in ``rules_*``, ``countdown``,
``missions``, ``response``; legality in ``legal``; views in ``view``; JSON in ``codec``)."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from cosmodeck.engine.events import Event
from cosmodeck.engine.result import Result
from cosmodeck.engine.rng import Rng
from cosmodeck.engine.state import State
from cosmodeck.games.blast_off import codec, countdown, legal, missions, response, rules_play, view
from cosmodeck.games.blast_off.actions import Announce, Author, Catch, Choose, Declare, Draw, Gesture, Keep, Play
from cosmodeck.games.blast_off.mdl import Mission
from cosmodeck.games.blast_off.phases import COUNTDOWN, OVER, RESPONSE, TURN

if TYPE_CHECKING:
    from cosmodeck.engine.game import Game
    from cosmodeck.games.blast_off.game import BlastOffGame

_EMPTY: frozenset[int] = frozenset()
_ONE = tuple(frozenset({seat}) for seat in range(16))  # the one seat acting, without a new set each time
RECENT = 48  # public events kept in the view (several turns of a 6-player game)


class BlastOffState(State):
    """A game of Blast Off! in progress (see the module docs of each rules module)."""

    g: BlastOffGame

    def __init__(self, game: BlastOffGame, players: int, seed: int) -> None:
        super().__init__(game, players, seed)
        self._setup_fields(game)

    def _setup_fields(self, game: BlastOffGame) -> None:
        n = self.players
        self.g = game
        self.rt: bool = game.rt
        self.phase = TURN
        self.cur = 0
        self.dir = 1
        self.dealer = 0
        self.hands: list[list[int]] = [[] for _ in range(n)]
        self.draw: list[int] = []
        self.disc: list[int] = []
        self.wface: dict[int, tuple[int, int]] = {}
        self.fcol = -1
        self.fval = 0
        self.skip: list[int] = [0] * n
        self.placings: list[int] = []
        self.passes = 0
        self.extra = -1
        self.turn_no = 0
        self.known: list[frozenset[int]] = [_EMPTY] * n
        self.kby: list[int] = [-1] * n  # who knows known[s]: the seat that gave s those cards (-1: nobody)
        self.drawn = -1
        self.starter_returns = 0
        self.mdeck: list[int] = []
        self.mdisc: list[int] = []
        self.inforce: list[int] = []
        self.has_restriction = False
        self.customs: tuple[Mission, ...] = ()
        self.revealed: list[int] = []  # every mission revealed so far, in order (public)
        self.penalties: list[tuple[int, str, str | None]] = []  # (seat, kind, mission): public draw penalties
        self.recent: list[dict[str, Any]] = []  # the last RECENT public events: sequence number, game time
        self.recent_n = 0  # public events so far
        self.obls: list[tuple[int, int, str | None, float, int]] = []
        self.viols: list[tuple[int, int, float, float, int, bool]] = []
        self.resp_no = 0
        self.rthen = ""
        self.cd_rocket = -1
        self.cd_seq: tuple[int, ...] = ()
        self.cd_idx = -1
        self.cd_t = -1.0
        self.cd_slots: dict[int, int] = {}
        self.cd_acted: set[int] = set()
        self.cd_last = -1
        self.pend: dict[int, Any] = {}
        self.rdone: set[int] = set()
        self.ctx: dict[str, Any] | None = None
        self.dec_t = -1.0
        self.res: Result | None = None
        self._vc = view.ViewCache()  # what views keep from earlier views of this state (``view`` module docs)
        self._drop_caches()

    def _drop_caches(self) -> None:
        """Forget what was derived from the fields: called after every change the engine makes
        (``_observe`` follows each action and each timer), on load and on clone."""
        self._ta: frozenset[int] | None = None  # to_act
        self._lc: tuple[int, tuple[Any, ...]] | None = None  # (seat, its legal list)

    # ---- helpers ---------------------------------------------------------------------------
    def mission(self, mi: int) -> Mission:
        ms = self.g.missions
        return ms[mi] if mi < len(ms) else self.customs[mi - len(ms)]

    def in_countdown(self) -> bool:
        return self.cd_rocket >= 0

    # ---- hooks -----------------------------------------------------------------------------
    def _to_act(self) -> frozenset[int]:
        ta = self._ta
        if ta is None:
            ta = self._ta = self._compute_to_act()
        return ta

    def _compute_to_act(self) -> frozenset[int]:
        ph = self.phase
        if ph == OVER:
            return _EMPTY
        hands = self.hands
        if not self.rt:
            if ph == COUNTDOWN:
                return frozenset(s for s in range(self.players) if hands[s] and s not in self.pend)
            if ph == RESPONSE:
                return frozenset(s for s in self.pend if s not in self.rdone)
            cur = self.cur
            return _ONE[cur] if 0 <= cur < len(_ONE) else frozenset((cur,))
        if ph == COUNTDOWN:
            base = _EMPTY if self.cd_idx < 0 else frozenset(
                s for s in range(self.players) if hands[s] and s not in self.cd_acted)
        else:
            base = frozenset((self.cur,))
        if self.inforce:  # 10.8: announcements and catches at any time
            if not self.g.referee or any(self.mission(mi).kind == "obligation" for mi in self.inforce):
                return frozenset(s for s in range(self.players) if hands[s])
            return base | frozenset(o[0] for o in self.obls)
        return base

    def _legal(self, seat: int) -> list[Any]:
        lc = self._lc
        if lc is not None and lc[0] == seat:
            return list(lc[1])
        out = legal.legal(self, seat)
        self._lc = (seat, tuple(out))
        return out

    def _check(self, seat: int, action: Any) -> None:
        lc = self._lc
        if lc is not None and lc[0] == seat:
            for x in lc[1]:  # the very object of this seat's legal list in this state: legal (one source)
                if x is action:
                    return
        legal.check(self, seat, action)

    def _do(self, seat: int, a: Any) -> list[Event]:
        ph = self.phase
        if ph == RESPONSE:
            ev = response.submit(self, seat, a)
            if response.all_done(self):
                ev.extend(response.resolve(self))
                ev.extend(rules_play.after(self, self.rthen))
            return ev
        if isinstance(a, (Announce, Gesture)):
            return missions.announce(self, seat, isinstance(a, Gesture), a.token,
                                     a.arg if isinstance(a, Announce) else None)
        if isinstance(a, Catch):
            return missions.catch(self, seat, a.target, a.mission) + missions.prune(self)
        if ph == COUNTDOWN:
            if self.rt:
                return rules_play.rt_slap(self, seat, a)
            return rules_play.step_choice(self, seat, a)
        if ph == TURN:
            if isinstance(a, Play):
                return rules_play.turn_play(self, seat, a)
            if isinstance(a, Draw):
                return rules_play.draw(self, seat)
            return rules_play.pass_turn(self, seat)
        if isinstance(a, Play):
            return rules_play.drawn_play(self, seat, a)
        if isinstance(a, Keep):
            return rules_play.keep(self, seat)
        if isinstance(a, Declare):
            return rules_play.declare(self, seat, a.col, a.val)
        if isinstance(a, Choose):
            return rules_play.choose(self, seat, a.target)
        assert isinstance(a, Author)
        return rules_play.author(self, seat, a.text)

    def _deadline(self) -> float | None:
        if not self.rt:
            return None
        best = self.cd_t if self.cd_t >= 0 else None
        if self.dec_t >= 0 and (best is None or self.dec_t < best):
            best = self.dec_t
        for o in self.obls:
            if o[3] >= 0 and (best is None or o[3] < best):
                best = o[3]
        return best

    def _cue(self) -> float | None:
        """Real time: the moment the current countdown value was called (BLO-10.2), while it stands."""
        if self.rt and self.cd_rocket >= 0 and self.cd_idx >= 0 and self.cd_t >= 0:
            return self.cd_t - float(self.g.options["tick_s"])
        return None

    def _fire(self) -> list[Event]:
        ev: list[Event] = []
        while self.res is None:
            now = self.now
            if any(0 <= o[3] <= now for o in self.obls):
                ev.extend(missions.expire(self, None, False))
            elif 0 <= self.dec_t <= now:
                ev.extend(rules_play.timeout(self))
            elif 0 <= self.cd_t <= now:
                ev.extend(countdown.tick(self))
            else:
                break
        return ev

    def _observe(self, events: list[Event]) -> None:
        self._ta = None
        self._lc = None
        # BLO-12.10: every violation is derivable from the public log, so the view carries its recent part
        # (announcements, gestures, plays with their player), exactly as a spectator saw it.
        recent = self.recent
        for e in events:
            if e.public:  # what ``e.for_seat(None)`` gives a spectator
                recent.append({"n": self.recent_n, "t": self.now, "type": e.type, **e.data})
                self.recent_n += 1
        if len(self.recent) > RECENT:
            del self.recent[:-RECENT]

    def _result(self) -> Result | None:
        return self.res

    def view(self, seat: int | None) -> dict[str, Any]:
        """``State.view`` built as one dict by ``view.full_view`` (compiled when built; ``view`` module docs)."""
        return view.full_view(self, seat)

    def _view(self, seat: int | None) -> dict[str, Any]:
        return view.view(self, seat)

    def _dump(self) -> dict[str, Any]:
        return codec.dump(self)

    def _load(self, core: dict[str, Any]) -> None:
        self._setup_fields(self.game)  # type: ignore[arg-type]
        codec.load(self, core)

    def _dump_named(self) -> dict[str, Any]:
        from cosmodeck.games.blast_off.named import to_named

        return to_named(self.g, codec.dump(self))

    @classmethod
    def _core_from_named(cls, game: Game[Any], players: int, core: Any) -> Any:
        from cosmodeck.games.blast_off.game import BlastOffGame
        from cosmodeck.games.blast_off.named import from_named

        assert isinstance(game, BlastOffGame)
        return from_named(game, core)

    @classmethod
    def _validate_core(cls, game: Game[Any], players: int, core: Any, now: float) -> None:
        from cosmodeck.games.blast_off.game import BlastOffGame
        from cosmodeck.games.blast_off.validate import validate_core

        assert isinstance(game, BlastOffGame)
        validate_core(game, players, core, now)

    def _validate_loaded(self) -> None:
        from cosmodeck.games.blast_off.validate import validate_pending

        validate_pending(self)

    def _copy_into(self, o: State) -> None:
        assert isinstance(o, BlastOffState)
        o._drop_caches()  # a clone may be changed outside the engine (resample_hidden)
        o._vc = view.ViewCache()
        o.hands = [h[:] for h in self.hands]
        o.draw = self.draw[:]
        o.disc = self.disc[:]
        o.wface = dict(self.wface)
        o.skip = self.skip[:]
        o.placings = self.placings[:]
        o.known = self.known[:]
        o.kby = self.kby[:]
        o.mdeck = self.mdeck[:]
        o.mdisc = self.mdisc[:]
        o.inforce = self.inforce[:]
        o.revealed = self.revealed[:]
        o.penalties = self.penalties[:]
        o.recent = self.recent[:]
        o.obls = self.obls[:]
        o.viols = self.viols[:]
        o.cd_slots = dict(self.cd_slots)
        o.cd_acted = set(self.cd_acted)
        o.pend = {k: (v[:] if isinstance(v, list) else v) for k, v in self.pend.items()} if self.pend else {}
        o.rdone = set(self.rdone)
        o.ctx = dict(self.ctx) if self.ctx is not None else None

    def census(self) -> Counter[str]:
        """Every card id in every zone (main deck cards and mission cards; authored missions are paper)."""
        c: Counter[str] = Counter()
        for zone in (self.draw, self.disc, *self.hands):
            c.update(f"c{x}" for x in zone)
        m = len(self.g.missions)
        c.update(self.g.missions[x].id for x in (*self.mdeck, *self.mdisc, *self.inforce) if x < m)
        return c

    def resample_hidden(self, owner: int | None, rng: Rng) -> BlastOffState:
        return view.resample(self, owner, rng)
