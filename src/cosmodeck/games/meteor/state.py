"""The Meteor game state: its data, small helpers, and the engine hooks.

The rules live in the ``rules_*`` modules; legality in ``legality``; views in ``view``;
serialization in ``codec``; census and resampling in ``hidden``.

Views and legal-action lists are memoised per state version (issue 15): in a simulated game a seat
looks many times at an unchanged state (a bot that waits looks again after its reaction time), and
each look used to rebuild both. The memo is emptied by every change the engine makes (``_do``,
``_fire``, ``_load``, a clone gets its own) and is also keyed on the action log's last entry and the
game time, so it can never outlive a change made through the public API. Code that edits a state's
fields directly (test set-ups, determinization on a fresh clone) must call :meth:`MeteorState.touch`
before asking for views or legal actions again.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from cosmodeck.engine.errors import IllegalActionError
from cosmodeck.engine.events import Event
from cosmodeck.engine.result import Result
from cosmodeck.engine.rng import Rng
from cosmodeck.engine.state import State
from cosmodeck.games.meteor import (
    codec,
    hidden,
    legality,
    rules_powers,
    rules_sites,
    rules_volleys,
    rules_zones,
    setup,
)
from cosmodeck.games.meteor.actions import (
    GAME_ACTIONS,
    Chat,
    CompleteRetrofit,
    DiscardProject,
    Emote,
    Flip,
    Give,
    Launch,
    Mechanic,
    MeteorMulligan,
    Pass,
    PlaceCard,
    ShowHand,
    Signal,
    Site,
    Spot,
    Start,
    TimeOut,
)
from cosmodeck.games.meteor.cards import MeteorData
from cosmodeck.games.meteor.rules_meteors import FieldMeteor
from cosmodeck.games.meteor.view import build_view, seat_parts

if TYPE_CHECKING:
    from cosmodeck.engine.game import Game


_SEATS: dict[int, frozenset[int]] = {}  # every seat may act at any time (real time)


def view_entries(game: Game[Any]) -> dict[Any, dict[str, Any]]:
    """The views' shared entries of ``game``'s states (see ``view._public``), kept on the game object."""
    got: dict[Any, dict[str, Any]] | None = game.__dict__.get("_meteor_view_entries")
    if got is None:
        got = game.__dict__["_meteor_view_entries"] = {}
    return got


class MeteorState(State):
    """A game of Meteor in progress (see DESIGN.md "Public API")."""

    def __init__(self, game: Game[Any], players: int, seed: int) -> None:
        super().__init__(game, players, seed)
        n = players
        self.phase = "setup"  # "setup" until the host's `start`, then "play"
        self.deck: list[str] = []  # Resource Deck; the top is the end of the list
        self.hands: list[list[str]] = [[] for _ in range(n)]
        self.known: list[list[str]] = [[] for _ in range(n)]  # cards in a hand that everyone knows
        self.sites: list[list[list[str]]] = [[[]] for _ in range(n)]  # sites[seat][slot]
        self.built: list[list[bool]] = [[False] for _ in range(n)]
        self.discard: list[str] = []
        self.techs: list[str] = []  # completed technologies, next to the field
        self.meteor_deck: list[str] = []  # top is the end
        self.boss_box: list[str] = []  # bosses not in play
        self.field: list[FieldMeteor] = []
        self.removed: list[dict[str, Any]] = []
        self.next_ref = 1
        self.zone = 5
        self.timer_end: float | None = None
        self.paused: dict[str, Any] | None = None  # {"by": seat, "at": time}
        self.window: dict[str, Any] | None = None  # {"opened", "closes", "launches": [...]}
        self.countdowns: list[dict[str, Any]] = []
        self.passes: list[bool] = [False] * n
        self.powers: list[str | None] = [None] * n
        self.challenges: list[str | None] = [None] * n
        self.power_box: list[str] = []
        self.challenge_box: list[str] = []
        self.used: list[list[str]] = [[] for _ in range(n)]  # once-per-game powers used
        self.zone_used: list[list[str]] = [[] for _ in range(n)]  # once-per-zone powers used
        self.last_place: list[float | None] = [None] * n
        self.mulligan_used = False
        self.outcome: dict[str, Any] | None = None
        self._memo: dict[Any, Any] = {}  # views and legal lists of this version (see the module docstring)
        self._memo_at: tuple[Any, float] | None = None
        self._listed: dict[int, list[Any]] = {}  # each seat's last legal list since the last change (_precheck)
        # views' entries (sites, field meteors, talk rules, options) by what they depend on (view._public):
        # keyed by content, they depend on nothing else but the game's data and options, so every state of
        # this game object shares them (clones, and the next games of a simulation)
        self.site_entries: dict[Any, dict[str, Any]] = view_entries(game)

    def touch(self) -> None:
        """Forget the memoised views and legal actions (after editing the state's fields directly)."""
        self._memo = {}
        self._memo_at = None
        self._listed = {}

    def memo(self) -> dict[Any, Any]:
        """The memo of this state version (views, legal lists, the public part of views)."""
        at = self._memo_at
        if at is None or at[0] is not self._log or at[1] != self.now:
            self._memo = {}
            self._memo_at = (self._log, self.now)
        return self._memo

    # ==== helpers ======================================================================
    @property
    def data(self) -> MeteorData:
        data: MeteorData = self.game.data
        return data

    def has_power(self, seat: int, key: str) -> bool:
        pid = self.powers[seat]
        return pid is not None and self.data.powers[pid] == key

    def has_challenge(self, seat: int, key: str) -> bool:
        cid = self.challenges[seat]
        return cid is not None and self.data.challenges[cid] == key

    def has_tech(self, effect: str) -> bool:
        techs = self.techs
        if not techs:
            return False
        res = self.game.data.resources
        return any(res[t].effect == effect for t in techs)

    def meteor(self, ref: str) -> FieldMeteor | None:
        for fm in self.field:
            if fm.ref == ref:
                return fm
        return None

    def all_sites(self) -> list[Site]:
        return [Site(s, k) for s in range(self.players) for k in range(len(self.sites[s]))]

    def own_sites(self, seat: int) -> list[Site]:
        return [Site(seat, k) for k in range(len(self.sites[seat]))]

    def site_exists(self, site: Site) -> bool:
        return 0 <= site.seat < self.players and 0 <= site.slot < len(self.sites[site.seat])

    def take_from_hand(self, seat: int, card: str) -> None:
        self.hands[seat].remove(card)
        if card in self.known[seat]:
            self.known[seat].remove(card)

    def give_to_hand(self, seat: int, card: str, public: bool) -> None:
        self.hands[seat].append(card)
        if public:
            self.known[seat].append(card)

    def resolve_card(self, seat: int, token: str) -> str:
        """A card id from an id or a hand position ``@i`` (Backwards)."""
        return self.hands[seat][int(token[1:])] if token.startswith("@") else token

    def hand_event(self, kind: str, seat: int, data: dict[str, Any], cards: list[str]) -> Event:
        """Cards entering a hand: faces for the owner only (Backwards: for everyone else, MET-D4)."""
        if self.has_challenge(seat, "backwards"):
            others = frozenset(range(self.players)) - {seat}
            return Event(kind, data, private={"cards": list(cards)}, seats=others)
        return Event(kind, data, private={"cards": list(cards)}, seats=frozenset({seat}))

    def finish(self, win: bool, cause: str) -> list[Event]:
        """MET-14: the team wins (field empty) or loses (a change required in Zone 1)."""
        self.outcome = {"win": win, "cause": cause, "zone": self.zone, "meteors_left": len(self.field),
                        "at": self.now}
        return [Event("won" if win else "lost", dict(self.outcome))]

    def remaining(self) -> float | None:
        """Seconds left on the active sand timer."""
        if self.timer_end is None:
            return None
        ref = float(self.paused["at"]) if self.paused is not None else self.now
        return max(0.0, self.timer_end - ref)

    # ==== engine hooks =================================================================
    def _to_act(self) -> frozenset[int]:
        seats = _SEATS.get(self.players)
        if seats is None:
            seats = _SEATS[self.players] = frozenset(range(self.players))
        return seats

    def _legal(self, seat: int) -> list[Any]:
        memo = self.memo()
        got: list[Any] | None = memo.get(seat)
        if got is None:
            got = memo[seat] = legality.legal(self, seat)
        self._listed[seat] = got
        return list(got)

    def _precheck(self, seat: int, action: Any) -> Any:
        """``State._precheck``, which an action of the seat's last legal list since the last change passes
        without asking ``why`` (issue 15): every change of the state (``_do``, ``_fire``, ``_load``, a clone,
        ``touch``) forgets the lists, and between two changes only the game time moves, which refuses nothing
        it allowed (the only clock ``why`` reads is One-Handed's gap since the seat's last placement, which
        time only closes). The list is this seat's (``legal_actions`` checked the seat), the game is not
        over (that is a change) and every seat may act at any time (real time)."""
        got = self._listed.get(seat)
        if got is not None and type(seat) is int and self.outcome is None and legality.listed(got, action):
            return action
        return super()._precheck(seat, action)

    def view(self, seat: int | None) -> dict[str, Any]:
        """As ``State.view``; memoised per version (a fresh top-level dict each call: treat it as read-only).

        A seat's view is the spectator's view of the same version (built once) with its own ``seat``,
        ``hands`` and ``talk``: nothing else in a view depends on the viewer (``view.build_view``)."""
        self._seat(seat, spectator=True)
        memo = self.memo()
        key = ("view", seat)
        got: dict[str, Any] | None = memo.get(key)
        if got is None:
            base: dict[str, Any] | None = memo.get(("view", None))
            if base is None:
                base = memo[("view", None)] = super().view(None)
            if seat is not None:
                got = dict(base)
                got["seat"] = seat
                got["hands"], got["talk"] = seat_parts(self, seat)
            else:
                got = base
            memo[key] = got
        return dict(got)

    def _check(self, seat: int, action: Any) -> None:
        bad = legality.why(self, seat, action)
        if bad is not None:
            raise IllegalActionError(bad[1], bad[0])

    def _do(self, seat: int, a: Any) -> list[Event]:
        self.touch()
        events: list[Event] = []
        if isinstance(a, GAME_ACTIONS) and not isinstance(a, Pass) and self.passes[seat]:
            self.passes[seat] = False  # R12: any game action of that player clears the flag
            events.append(Event("pass_cleared", {"seat": seat}))
        events.extend(self._dispatch(seat, a))
        self.touch()  # nothing memoised while the rules worked survives them
        return events

    def _dispatch(self, seat: int, a: Any) -> list[Event]:
        if isinstance(a, PlaceCard):
            return rules_sites.place(self, seat, self.resolve_card(seat, a.card), a.site)
        if isinstance(a, Launch):
            return rules_volleys.launch(self, seat, a)
        if isinstance(a, Pass):
            return rules_zones.do_pass(self, seat)
        if isinstance(a, DiscardProject):
            return rules_sites.discard_project(self, a.site)
        if isinstance(a, CompleteRetrofit):
            return rules_sites.retrofit(self, a.site, "three_card")
        if isinstance(a, Signal):
            return [Event("signal", {"seat": seat, "kind": a.kind})]
        if isinstance(a, Emote):
            return [Event("emote", {"seat": seat, "kind": a.kind, "target": a.target})]
        if isinstance(a, Chat):
            return [Event("chat", {"seat": seat, "text": a.text})]
        if isinstance(a, Spot):
            return rules_powers.spot(self, seat, a)
        if isinstance(a, Flip):
            return rules_powers.chronometrist(self, seat)
        if isinstance(a, Mechanic):
            return rules_powers.mechanic(self, seat, a)
        if isinstance(a, Give):
            return rules_powers.courier(self, seat, a)
        if isinstance(a, ShowHand):
            return rules_powers.show_hand(self, seat)
        if isinstance(a, TimeOut):
            return rules_zones.time_out(self, seat)
        if isinstance(a, Start):
            return setup.start(self)
        if isinstance(a, MeteorMulligan):
            return setup.mulligan(self)
        return rules_zones.resume(self, seat)

    def _deadline(self) -> float | None:
        memo = self.memo()
        if "deadline" not in memo:
            memo["deadline"] = rules_zones.next_deadline(self)
        deadline: float | None = memo["deadline"]
        return deadline

    def _fire(self) -> list[Event]:
        self.touch()
        events = rules_zones.fire(self)
        self.touch()
        return events

    def _result(self) -> Result | None:
        o = self.outcome
        if o is None:
            return None
        seats = tuple(range(self.players))
        win = bool(o["win"])
        score = float(o["zone"]) if win else 0.0
        details = {"cause": o["cause"], "zone": o["zone"], "meteors_left": o["meteors_left"], "time": o["at"],
                   "score": score}
        reason = "won: every meteor destroyed" if win else f"lost: {o['cause']} in zone {o['zone']}"
        return Result(reason, frozenset(seats) if win else frozenset(), (seats,), dict.fromkeys(seats, score),
                      team_win=win, details=details)

    def _view(self, seat: int | None) -> dict[str, Any]:
        return build_view(self, seat)

    def _dump(self) -> dict[str, Any]:
        return codec.dump(self)

    def _load(self, core: dict[str, Any]) -> None:
        self.touch()
        if not hasattr(self, "site_entries"):
            self.site_entries = view_entries(self.game)
        codec.load(self, core)

    @classmethod
    def _validate_core(cls, game: Game[Any], players: int, core: Any, now: float) -> None:
        from cosmodeck.games.meteor.validate import validate_core

        validate_core(game, players, core, now)

    def _validate_loaded(self) -> None:
        from cosmodeck.games.meteor.validate import validate_loaded

        validate_loaded(self)

    def _copy_into(self, other: State) -> None:
        assert isinstance(other, MeteorState)
        codec.copy_into(self, other)
        other.touch()

    def census(self) -> Counter[str]:
        return hidden.census(self)

    def resample_hidden(self, owner: int | None, rng: Rng) -> MeteorState:
        return hidden.resample(self, owner, rng)
