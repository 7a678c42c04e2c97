"""Validation of a saved Blast Off! state core before it is loaded (issue 13).

Schema and types of every field, ranges (seats, colours, values, card and mission indices), the
census (every card exactly once among the draw pile, the discard pile and the hands; every pool
mission exactly once among the mission deck, its discard and the missions in force), and the
cross-field facts the rules keep (phase and the resolution in progress, the drawn card in the
turn player's hand, known cards inside their hand, Wild faces on discarded Wilds).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cosmodeck.engine import validate as V
from cosmodeck.engine.errors import CosmodeckError
from cosmodeck.games.blast_off.cards import BLAST_OFF, NO_VALUE, VALUES, WILD
from cosmodeck.games.blast_off.phases import (
    AUTHOR,
    CD_END,
    CD_VALUE,
    CHOOSE,
    COUNTDOWN,
    DECLARE,
    DRAWN,
    DRAWN_CARD,
    FIRST,
    NEXT,
    OVER,
    RESPONSE,
    START_CD,
)

if TYPE_CHECKING:
    from cosmodeck.games.blast_off.game import BlastOffGame
    from cosmodeck.games.blast_off.state import BlastOffState

KEYS = ("phase", "cur", "dir", "dealer", "fcol", "fval", "passes", "extra", "turn_no", "drawn", "starter_returns",
        "resp_no", "rthen", "cd_rocket", "cd_idx", "cd_t", "cd_last", "dec_t", "recent_n", "draw", "disc", "skip",
        "placings", "mdeck", "mdisc", "inforce", "revealed", "hands", "wface", "known", "customs", "obls",
        "penalties", "recent", "viols", "cd_seq", "cd_slots", "cd_acted", "pend", "rdone", "ctx", "res")
CTX_KEYS = ("ev", "a", "c", "k", "col", "val", "bc", "bv", "bk", "sz", "cd", "bo", "st", "ei", "eff", "then")
THENS = (NEXT, START_CD, CD_VALUE, CD_END, FIRST, DRAWN_CARD)
RESULT_KEYS = ("reason", "winners", "ranking", "scores", "team_win", "details")
MAX_COUNT = 10_000  # turns, steps, events: far beyond any game, small enough to stay exact


def validate_core(game: BlastOffGame, players: int, raw: Any, now: float) -> None:
    n = players
    core = V.obj(raw, "core", KEYS, optional=("kby",))
    cards = game.deck_size
    seat = (0, n - 1)
    cols = (-1, max(game.colours))
    phase = V.integer(core["phase"], "core.phase", 0, OVER)
    cur = V.integer(core["cur"], "core.cur", *seat)
    V.one_of(core["dir"], "core.dir", (1, -1))
    V.integer(core["dealer"], "core.dealer", *seat)
    V.integer(core["fcol"], "core.fcol", *cols)
    V.one_of(core["fval"], "core.fval", (NO_VALUE, *VALUES))
    V.integer(core["passes"], "core.passes", 0, MAX_COUNT)
    V.integer(core["extra"], "core.extra", -1, n - 1)
    for k in ("turn_no", "starter_returns", "resp_no", "recent_n"):
        V.integer(core[k], f"core.{k}", 0, MAX_COUNT * 100)
    drawn = V.integer(core["drawn"], "core.drawn", -1, cards - 1)
    rthen = V.string(core["rthen"], "core.rthen")
    if rthen and rthen not in THENS:
        V.fail("core.rthen", f"{rthen!r} is not a continuation", V.RANGE)
    o = game.options
    limits = {"cd_t": float(o["tick_s"]),
              "dec_t": max(float(o["declare_timeout_s"]), float(o["choose_timeout_s"]),
                           float(o["custom_mission_timeout_s"]))}
    for k, most in limits.items():  # a timer is set from the game time by one option's duration
        t = V.number(core[k], f"core.{k}", -1.0)
        if -1.0 < t < 0:
            V.fail(f"core.{k}", f"a timer is -1 (not running) or a game time, not {t}", V.RANGE)
        if 0 <= t <= now and game.rt:
            V.fail(f"core.{k}", f"timer {t} is due by the game time {now}: it would have fired", V.INCONSISTENT)
        if t >= 0 and (not game.rt or t > now + most):
            V.fail(f"core.{k}", f"timer {t} is not within {most} s of the game time {now} (or timing is steps)",
                   V.RANGE)
    hands = V.seq(core["hands"], "core.hands", n)
    for s in range(n):
        V.ints(hands[s], f"core.hands[{s}]", 0, cards - 1)
    for k in ("draw", "disc"):
        V.ints(core[k], f"core.{k}", 0, cards - 1)
    V.census([*core["draw"], *core["disc"], *(c for h in hands for c in h)], dict.fromkeys(range(cards), 1))
    if not core["disc"]:
        V.fail("core.disc", "the discard pile always holds the face-up card", V.CENSUS)
    V.ints(core["skip"], "core.skip", 0, MAX_COUNT, length=n)
    placings = V.ints(core["placings"], "core.placings", *seat)
    if len(set(placings)) != len(placings):
        V.fail("core.placings", "a seat is placed twice", V.INCONSISTENT)
    for s in placings:
        if hands[s] and phase != OVER:
            V.fail("core.placings", f"seat {s} is placed but still holds cards", V.INCONSISTENT)
    for s in range(n):  # BLO-8.1: playing one's last card places the player at once
        if not hands[s] and s not in placings:
            V.fail(f"core.hands[{s}]", f"seat {s} holds no card but is not placed (BLO-8.1)", V.INCONSISTENT)
    _known(core, hands, n)
    _wface(core, game)
    nmissions = _missions(core, game)
    _obligations(core, n, nmissions)
    _countdown(core, n, phase)
    if game.rt:  # real time: a countdown call and a decision each run on their own timer, and only then
        if phase == COUNTDOWN and core["cd_t"] < 0:
            V.fail("core.cd_t", "a real-time countdown value needs the moment its call ends", V.INCONSISTENT)
        if core["cd_t"] >= 0 and core["cd_rocket"] < 0:
            V.fail("core.cd_t", "a countdown timer runs only during a countdown", V.INCONSISTENT)
        if (core["dec_t"] >= 0) != (phase in (CHOOSE, DECLARE, AUTHOR)):
            V.fail("core.dec_t", "a decision timer runs exactly while a CHOOSE, DECLARE or AUTHOR decision waits",
                   V.INCONSISTENT)
    _response(core, n, game)
    _ctx(core, n, game, nmissions)
    _result(core, n)
    _recent(core, n, now)
    # Phase and the resolution in progress agree.
    if drawn >= 0 and drawn not in hands[cur]:
        V.fail("core.drawn", f"card {drawn} is not in the hand of seat {cur}", V.INCONSISTENT)
    if phase == DRAWN and drawn < 0:
        V.fail("core.phase", "a DRAWN decision needs a drawn card", V.INCONSISTENT)
    if phase in (CHOOSE, DECLARE, AUTHOR) and core["ctx"] is None:
        V.fail("core.ctx", "a CHOOSE, DECLARE or AUTHOR decision belongs to a resolution", V.INCONSISTENT)
    if (phase == OVER) != (core["res"] is not None):
        V.fail("core.res", "the result is set exactly when the phase is OVER", V.INCONSISTENT)
    if phase != OVER and not hands[cur] and phase not in (COUNTDOWN, RESPONSE):
        V.fail("core.cur", f"seat {cur} must decide but holds no card", V.INCONSISTENT)


def _known(core: dict[str, Any], hands: list[Any], n: int) -> None:
    known = V.seq(core["known"], "core.known", n)
    for s in range(n):
        for c in V.ints(known[s], f"core.known[{s}]"):
            if c not in hands[s]:
                V.fail(f"core.known[{s}]", f"card {c} is not in that hand", V.INCONSISTENT)
    if "kby" in core:
        V.ints(core["kby"], "core.kby", -1, n - 1, length=n)


def _wface(core: dict[str, Any], game: BlastOffGame) -> None:
    seen: set[int] = set()
    for i, e in enumerate(V.seq(core["wface"], "core.wface")):
        f = f"core.wface[{i}]"
        c, col, val = V.ints(e, f, length=3)
        if c in seen or c not in core["disc"] or game.kind[c] != WILD:
            V.fail(f, f"card {c} is not a Wild on the discard pile (once)", V.INCONSISTENT)
        seen.add(c)
        V.integer(col, f"{f}[1]", -1, max(game.colours))
        V.one_of(val, f"{f}[2]", (NO_VALUE, *VALUES))


def _missions(core: dict[str, Any], game: BlastOffGame) -> int:
    pool = len(game.missions)
    customs = V.seq(core["customs"], "core.customs", max_len=MAX_COUNT)
    for i, e in enumerate(customs):
        f = f"core.customs[{i}]"
        V.seq(e, f, 2)
        if V.string(e[0], f"{f}[0]") != f"C{i + 1}":
            V.fail(f"{f}[0]", f"the {i + 1}. custom mission is named C{i + 1}", V.INCONSISTENT)
        try:
            game.authored(V.string(e[1], f"{f}[1]"))
        except CosmodeckError as err:
            V.fail(f"{f}[1]", f"not a valid mission: {err}", V.RANGE)
    total = pool + len(customs)
    for k in ("mdeck", "mdisc", "inforce", "revealed"):
        V.ints(core[k], f"core.{k}", 0, total - 1)
    for k in ("mdeck", "mdisc"):
        for m in core[k]:
            if m >= pool:
                V.fail(f"core.{k}", f"mission {m} is a custom mission; only pool missions are dealt", V.CENSUS)
    if len(set(core["inforce"])) != len(core["inforce"]):
        V.fail("core.inforce", "a mission is in force twice", V.CENSUS)
    in_play = [m for m in core["inforce"] if m < pool]
    V.census([*core["mdeck"], *core["mdisc"], *in_play], dict.fromkeys(range(pool), 1), "mission")
    for i, p in enumerate(V.seq(core["penalties"], "core.penalties")):
        f = f"core.penalties[{i}]"
        V.seq(p, f, 3)
        V.integer(p[0], f"{f}[0]", 0, len(core["hands"]) - 1)
        V.string(p[1], f"{f}[1]")
        if p[2] is not None:
            V.string(p[2], f"{f}[2]")
    return total


def _obligations(core: dict[str, Any], n: int, nmissions: int) -> None:
    for i, o in enumerate(V.seq(core["obls"], "core.obls")):
        f = f"core.obls[{i}]"
        V.seq(o, f, 5)
        V.integer(o[0], f"{f}[0]", 0, n - 1)
        V.integer(o[1], f"{f}[1]", 0, nmissions - 1)
        if o[2] is not None:
            V.string(o[2], f"{f}[2]")
        V.number(o[3], f"{f}[3]")
        V.integer(o[4], f"{f}[4]", 0, MAX_COUNT * 100)
    for i, v in enumerate(V.seq(core["viols"], "core.viols")):
        f = f"core.viols[{i}]"
        V.seq(v, f, 6)
        V.integer(v[0], f"{f}[0]", 0, n - 1)
        V.integer(v[1], f"{f}[1]", 0, nmissions - 1)
        V.number(v[2], f"{f}[2]")
        V.number(v[3], f"{f}[3]")
        V.integer(v[4], f"{f}[4]", 0, MAX_COUNT * 100)
        V.boolean(v[5], f"{f}[5]")


def _countdown(core: dict[str, Any], n: int, phase: int) -> None:
    rocket = V.integer(core["cd_rocket"], "core.cd_rocket", -1, n - 1)
    seq = V.ints(core["cd_seq"], "core.cd_seq", 1, BLAST_OFF)
    if seq and (seq[-1] != BLAST_OFF or seq[:-1] != list(range(len(seq) - 1, 0, -1))):
        V.fail("core.cd_seq", "a countdown counts down to 1, then Blast Off", V.INCONSISTENT)
    if (rocket >= 0) != bool(seq):
        V.fail("core.cd_seq", "a countdown sequence exists exactly while a countdown runs", V.INCONSISTENT)
    if phase == COUNTDOWN and rocket < 0:
        V.fail("core.cd_rocket", "the COUNTDOWN phase needs a countdown", V.INCONSISTENT)
    V.integer(core["cd_idx"], "core.cd_idx", -1, len(seq) - 1)
    V.integer(core["cd_last"], "core.cd_last", -1, n - 1)
    values: set[int] = set()
    for i, e in enumerate(V.seq(core["cd_slots"], "core.cd_slots")):
        f = f"core.cd_slots[{i}]"
        v, s = V.ints(e, f, length=2)
        if v not in seq or v in values:
            V.fail(f, f"value {v} is not a slot of this countdown (once)", V.INCONSISTENT)
        values.add(v)
        V.integer(s, f"{f}[1]", 0, n - 1)
    acted = V.ints(core["cd_acted"], "core.cd_acted", 0, n - 1)
    if len(set(acted)) != len(acted):
        V.fail("core.cd_acted", "a seat is listed twice", V.INCONSISTENT)


def _response(core: dict[str, Any], n: int, game: BlastOffGame) -> None:
    seats: set[int] = set()
    for i, e in enumerate(V.seq(core["pend"], "core.pend")):
        f = f"core.pend[{i}]"
        V.seq(e, f, 2)
        s = V.integer(e[0], f"{f}[0]", 0, n - 1)
        if s in seats:
            V.fail(f"{f}[0]", f"seat {s} is listed twice", V.INCONSISTENT)
        seats.add(s)
        texts = e[1] if isinstance(e[1], list) else [e[1]]
        for j, t in enumerate(texts):
            V.string(t, f"{f}[1][{j}]")
            try:
                game.parse_action(t)
            except CosmodeckError as err:
                V.fail(f"{f}[1][{j}]", f"not an action: {err}")
    V.ints(core["rdone"], "core.rdone", 0, n - 1)  # who may still respond is the flow check's (to_act)
    if core["phase"] == RESPONSE and game.rt:
        V.fail("core.phase", "RESPONSE steps exist only in steps timing (BLO-12.3)", V.INCONSISTENT)


def _ctx(core: dict[str, Any], n: int, game: BlastOffGame, nmissions: int) -> None:
    ctx = core["ctx"]
    if ctx is None:
        return
    V.obj(ctx, "core.ctx", CTX_KEYS)
    cols = (-1, max(game.colours))
    V.integer(ctx["ev"], "core.ctx.ev", -1, 2)
    V.integer(ctx["a"], "core.ctx.a", 0, n - 1)
    V.integer(ctx["c"], "core.ctx.c", -1, game.deck_size - 1)
    for k in ("k", "bk"):
        V.integer(ctx[k], f"core.ctx.{k}", -1, 3)
    for k in ("col", "bc"):
        V.integer(ctx[k], f"core.ctx.{k}", *cols)
    for k in ("val", "bv"):
        V.one_of(ctx[k], f"core.ctx.{k}", (NO_VALUE, *VALUES))
    V.ints(ctx["sz"], "core.ctx.sz", 0, game.deck_size, length=n)
    V.boolean(ctx["cd"], "core.ctx.cd")
    V.boolean(ctx["bo"], "core.ctx.bo")
    V.integer(ctx["st"], "core.ctx.st", 0, 4)
    ei = V.integer(ctx["ei"], "core.ctx.ei", 0, MAX_COUNT)
    if ctx["eff"] is not None:
        effs = V.ints(ctx["eff"], "core.ctx.eff", 0, nmissions - 1)
        if ei > len(effs):
            V.fail("core.ctx.ei", "is past the last effect", V.INCONSISTENT)
    elif ei:
        V.fail("core.ctx.ei", "counts effects that were never listed", V.INCONSISTENT)
    if "then" in ctx and V.string(ctx["then"], "core.ctx.then") not in THENS:
        V.fail("core.ctx.then", f"{ctx['then']!r} is not a continuation", V.RANGE)


def _result(core: dict[str, Any], n: int) -> None:
    r = core["res"]
    if r is None:
        return
    V.obj(r, "core.res", RESULT_KEYS)
    V.string(r["reason"], "core.res.reason")
    V.ints(r["winners"], "core.res.winners", 0, n - 1)
    for i, tier in enumerate(V.seq(r["ranking"], "core.res.ranking")):
        V.ints(tier, f"core.res.ranking[{i}]", 0, n - 1)
    scores = V.obj(r["scores"], "core.res.scores", [str(s) for s in range(n)])
    for k, v in scores.items():
        V.number(v, f"core.res.scores.{k}")
    if r["team_win"] is not None:
        V.boolean(r["team_win"], "core.res.team_win")
    if not isinstance(r["details"], dict):
        V.fail("core.res.details", "must be an object")


# every public event type the rules emit (a test keeps this list equal to the engine's)
EVENT_TYPES = frozenset({
    "announced", "author_needed", "catch_duplicate", "catch_failed", "caught", "choose_needed", "chose",
    "countdown_called", "countdown_ended", "countdown_pass", "countdown_started", "declare_needed", "declared",
    "drawn_decision", "drew", "effect", "game_over", "gestured", "hand", "kept", "mission_authored",
    "mission_revealed", "missions_recycled", "no_mission", "obligation", "passed", "penalized", "played",
    "reshuffled", "responded", "response_added", "response_ended", "response_started", "slap_accepted",
    "slap_bounced", "timeout", "turn", "turn_skipped", "value_skipped", "violation", "violation_lapsed",
    "went_out"})


def _flat(value: Any, depth: int = 2) -> bool:
    """A scalar, or a short list of such values nested at most ``depth`` deep (a ranking's tiers)."""
    if value is None or isinstance(value, (str, bool, int, float)):
        return True
    return depth > 0 and isinstance(value, list) and len(value) <= 64 and all(_flat(x, depth - 1) for x in value)


def _recent(core: dict[str, Any], n: int, now: float) -> None:
    """BLO-12.10's public log as the engine writes it: the last events, numbered without gaps up to
    ``recent_n``, in the order of the game time, each a known type with flat data."""
    from cosmodeck.games.blast_off import state  # the module's RECENT, read when called

    entries = V.seq(core["recent"], "core.recent", max_len=state.RECENT)
    total = core["recent_n"]
    if len(entries) > total:
        V.fail("core.recent", f"{len(entries)} events kept but only {total} were ever logged", V.INCONSISTENT)
    first = total - len(entries)
    last_t = 0.0
    for i, e in enumerate(entries):
        f = f"core.recent[{i}]"
        if not isinstance(e, dict):
            V.fail(f, "must be an object")
        if type(e.get("n")) is not int or e["n"] != first + i:
            V.integer(e.get("n"), f"{f}.n", 0, total - 1)
            V.fail(f"{f}.n", f"the log is numbered without gaps: expected {first + i}", V.INCONSISTENT)
        V.one_of(e.get("type"), f"{f}.type", EVENT_TYPES)
        t = V.number(e.get("t"), f"{f}.t", 0.0, now)
        if t < last_t:
            V.fail(f"{f}.t", f"events are logged in the order of the game time ({t} after {last_t})",
                   V.INCONSISTENT)
        last_t = t
        if "seat" in e:
            V.integer(e["seat"], f"{f}.seat", 0, n - 1)
        for k, v in e.items():
            if not _flat(v):
                V.fail(f"{f}.{k}", "event data is a number, a text or a short list of them")


def validate_pending(st: BlastOffState) -> None:
    """The hidden choices of a step (``pend``) are each one the rules would have accepted from this state.

    A RESPONSE step holds, per active seat, the announcements, gestures and catches submitted so far; a
    turn-based countdown holds each seat's slap or pass for the called value. Nothing changes the state
    between those submissions and the step's end, so each must still pass the rules' own check.
    """
    from cosmodeck.engine.errors import IllegalActionError
    from cosmodeck.games.blast_off import legal
    from cosmodeck.games.blast_off.actions import Announce, Catch, Gesture, Pass, Slap

    active = {s for s, h in enumerate(st.hands) if h}
    if st.phase == RESPONSE:
        # a step lists the players still in the game; a determinizer loads it empty and fills it in (flow=False),
        # and a step nobody can answer is the flow check's
        if not set(st.pend) <= active:
            V.fail("core.pend", "a RESPONSE step lists only players still in the game", V.INCONSISTENT)
        if not set(st.rdone) <= active:
            V.fail("core.rdone", "only a player of the step can be done with it", V.INCONSISTENT)
        for i, (seat, acts) in enumerate(sorted(st.pend.items())):
            if not isinstance(acts, list):
                V.fail(f"core.pend[{i}][1]", "a RESPONSE step holds a list of actions per player")
            for j, a in enumerate(acts):
                if not isinstance(a, (Announce, Gesture, Catch)):
                    V.fail(f"core.pend[{i}][1][{j}]", f"{a} cannot be part of a response", V.INCONSISTENT)
                try:
                    legal.check_mission_action(st, seat, a, acts[:j])
                except IllegalActionError as e:
                    V.fail(f"core.pend[{i}][1][{j}]", f"{a}: {e}", V.INCONSISTENT)
        return
    if st.rdone:
        V.fail("core.rdone", "only a RESPONSE step has players done with it", V.INCONSISTENT)
    if not st.pend:
        return
    if st.phase != COUNTDOWN or st.rt:
        V.fail("core.pend", "hidden choices exist only in a RESPONSE step or a turn-based countdown",
               V.INCONSISTENT)
    for i, (seat, a) in enumerate(sorted(st.pend.items())):
        if seat not in active or isinstance(a, list) or not isinstance(a, (Slap, Pass)):
            V.fail(f"core.pend[{i}]", "a countdown choice is one slap or pass of a player still in the game",
                   V.INCONSISTENT)
        try:
            legal.check_slap(st, seat, a)
        except IllegalActionError as e:
            V.fail(f"core.pend[{i}][1]", f"{a}: {e}", V.INCONSISTENT)
