"""A Blast Off! heuristic: sheds cards, keeps its Wilds, races the countdown, keeps its missions.

From its view alone:
- on its turn it plays a matching Planet or Blast Off card, preferring the colour it holds
  most of (so it keeps matching later); a Countdown card when it holds enough cards to slap;
  a Wild only when nothing else can be played (declared as its most-held colour and value);
  it draws when it must;
- in a countdown it throws in a card for every value it can; it looks at each newly called value
  after its level's human-like call reaction (``bots/reaction.py``, ``CallReaction``), never sooner;
  ``race`` (default 0.5) only shortens the time before it looks again within the same call;
- it keeps each mission obligation it owes, except with a probability decided once per obligation:
  with ``memory="mission"`` (the default) it depends on the mission and the table
  (``blast_off_memory.MissionMemory``: rare triggers, another player's cue, a count or colour to
  say and more missions in force are forgotten more; ``p_forget`` is the calibrated average);
  with ``memory="flat"`` it is ``p_forget`` for every obligation;
- it catches on evidence (``catching="evidence"``, the default; BLO-12.10): it follows the view's
  public log (``recent``) with a ``PublicLog`` (``bots/blast_off_log``), which derives every obligation owed and every
  violation from public events alone, in both timings. Each violation is caught with probability
  ``p_catch`` (decided once per violation; with ``memory="mission"`` times the chance to notice
  it, ``MissionMemory.p_notice``), and only while the catch is sure to be valid: in the
  turn-based timing in a RESPONSE step of its window; in real time while fewer turn actions than
  its window allows are complete, or while the view's next deadline (before which the simulator and
  the server apply the action) falls inside its ``catch_window_s``. An evidence catch is never
  false. The tracker sees only what the bot is shown: when more than the log's 48 events passed
  between two looks (or the tracker cannot follow, or disagrees with the bot's own obligations),
  it restarts from the current view and may miss what was open then;
- ``catching="guess"`` (not the default; kept to compare): after another player's play while an
  obligation mission is in force it calls a catch on that player with probability ``p_catch``,
  which the engine judges (a false catch costs ``false_catch_penalty``, free by default);
- when a swap is theirs to choose, it swaps with the player holding the fewest cards.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from cosmodeck.bots.base import LazyView
from cosmodeck.bots.blast_off_log import PublicLog
from cosmodeck.bots.heuristic.blast_off_memory import MEMORY, memory_for
from cosmodeck.bots.params import Params
from cosmodeck.bots.reaction import ReactionTime
from cosmodeck.engine.rng import Rng
from cosmodeck.games.blast_off.actions import (
    Announce,
    Author,
    Catch,
    Choose,
    Declare,
    Done,
    Draw,
    Gesture,
    Keep,
    Pass,
    Play,
    Slap,
)
from cosmodeck.games.blast_off.cards import TYPE_NAME, WILD_T
from cosmodeck.games.blast_off.game import BlastOffGame
from cosmodeck.games.blast_off.view import BOT_KEYS, bot_view

if TYPE_CHECKING:
    from cosmodeck.bots.blast_off_log.replay_fast import FastPublicLog

CATCHING = ("evidence", "guess")  # how the bot decides to catch (see the module docs)

# the tracker: ``PublicLog`` compiled (``bots/blast_off_log/replay_fast.pyx``, the same bookkeeping) when built
try:
    from cosmodeck.bots.blast_off_log import replay_fast as _fast

    TRACKER: Any = _fast.FastPublicLog
except ImportError:  # not built (e.g. a source tree without a C compiler): the readable replay, the same games
    TRACKER = PublicLog


def _colour(name: str) -> str:
    """The colour letter of a card name (``O7`` -> ``O``, ``BO-G`` -> ``G``); ``''`` for W and CD."""
    if name.startswith("BO-"):
        return name[3:]
    if name in ("W", "CD") or not name:
        return ""
    return name[0]


# the legal actions' kinds, in ``act``'s order: plays, catches, slaps, declarations, choices, then a draw or
# keep (the first taken), then the rest; by exact class, ``_kind_of`` for any other (a subclass)
_TAKE = 5
_OTHER = 6
_KIND: dict[type, int] = {Play: 0, Catch: 1, Slap: 2, Declare: 3, Choose: 4, Draw: _TAKE, Keep: _TAKE,
                          Announce: _OTHER, Gesture: _OTHER, Pass: _OTHER, Done: _OTHER, Author: _OTHER}


def _kind_of(a: Any) -> int:
    for k, cls in enumerate((Play, Catch, Slap, Declare, Choose)):
        if isinstance(a, cls):
            return k
    return _TAKE if isinstance(a, (Draw, Keep)) else _OTHER


_NAME_COLOUR: dict[str, str] = {name: _colour(name) for name in TYPE_NAME}
_TYPE_COLOUR: tuple[str, ...] = tuple(_colour(name) for name in TYPE_NAME)
_TYPE_BO: tuple[bool, ...] = tuple(name.startswith("BO-") for name in TYPE_NAME)
_CD_T = TYPE_NAME.index("CD")


class BlastOffHeuristic:
    name = "heuristic"
    # the keys of its seat's view it reads (with ``catching="evidence"``): those of ``view_for``'s projection
    view_keys: tuple[str, ...] = BOT_KEYS

    def __init__(self, game: BlastOffGame, p_forget: float = 0.1, p_catch: float = 0.3, race: float = 0.5,
                 reaction: ReactionTime | None = None, catching: str = "evidence", memory: str = "mission") -> None:
        if catching not in CATCHING:
            raise ValueError(f"catching must be one of {', '.join(CATCHING)}, not {catching!r}")
        if memory not in MEMORY:
            raise ValueError(f"memory must be one of {', '.join(MEMORY)}, not {memory!r}")
        self.memory = memory_for(game, p_forget) if memory == "mission" else None
        self.game = game
        self.p_forget = p_forget
        self.p_catch = p_catch
        self.race = race
        self.catching = catching
        self.reaction = reaction or ReactionTime()
        # What the simulator shows it (``sim/runner.py``): the game's projection of its seat's view on ``view_keys``
        # (``games/blast_off/view.py:bot_view``: those entries only, each built when read), or, for the guessing
        # catcher and a subclass (they may read any key), the whole view (None). It reads no state itself.
        self.view_for: Callable[[Any, int], Mapping[str, Any]] | None = (
            bot_view if catching == "evidence" and type(self) is BlastOffHeuristic else None)
        self._racing = False
        self._forget: dict[tuple[Any, ...], bool] = {}
        self._seen_discard = -1
        self._last_turn = -1
        self._suspect: int | None = None
        self._tracker: PublicLog | FastPublicLog | None = None
        self._log_seen = -1
        self._decided: dict[int, bool] = {}  # violation key -> catch it (drawn once with p_catch)
        self.resyncs = 0  # times the tracker restarted from a view after its first look
        self.mismatches = 0  # ... of which because it disagreed with the bot's own obligations

    @staticmethod
    def from_params(game: BlastOffGame, p: Params, reaction: ReactionTime) -> BlastOffHeuristic:
        bot = BlastOffHeuristic(game, p.float("p_forget", 0.1, lo=0.0, hi=1.0), p.float("p_catch", 0.3, lo=0.0, hi=1.0),
                                p.float("race", 0.5, lo=0.01, hi=10.0), reaction,
                                p.choice("catching", "evidence", CATCHING), p.choice("memory", "mission", MEMORY))
        p.done()
        return bot

    def reaction_time(self, rng: Rng) -> float:
        t = self.reaction.sample(rng)
        return t * self.race if self._racing else t

    def call_reaction_time(self, rng: Rng) -> float:
        return self.reaction.sample_call(rng)

    def act(self, view: Mapping[str, Any], legal: Sequence[Any], rng: Rng) -> Any | None:
        """``act_readable``, compiled (``blast_off_fast.pyx``) for this class when built."""
        if _ACT is not None and type(self) is BlastOffHeuristic:
            return _ACT(self, view, legal, rng)
        return self.act_readable(view, legal, rng)

    def act_readable(self, view: Mapping[str, Any], legal: Sequence[Any], rng: Rng) -> Any | None:
        """The decision (see the module docs), readable: the reference of the compiled ``act``."""
        if not legal:
            return None
        if type(view) is LazyView:
            view = view.resolve()  # many keys are read: from the view itself, not through the lazy wrapper
        seat = int(view["seat"])
        self._racing = view.get("countdown") is not None
        self._watch(view, seat, rng)
        # 1. obligations owed
        for o in view.get("obligations") or ():
            key = (o["mission"], o["token"], o.get("expect"), o.get("deadline"), o.get("due_step"))
            if key not in self._forget:
                self._forget[key] = rng.random() < self._p_forget(str(o["mission"]), view)
            if self._forget[key]:
                continue
            for a in legal:
                if isinstance(a, (Announce, Gesture)) and a.token == o["token"] and (
                        not isinstance(a, Announce) or o.get("expect") is None or str(a.arg) == str(o["expect"])):
                    return a
        # the legal actions by kind, in their order (one pass)
        catches: list[Catch] = []
        slaps: list[Slap] = []
        decl: list[Declare] = []
        choose: list[Choose] = []
        plays: list[Play] = []
        take: Draw | Keep | None = None
        kinds = (plays, catches, slaps, decl, choose)
        for a in legal:
            k = _KIND.get(type(a))
            if k is None:
                k = _kind_of(a)
            if k < _TAKE:
                kinds[k].append(a)
            elif k == _TAKE and take is None:
                take = a
        # 2. a catch: on evidence from the public log (or, in the guessing mode, on a suspicion)
        if catches:
            catch = self._evidence_catch(view, seat, catches, rng) if self.catching == "evidence" else \
                self._guess_catch(catches)
            if catch is not None:
                return catch
        # 3. countdown: throw in a card (not a Wild while another card fits)
        if slaps:
            for a in slaps:  # the first not a Wild (``slap W ...`` or ``slap W[FACE] ...``), else the first
                if a.card != WILD_T:
                    return a
            return slaps[0]
        # 4. decisions: declare a Wild, choose a swap partner, keep or play the drawn card
        if decl:
            return self._best_declaration(decl, list(view.get("hand") or []))
        if choose:
            sizes = view["hand_sizes"]
            return min(choose, key=lambda a: (sizes[a.target], a.target))
        if plays:
            return self._best_play(plays, list(view.get("hand") or []))
        if take is not None:
            return take
        others = [a for a in legal if not isinstance(a, (Catch, Announce, Gesture))]
        if view.get("countdown") is not None and view.get("timing") != "steps":
            return None  # real time: nothing to throw in for this value, wait for the next call
        return others[0] if others else None

    def _p_forget(self, mission: str, view: Mapping[str, Any]) -> float:
        if self.memory is None:
            return self.p_forget
        return self.memory.p_forget(mission, len(view.get("missions_in_force") or ()) or 1)

    def _p_notice(self, mission: str, view: Mapping[str, Any]) -> float:
        if self.memory is None:
            return 1.0
        return self.memory.p_notice(mission, len(view.get("missions_in_force") or ()) or 1)

    def _watch(self, view: Mapping[str, Any], seat: int, rng: Rng) -> None:
        if self.catching == "guess":
            self._guess(view, seat, rng)
        else:
            self._follow_log(view, seat)

    def _follow_log(self, view: Mapping[str, Any], seat: int) -> None:
        """Feed the public events new since the last look to the tracker (or restart it from this view)."""
        recent = view.get("recent")
        if recent is None:
            self._tracker = None
            return
        tr = self._tracker
        now = float(view.get("now") or 0.0)
        if tr is None or (recent and (recent[0]["n"] > self._log_seen + 1 or recent[-1]["n"] < self._log_seen)) \
                or now < tr.now:
            # first look, missed events (the log keeps the last 48), or a new game: start from this view
            self._resync(view, counted=tr is not None)
            return
        self._log_seen = tr.follow(recent, self._log_seen, now)  # the events after the last seen, then settle
        if tr.lost:
            self._resync(view)
        elif not self._agrees(view, seat, tr):
            self.mismatches += 1
            self._resync(view)

    def _resync(self, view: Mapping[str, Any], counted: bool = True) -> None:
        recent = view["recent"]
        self._tracker = TRACKER(self.game, view)  # it reads the keys it starts from (a mapping: not kept)
        self._log_seen = recent[-1]["n"] if recent else -1
        self._decided = {}
        self.resyncs += counted

    @staticmethod
    def _agrees(view: Mapping[str, Any], seat: int, tr: PublicLog | FastPublicLog) -> bool:
        """The tracker's obligations for this seat are among those the view says it owes (a self-check)."""
        owed = tr.owed(seat)
        if not owed:
            return True  # nothing derived: nothing to disagree with
        mine: dict[tuple[Any, ...], int] = {}  # a multiset: derived - mine is empty
        for o in view.get("obligations") or ():
            k = (o["mission"], o.get("expect"), o.get("deadline"), o.get("due_step"))
            mine[k] = mine.get(k, 0) + 1
        rt = tr.rt
        for d in owed:
            k = (d.mission, d.expect, d.deadline if rt else None, None if rt else d.due)
            left = mine.get(k, 0)
            if left <= 0:
                return False
            mine[k] = left - 1
        return True

    def _evidence_catch(self, view: Mapping[str, Any], seat: int, catches: list[Catch], rng: Rng) -> Catch | None:
        """A catch on a violation derived from the log, sure to be valid, decided once with ``p_catch``."""
        tr = self._tracker
        if tr is None:
            return None
        if tr.rt:
            deadline = view.get("deadline")
            found = tr.catchable(float(view["now"]), None if deadline is None else float(deadline))
        elif view.get("phase") == "RESPONSE":
            found = tr.catchable(step=int(view["response_step"]))
        else:
            return None
        allowed = set(catches)
        for v in found:
            if v.seat == seat:
                continue
            go = self._decided.get(v.key)
            if go is None:
                go = self._decided[v.key] = rng.random() < self.p_catch * self._p_notice(v.mission, view)
            if not go:
                continue
            # naming the mission is best; if it is no longer in force, any open violation of theirs will do
            for a in (self.game.catch_act(v.seat, v.mission), self.game.catch_act(v.seat, None)):
                if a in allowed:
                    return a
        return None

    def _guess_catch(self, catches: list[Catch]) -> Catch | None:
        if self._suspect is None:
            return None
        target, self._suspect = self._suspect, None
        for a in catches:
            if a.target == target and a.mission is None:
                return a
        return None

    def _guess(self, view: Mapping[str, Any], seat: int, rng: Rng) -> None:
        """``catching="guess"``: remember who just played; suspect them (with ``p_catch``) when an obligation
        mission is in force. No evidence: such a catch may be false."""
        n = len(view.get("discard") or ())
        turn = int(view.get("turn", -1))
        if self._seen_discard >= 0 and n > self._seen_discard and self._last_turn not in (-1, seat):
            obligations = [m for m in view.get("missions_in_force") or () if self._is_obligation(m.get("id"))]
            if obligations and rng.random() < self.p_catch:
                self._suspect = self._last_turn
        self._seen_discard = n
        self._last_turn = turn

    def _is_obligation(self, mid: Any) -> bool:
        for m in self.game.missions:
            if m.id == mid:
                return m.kind == "obligation"
        return False

    @staticmethod
    def _best_play(plays: list[Any], hand: list[str]) -> Any:
        """The play of the best score, the first of them on a tie (``max``): a Wild -10 (kept for when nothing
        else plays), a Countdown card 3 with 3 or more numbered cards in hand else -1, any other card the
        number of cards of its colour in hand (+0.5 for a Blast Off card). A card's colour is its name's
        (``_colour``); the Wild is the one card whose notation starts with ``W``."""
        counts: dict[str, int] = {}
        numbered = 0
        for c in hand:
            col = _NAME_COLOUR.get(c)
            if col is None:
                col = _colour(c)
            if col:
                counts[col] = counts.get(col, 0) + 1
            if c not in ("W", "CD"):
                numbered += 1
        best: Any = None
        top = 0.0
        for a in plays:
            t = a.card
            if t == WILD_T:
                score = -10.0
            elif t == _CD_T:
                score = 3.0 if numbered >= 3 else -1.0
            else:
                score = counts.get(_TYPE_COLOUR[t], 0) + (0.5 if _TYPE_BO[t] else 0.0)
            if best is None or score > top:
                best, top = a, score
        return best

    @staticmethod
    def _best_declaration(decl: list[Any], hand: list[str]) -> Any:
        counts = Counter(_colour(c) for c in hand if _colour(c))
        return max(decl, key=lambda a: (counts[str(a).split()[1][:1]], -len(str(a))))


# ``BlastOffHeuristic.act``: the compiled copy of ``act_readable`` when it was built
_ACT: Callable[[BlastOffHeuristic, Mapping[str, Any], Sequence[Any], Rng], Any | None] | None
try:
    from cosmodeck.bots.heuristic.blast_off_fast import act as _ACT
except ImportError:  # not built (e.g. a source tree without a C compiler): the readable decision, the same games
    _ACT = None
