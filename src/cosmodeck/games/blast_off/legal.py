"""Legal actions and their checks: one module, shared predicates, so the two always agree."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cosmodeck.engine.errors import IllegalActionError
from cosmodeck.games.blast_off.actions import (
    DONE,
    DRAW,
    KEEP,
    PASS,
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
from cosmodeck.games.blast_off.cards import (
    BLAST,
    BLAST_OFF,
    COLOURS,
    COUNTDOWN,
    TYPE_COL,
    TYPE_KIND,
    TYPE_VAL,
    WILD,
    WILD_T,
    card_matches,
    eligible_for,
)
from cosmodeck.games.blast_off.missions import restriction_hit
from cosmodeck.games.blast_off.phases import (
    AUTHOR,
    CHOOSE,
    DECLARE,
    DRAWN,
    RESPONSE,
    TURN,
)
from cosmodeck.games.blast_off.phases import (
    COUNTDOWN as PH_COUNTDOWN,
)
from cosmodeck.games.blast_off.rules_core import can_draw

if TYPE_CHECKING:
    from cosmodeck.games.blast_off.state import BlastOffState


def _no(message: str, code: str) -> IllegalActionError:
    return IllegalActionError(message, code)


def face_of(t: int, a_col: int, a_val: int) -> tuple[int, int]:
    """The face a played card shows: its own, a Wild's declaration, (none, none) for a Countdown card."""
    if t == WILD_T:
        return a_col, a_val
    return TYPE_COL[t], TYPE_VAL[t]


# ---- turn ----------------------------------------------------------------------------------


def clean_match(st: BlastOffState, seat: int) -> bool:
    """BLO-4.4.1, 12.8: a Planet or Blast Off card that matches and breaks no restriction."""
    fc, fv = st.fcol, st.fval
    restr = st.has_restriction
    types = st.g.ctype
    for cid in st.hands[seat]:
        t = types[cid]
        if TYPE_KIND[t] <= BLAST and card_matches(t, fc, fv) and (
                not restr or restriction_hit(st, TYPE_KIND[t], TYPE_COL[t], TYPE_VAL[t], False) < 0):
            return True
    return False


def legal_turn(st: BlastOffState, seat: int) -> list[Any]:
    g = st.g
    fc, fv = st.fcol, st.fval
    assist = g.assist and st.has_restriction
    out: list[Any] = []
    seen = set()
    clean = False
    for cid in st.hands[seat]:
        t = g.ctype[cid]
        if t in seen:
            continue
        seen.add(t)
        k = TYPE_KIND[t]
        if k <= BLAST:
            if card_matches(t, fc, fv):
                hit = st.has_restriction and restriction_hit(st, k, TYPE_COL[t], TYPE_VAL[t], False) >= 0
                clean = clean or not hit
                if not (hit and assist):
                    out.append(g.play_acts[t])
        elif k == WILD:
            if assist:
                out.extend(a for a in g.wild_plays if restriction_hit(st, WILD, a.col, a.val, False) < 0)
            else:
                out.extend(g.wild_plays)
        elif not (assist and restriction_hit(st, COUNTDOWN, -1, 0, False) >= 0):
            out.append(g.play_acts[t])
    if g.options["voluntary_draw"] or not clean:
        out.append(DRAW if can_draw(st) else PASS)
    return out


def check_turn(st: BlastOffState, seat: int, a: Any) -> None:
    g = st.g
    if isinstance(a, Play):
        t = a.card
        if not any(g.ctype[c] == t for c in st.hands[seat]):
            raise _no(f"you hold no such card ({a})", "not_in_hand")
        k = TYPE_KIND[t]
        if k == WILD:
            if a.col < 0:
                raise _no("a Wild needs a declared colour and number or word: play W[R4] (BLO-4.2)",
                          "declaration_required")
            if a.col not in g.colours or a.val not in g.values:
                raise _no(f"{a}: no such colour or value in this game", "bad_declaration")
        elif a.col >= 0 or a.val:
            raise _no("only a Wild carries a declaration", "bad_declaration")
        elif k <= BLAST and not card_matches(t, st.fcol, st.fval):
            raise _no(f"{a} matches neither the colour, the number nor the word on top (BLO-4.1.2)", "no_match")
        col, val = face_of(t, a.col, a.val)
        if g.assist and st.has_restriction and restriction_hit(st, k, col, val, False) >= 0:
            raise _no(f"{a} breaks a mission in force (assist mode, BLO-12.7)", "restricted")
        return
    if isinstance(a, (Draw, Pass)):
        if isinstance(a, Draw) and not can_draw(st):
            raise _no("there is nothing to draw or reshuffle: pass (R10)", "nothing_to_draw")
        if isinstance(a, Pass) and can_draw(st):
            raise _no("you can draw, so you may not pass (R10)", "must_draw")
        if not g.options["voluntary_draw"] and clean_match(st, seat):
            raise _no("you can match, so you may not draw (BLO-4.4.1, R18)", "has_match")
        return
    raise _no(f"{a} is not a turn action", "wrong_phase")


# ---- the drawn card (4.4.2) -----------------------------------------------------------------


def drawn_options(st: BlastOffState) -> list[Any]:
    """Plays of the drawn card (clean first, then restricted unless ``assist``) and ``keep``."""
    g = st.g
    t = g.ctype[st.drawn]
    k = TYPE_KIND[t]
    if k == WILD:
        cands: list[Any] = list(g.wild_plays)
    elif k == COUNTDOWN or card_matches(t, st.fcol, st.fval):
        cands = [g.play_acts[t]]
    else:
        cands = []
    clean: list[Any] = []
    dirty: list[Any] = []
    for a in cands:
        col, val = face_of(t, a.col, a.val)
        if st.has_restriction and restriction_hit(st, k, col, val, False) >= 0:
            if not g.assist:
                dirty.append(a)
        else:
            clean.append(a)
    out = clean + dirty
    if g.options["drawn_card_play"] == "may" or not clean:
        out.append(KEEP)
    return out


def drawn_auto(st: BlastOffState, opts: list[Any]) -> Any | None:
    """The drawn card's only choice when the engine makes it without a decision, else None (BLO-12.8, 13).

    Under ``drawn_card_play=must`` a single clean play is made at once (the card is then public). A keep
    is automatic only when no restricted play could have been chosen instead (no restriction in force,
    or ``assist``): otherwise every card that is not played at once, playable-but-restricted or not
    playable at all, waits for the same public DRAWN decision, so the pause tells nothing about the card.
    """
    if st.g.options["drawn_card_play"] != "must" or len(opts) != 1:
        return None
    if isinstance(opts[0], Keep) and st.has_restriction and not st.g.assist:
        return None
    return opts[0]


# ---- countdown ------------------------------------------------------------------------------


def legal_slaps(st: BlastOffState, seat: int) -> list[Any]:
    """BLO-10.4, 11.2: ``pass`` or one eligible card for the value being called."""
    if st.cd_idx < 0 or (st.rt and seat in st.cd_acted):
        return []
    g = st.g
    v = st.cd_seq[st.cd_idx]
    out: list[Any] = [PASS]
    seen = set()
    for cid in st.hands[seat]:
        t = g.ctype[cid]
        if t not in seen:
            seen.add(t)
            if eligible_for(t, v):
                out.append(g.slap_acts[t][v])
                if t == WILD_T and v == BLAST_OFF and st.rt:
                    out.extend(g.wild_bo_slaps)
    return out


def check_slap(st: BlastOffState, seat: int, a: Any) -> None:
    if st.phase != PH_COUNTDOWN:
        raise _no("no countdown is in progress", "no_countdown")
    if isinstance(a, Pass):
        if st.cd_idx < 0:
            raise _no("no value is being called yet", "no_value_called")
        if st.rt and seat in st.cd_acted:
            raise _no("you already acted for this value (R5)", "already_slapped")
        return
    if not isinstance(a, Slap):
        raise _no(f"{a} is not a countdown action: slap CARD VALUE or pass", "wrong_phase")
    g = st.g
    if not any(g.ctype[c] == a.card for c in st.hands[seat]):
        raise _no(f"you hold no such card ({a})", "not_in_hand")
    if TYPE_KIND[a.card] == COUNTDOWN:
        raise _no("a Countdown card cannot be played during a countdown (BLO-6.1)", "countdown_in_countdown")
    if st.cd_idx < 0:
        raise _no("no value is being called yet", "no_value_called")
    v = st.cd_seq[st.cd_idx]
    if a.value != v:
        raise _no(f"the value being called is {v if v != BLAST_OFF else 'BO'}, not that one (R5)", "wrong_value")
    if st.rt and seat in st.cd_acted:
        raise _no("you already slapped for this value (R5)", "already_slapped")
    if not eligible_for(a.card, v):
        raise _no(f"{a}: that card cannot fill this slot (BLO-10.4)", "not_eligible")
    if a.col >= 0 or a.val:
        if a.card != WILD_T or v != BLAST_OFF:
            raise _no("only a Wild in the Blast Off slot carries a declaration", "bad_declaration")
        if not st.rt:
            raise _no("turn-based timing: declare in the DECLARE step (BLO-11.1)", "bad_declaration")
        if a.col not in g.colours or a.val not in g.values:
            raise _no("no such colour or value in this game", "bad_declaration")


# ---- missions: announce, gesture, catch ------------------------------------------------------


def token_specs(st: BlastOffState, seat: int) -> list[tuple[bool, str, str | None]]:
    """(gesture?, token, arg kind) of the obligations in force and of ``seat``'s open ones."""
    specs: dict[tuple[bool, str, str | None], None] = {}
    for mi in st.inforce:
        m = st.mission(mi)
        if m.kind == "obligation":
            specs[(m.gesture, m.token, m.arg)] = None
    for o in st.obls:
        if o[0] == seat:
            m = st.mission(o[1])
            specs[(m.gesture, m.token, m.arg)] = None
    return list(specs)


def mission_actions(st: BlastOffState, seat: int, subs: list[Any] | None) -> list[Any]:
    g = st.g
    used = set(subs) if subs else set()
    used_targets = {a.target for a in subs if isinstance(a, Catch)} if subs else set()
    out: list[Any] = []
    hi = -1
    for spec in token_specs(st, seat):
        acts = g.token_acts(*spec)
        if spec[2] == "hand_size":
            hi = count_limit(st, seat) if hi < 0 else hi
            acts = acts[:hi + 1]
        # 12.2: a corrected announcement within the step fulfils as a retry does in real time; only the very
        # same announcement twice is pointless (and would make a step's list unbounded)
        out.extend(a for a in acts if a not in used)
    if not g.referee:
        ids = [st.mission(mi).id for mi in st.inforce]
        for t in range(st.players):
            if t != seat and st.hands[t] and t not in used_targets:
                out.append(g.catch_act(t, None))
                out.extend(g.catch_act(t, i) for i in ids)
    return out


def check_mission_action(st: BlastOffState, seat: int, a: Any, subs: list[Any] | None) -> None:
    g = st.g
    if isinstance(a, (Announce, Gesture)):
        gesture = isinstance(a, Gesture)
        arg = a.arg if isinstance(a, Announce) else None
        specs = [s for s in token_specs(st, seat) if s[0] == gesture and s[1] == a.token]
        if not specs:
            raise _no(f"no mission in force asks for {a}", "unknown_token")
        if not any(_arg_ok(st, seat, s[2], arg) for s in specs):
            raise _no(f"{a}: wrong kind of argument for {a.token}", "bad_arg")
        if subs and a in subs:
            raise _no(f"{a} is already in your response", "duplicate_in_step")
        return
    if isinstance(a, Catch):
        if g.referee:
            raise _no("the referee enforces missions: catches are disabled (BLO-12.7)", "catch_disabled")
        if not 0 <= a.target < st.players or a.target == seat:
            raise _no("catch another player", "bad_target")
        if not st.hands[a.target]:
            raise _no("a player who has gone out cannot be caught (BLO-8.3)", "target_out")
        if a.mission is not None and a.mission not in {st.mission(mi).id for mi in st.inforce}:
            raise _no(f"{a.mission} is not a mission in force", "unknown_mission")
        if subs and any(isinstance(x, Catch) and x.target == a.target for x in subs):
            raise _no(f"you already catch seat {a.target} in this step", "duplicate_in_step")
        return
    raise _no(f"{a} is not allowed now", "wrong_phase")


def count_limit(st: BlastOffState, seat: int) -> int:
    """The largest count one may announce: 10, the biggest hand, or an own obligation's count."""
    hi = max(10, *(len(h) for h in st.hands))
    for o in st.obls:
        if o[0] == seat and o[2] is not None and o[2].isdigit():
            hi = max(hi, int(o[2]))
    return hi


def _arg_ok(st: BlastOffState, seat: int, kind: str | None, arg: str | None) -> bool:
    if kind is None:
        return arg is None
    if arg is None:
        return False
    if kind == "colour":
        return arg in {COLOURS[c] for c in st.g.colours}
    # canonical decimal only ("3", not "03" or "³"): one spelling per count keeps a step's list bounded
    return arg.isascii() and arg.isdigit() and len(arg) <= 4 and str(int(arg)) == arg and int(arg) <= count_limit(
        st, seat)


# ---- dispatch -------------------------------------------------------------------------------


def legal(st: BlastOffState, seat: int) -> list[Any]:
    ph = st.phase
    if ph == RESPONSE:
        return [DONE, *mission_actions(st, seat, st.pend.get(seat))]
    if ph == PH_COUNTDOWN:
        out = legal_slaps(st, seat)
    elif seat != st.cur:
        out = []
    elif ph == TURN:
        out = legal_turn(st, seat)
    elif ph == DRAWN:
        out = drawn_options(st)
    elif ph == DECLARE:
        out = list(st.g.declares)
    elif ph == CHOOSE:
        out = [Choose(t) for t in range(st.players) if t != seat and st.hands[t]]
    elif ph == AUTHOR:
        out = list(st.g.pool_acts)
    else:
        out = []
    if st.rt and st.inforce:
        out.extend(mission_actions(st, seat, None))
    return out


def check(st: BlastOffState, seat: int, a: Any) -> None:
    ph = st.phase
    if ph == RESPONSE:
        if not isinstance(a, Done):
            check_mission_action(st, seat, a, st.pend.get(seat))
        return
    if isinstance(a, (Announce, Gesture, Catch)):
        if not st.rt:
            raise _no("turn-based timing: announce and catch in a RESPONSE step (BLO-12.3)", "wrong_phase")
        if not st.inforce:
            raise _no("no mission is in force", "unknown_token" if not isinstance(a, Catch) else "no_mission")
        check_mission_action(st, seat, a, None)
        return
    if ph == PH_COUNTDOWN:
        check_slap(st, seat, a)
        return
    if isinstance(a, Slap):
        raise _no("no countdown is in progress", "no_countdown")
    if seat != st.cur:
        raise _no(f"it is seat {st.cur}'s decision", "not_your_turn")
    if ph == TURN:
        check_turn(st, seat, a)
    elif ph == DRAWN:
        if a not in drawn_options(st):
            code = "must_play_drawn" if isinstance(a, Keep) else "play_the_drawn_card"
            raise _no(f"{a}: play the drawn card or keep it, as the rules allow (BLO-4.4.2)", code)
    elif ph == DECLARE:
        if not isinstance(a, Declare):
            raise _no("declare the Wild's colour and number or word: declare R4", "declaration_required")
        if a.col not in st.g.colours or a.val not in st.g.values:
            raise _no("no such colour or value in this game", "bad_declaration")
    elif ph == CHOOSE:
        if not isinstance(a, Choose):
            raise _no("choose the player to swap hands with: choose SEAT", "choice_required")
        if not 0 <= a.target < st.players or a.target == seat or not st.hands[a.target]:
            raise _no("choose another active player", "bad_target")
    elif ph == AUTHOR:
        if not isinstance(a, Author):
            raise _no("write a mission: author {...} (BLO-9.2)", "mission_required")
        st.g.authored(a.text)  # raises IllegalActionError(code="bad_mission")
    else:
        raise _no("nothing to do now", "wrong_phase")
