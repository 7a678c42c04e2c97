# cython: language_level=3, boundscheck=True, wraparound=True
"""The Blast Off! heuristic's decision compiled: ``act(bot, view, legal, rng)`` is ``bot.act_readable(view, legal,
rng)`` (``blast_off.py``, the readable reference), statement for statement.

It copies ``act_readable``, ``_follow_log``, ``_agrees`` and ``_evidence_catch`` (each function here names the
method it copies) and calls the bot's own methods for the rest (``_resync``, ``_guess``, ``_guess_catch``,
``_p_forget``, ``_p_notice``, ``_best_declaration``, ``_best_play``). It draws from ``rng`` exactly where the
readable code draws. ``BlastOffHeuristic.act`` uses it for the class itself (a subclass may override a
method: it runs the readable code). ``tests/bots/test_blast_off_bot_fast.py`` plays seeded games both ways
and compares every decision, the records and the trackers' restarts.
"""

from cosmodeck.bots.base import LazyView
from cosmodeck.bots.heuristic.blast_off import _CD_T, _KIND, _NAME_COLOUR, _TAKE, _TYPE_BO, _TYPE_COLOUR, _colour, _kind_of
from cosmodeck.games.blast_off.actions import Announce, Catch, Gesture
from cosmodeck.games.blast_off.cards import WILD_T

from cosmodeck.games.blast_off.view_fast cimport BotView

cdef int C_TAKE = _TAKE
cdef int C_WILD_T = WILD_T
cdef int C_CD_T = _CD_T
cdef dict C_KIND = _KIND
cdef dict C_NAME_COLOUR = _NAME_COLOUR
cdef tuple C_TYPE_COLOUR = _TYPE_COLOUR
cdef tuple C_TYPE_BO = _TYPE_BO


def act(bot, view, legal, rng):
    """``BlastOffHeuristic.act_readable``."""
    if not legal:
        return None
    if type(view) is LazyView:
        view = view.resolve()
    if type(view) is not dict and type(view) is not BotView:
        return bot.act_readable(view, legal, rng)  # another mapping (a test's): the readable code reads it
    return _act(bot, view, legal, rng)


cdef inline object _get(view, key):
    """``view.get(key)`` for a dict or a ``BotView`` (whose entry is built when first read)."""
    if type(view) is BotView:
        return (<BotView>view).entry(key)
    return (<dict>view).get(key)


cdef inline object _item(view, key):
    """``view[key]`` for a dict or a ``BotView``."""
    if type(view) is BotView:
        return (<BotView>view).entry(key)
    return (<dict>view)[key]


cdef inline bint _in_countdown(view) except -1:
    """``view.get("countdown") is not None`` (a ``BotView`` tells it without building the entry)."""
    if type(view) is BotView:
        return (<BotView>view).has_countdown()
    return (<dict>view).get("countdown") is not None


cdef _act(bot, view, legal, rng):
    """``act`` on a view that is a dict or a ``BotView``."""
    # ``int(view["seat"])`` (a ``BotView``'s seat entry is the seat it was made for, an int)
    seat = (<BotView>view).seat if type(view) is BotView else int((<dict>view)["seat"])
    bot._racing = _in_countdown(view)
    if bot.catching == "guess":  # ``_watch``
        bot._guess(view, seat, rng)
    else:
        _follow_log(bot, view, seat)
    # 1. obligations owed
    for o in _get(view, "obligations") or ():
        key = (o["mission"], o["token"], o.get("expect"), o.get("deadline"), o.get("due_step"))
        forget = bot._forget
        if key not in forget:
            forget[key] = rng.random() < bot._p_forget(str(o["mission"]), view)
        if forget[key]:
            continue
        for a in legal:
            if isinstance(a, (Announce, Gesture)) and a.token == o["token"] and (
                    not isinstance(a, Announce) or o.get("expect") is None or str(a.arg) == str(o["expect"])):
                return a
    # the legal actions by kind, in their order (one pass)
    cdef list catches = [], slaps = [], decl = [], choose = [], plays = []
    take = None
    cdef tuple kinds = (plays, catches, slaps, decl, choose)
    cdef int k
    for a in legal:
        code = C_KIND.get(type(a))
        k = _kind_of(a) if code is None else code
        if k < C_TAKE:
            (<list>kinds[k]).append(a)
        elif k == C_TAKE and take is None:
            take = a
    # 2. a catch: on evidence from the public log (or, in the guessing mode, on a suspicion)
    if catches:
        catch = _evidence_catch(bot, view, seat, catches, rng) if bot.catching == "evidence" else \
            bot._guess_catch(catches)
        if catch is not None:
            return catch
    # 3. countdown: throw in a card (not a Wild while another card fits)
    if slaps:
        for a in slaps:
            if a.card != C_WILD_T:
                return a
        return slaps[0]
    # 4. decisions: declare a Wild, choose a swap partner, keep or play the drawn card
    if decl:
        return bot._best_declaration(decl, list(_get(view, "hand") or []))
    if choose:
        sizes = _item(view, "hand_sizes")
        return min(choose, key=lambda a: (sizes[a.target], a.target))
    if plays:
        return _best_play(plays, _get(view, "hand") or ())
    if take is not None:
        return take
    others = [a for a in legal if not isinstance(a, (Catch, Announce, Gesture))]
    if _in_countdown(view) and _get(view, "timing") != "steps":
        return None
    return others[0] if others else None


cdef void _follow_log(bot, view, seat) except *:
    """``BlastOffHeuristic._follow_log``."""
    recent = _get(view, "recent")
    if recent is None:
        bot._tracker = None
        return
    tr = bot._tracker
    now = float(_get(view, "now") or 0.0)
    seen = bot._log_seen
    if tr is None or (recent and (recent[0]["n"] > seen + 1 or recent[-1]["n"] < seen)) or now < tr.now:
        bot._resync(view, tr is not None)
        return
    bot._log_seen = tr.follow(recent, seen, now)
    if tr.lost:
        bot._resync(view)
    elif not _agrees(view, seat, tr):
        bot.mismatches += 1
        bot._resync(view)


def agrees(view, seat, tr):
    """``_agrees`` (the compiled self-check), for the tests."""
    return _agrees(dict(view), seat, tr)


cdef bint _agrees(view, seat, tr) except -1:
    """``BlastOffHeuristic._agrees``."""
    if not tr.obls:
        return True  # ``owed`` is a part of ``obls``: nothing derived
    owed = tr.owed(seat)
    if not owed:
        return True
    cdef dict mine = {}
    for o in _get(view, "obligations") or ():
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


cdef _evidence_catch(bot, view, seat, list catches, rng):
    """``BlastOffHeuristic._evidence_catch``."""
    tr = bot._tracker
    if tr is None:
        return None
    if tr.rt:
        deadline = _get(view, "deadline")
        found = tr.catchable(float(_item(view, "now")), None if deadline is None else float(deadline))
    elif _get(view, "phase") == "RESPONSE":
        found = tr.catchable(step=int(_item(view, "response_step")))
    else:
        return None
    allowed = set(catches)
    game = bot.game
    cdef dict table = game._catches
    for v in found:
        if v.seat == seat:
            continue
        decided = bot._decided
        go = decided.get(v.key)
        if go is None:
            go = rng.random() < bot.p_catch * bot._p_notice(v.mission, view)
            decided[v.key] = go
        if not go:
            continue
        # ``game.catch_act(seat, mission)``: the game's interned catch, read from its table (made there if new)
        for a in (table.get((v.seat, v.mission)) or game.catch_act(v.seat, v.mission),
                  table.get((v.seat, None)) or game.catch_act(v.seat, None)):
            if a in allowed:
                return a
    return None


cdef _best_play(list plays, hand):
    """``BlastOffHeuristic._best_play(plays, list(hand))`` (``hand`` is only read)."""
    cdef dict counts = {}
    cdef long numbered = 0
    cdef double score, top = 0.0
    cdef int t
    for c in hand:
        col = C_NAME_COLOUR.get(c)
        if col is None:
            col = _colour(c)
        if col:
            counts[col] = counts.get(col, 0) + 1
        if c != "W" and c != "CD":
            numbered += 1
    best = None
    for a in plays:
        t = a.card
        if t == C_WILD_T:
            score = -10.0
        elif t == C_CD_T:
            score = 3.0 if numbered >= 3 else -1.0
        else:
            score = counts.get(C_TYPE_COLOUR[t], 0) + (0.5 if C_TYPE_BO[t] else 0.0)
        if best is None or score > top:
            best, top = a, score
    return best
