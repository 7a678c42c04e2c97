"""One replay of Blast Off!'s public log (the view's ``recent`` events) for every bot that needs it.

BLO-12.10: every violation is derivable from the public log. ``PublicLog`` mirrors the engine's
mission bookkeeping (``games/blast_off/missions.py``, ``rules_play.py``, ``response.py``) from
spectator events only, in both timings:

- turn-based (``timing="steps"``, BLO-11, 12.2-12.5): an obligation falls due at the end of the
  ``RESPONSE`` step after its trigger; a violation is catchable in the first ``catch_window_steps``
  RESPONSE steps that start after it arises;
- real time (BLO-10, 12.2, 12.5): an obligation falls due ``obligation_s`` after its trigger (the
  event's game time ``t``), or at its player's next turn action (play, draw, pass) or slap, if that
  comes first; an announcement counts only if it is made strictly before the deadline (the engine
  fires deadlines before an action at the same time, earliest first). A violation stays catchable
  until the later of ``catch_window_s`` after it arose and the end of the next turn action (the
  current one included when the violation arose in a turn action). The replay counts completed
  turn actions (``played``/``kept``/``passed``; a ``swap_hands`` choice delays the count): only
  the increments matter, the count starts at 0;
- ``mission_enforcement="referee"`` (12.7): a violation is drawn for at once, nothing stays open.

An accepted card resolves as in BLO-12.1: going out, the declaration of a Wild in the Blast Off
slot, the restriction check, effects, then obligations (including ``hand_size_becomes``) and the
reveal. The replay therefore holds a play's resolution (``pending``) and creates its obligations
at the first event that is not part of it (in real time: any later event; or when settled, unless
the play waits for a DECLARE or CHOOSE decision), with the game time of that moment for their
deadline. It also follows what a determinization needs beyond obligations and violations: the
last resolution that reached its obligations (``last``), the mission of the last ``choose_needed``,
the continuation of a RESPONSE step (``rthen``) and a pending extra turn (``extra``).

Two ways to start:

- ``PublicLog(game, view)``: from the moment of ``view``, then ``feed`` the events that follow
  (the heuristic's tracker; it resyncs from a view when it missed events);
- ``replay_view(game, view)``: from the first event of the view's log (hand sizes, missions in
  force, top card, countdown and RESPONSE step walked back from the view), every event fed and
  settled at the view's time (the ISMCTS determinization). The log holds the last 48 events: an
  obligation or violation that arose before them is left out, and a triggering card whose face
  beneath is no longer known (a reshuffle, or more plays than the discard pile shows) triggers no
  restriction.

Soundness: every obligation and violation the replay holds also exists in the engine, with the
same deadline and catch window; it may miss some (those before its start, or for missions it
cannot know). Since announcements fulfil the oldest matching obligation, a subset stays a subset,
so a catch on a violation derived here is never false. Where it cannot mirror the engine exactly
(an effect fired by ``hand_size_becomes``) it sets ``lost``, and its owner resyncs from a view.
``found`` lists every violation derived, as (seat, mission id).
"""

from cosmodeck.bots.blast_off_log.records import Obligation, Play, Violation
from cosmodeck.bots.blast_off_log.replay import PublicLog
from cosmodeck.bots.blast_off_log.start import replay_view

__all__ = ["Obligation", "Play", "PublicLog", "Violation", "replay_view"]
