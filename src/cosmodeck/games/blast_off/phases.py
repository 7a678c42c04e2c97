"""Phases of a Blast Off! game (who decides what; BLO-11.1 node kinds)."""

TURN, DRAWN, CHOOSE, DECLARE, AUTHOR, COUNTDOWN, RESPONSE, OVER = range(8)
PHASE_NAMES = ("TURN", "DRAWN", "CHOOSE", "DECLARE", "AUTHOR", "COUNTDOWN", "RESPONSE", "OVER")

# How an accepted card came to the pile.
HOW_TURN, HOW_DRAWN, HOW_SLAP = 0, 1, 2

# Continuations once a card or a draw is resolved (BLO-12.1 step 8).
NEXT = "next"          # the turn passes on from the turn player
START_CD = "cd"        # a Countdown card was played: run the countdown
CD_VALUE = "cdv"       # a countdown card was accepted: next value (steps / fast pace)
CD_END = "cde"         # the Blast Off slot was filled: the countdown ends
FIRST = "first"        # the starter is declared: the player left of the dealer starts
DRAWN_CARD = "drawn"   # a Draw resolved: decide about the drawn card
TURN_ACTIONS = (NEXT, START_CD)

CATCH_PENALTY = 4
