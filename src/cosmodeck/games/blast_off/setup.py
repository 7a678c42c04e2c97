"""BLO-3 Setup: missions, dealer, deal, starter."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cosmodeck.engine.errors import OptionError
from cosmodeck.games.blast_off.cards import COUNTDOWN, TYPE_COL, TYPE_VAL, WILD
from cosmodeck.games.blast_off.loader import HAND_SIZE
from cosmodeck.games.blast_off.phases import DECLARE, FIRST
from cosmodeck.games.blast_off.rules_core import next_active, start_turn
from cosmodeck.games.blast_off.state import BlastOffState

if TYPE_CHECKING:
    from cosmodeck.games.blast_off.game import BlastOffGame


def new_state(g: BlastOffGame, players: int, seed: int) -> BlastOffState:
    st = g._state_class()(g, players, seed)  # the fast path's class when ``g.fast`` (game.py)
    rng = st.rng
    dealer = g.options["dealer"]
    if dealer == "random":  # 3.2, R23
        dealer = rng.randbelow(players)
    elif dealer >= players:
        raise OptionError(f"option 'dealer': no seat {dealer} in a {players}-player game")
    st.dealer = dealer
    st.mdeck = list(range(len(g.missions)))  # 3.1
    rng.shuffle(st.mdeck)
    deck = list(range(g.deck_size))  # 3.3
    rng.shuffle(deck)
    for _ in range(HAND_SIZE):
        for i in range(1, players + 1):
            st.hands[(dealer + i) % players].append(deck.pop())
    st.draw = deck  # 3.4
    turn_starter(st)
    return st


def turn_starter(st: BlastOffState) -> None:
    """3.5-3.8: turn the starter; a Countdown card goes back (R2); a Wild is declared by the dealer."""
    g, rng, dealer = st.g, st.rng, st.dealer
    kinds = g.kind
    while True:  # 3.5, 3.8 (R2)
        c = st.draw.pop()
        if kinds[c] == COUNTDOWN and any(kinds[x] != COUNTDOWN for x in st.draw):
            st.draw.insert(rng.randbelow(len(st.draw) + 1), c)
            st.starter_returns += 1
            continue
        break
    st.disc = [c]
    t = g.ctype[c]
    if kinds[c] == WILD:  # 3.7: the dealer declares
        st.phase = DECLARE
        st.cur = dealer
        st.ctx = {"ev": -1, "a": dealer, "c": c, "k": WILD, "col": -1, "val": 0, "bc": -1, "bv": 0, "bk": -1,
                  "sz": [len(h) for h in st.hands], "cd": False, "bo": False, "st": 4, "ei": 0, "eff": None,
                  "then": FIRST}
        if st.rt:
            st.dec_t = g.options["declare_timeout_s"]
    else:
        st.fcol, st.fval = TYPE_COL[t], TYPE_VAL[t]
        start_turn(st, next_active(st, dealer, 1))  # 4.0.1
