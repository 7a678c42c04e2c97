"""A tiny real-time game that exercises the engine's mechanics, independent of the real games.

Two seats race to add to a shared counter. Every ``tick`` seconds a timer subtracts 1.
The game ends when the counter reaches ``goal`` (seat with most adds wins) or 0 (nobody wins).
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from typing import Any

from cosmodeck.engine import (
    DataError,
    Event,
    Game,
    GameInfo,
    IllegalActionError,
    NotationError,
    Option,
    Result,
    Rng,
    State,
    TextInput,
)
from cosmodeck.engine.options import number


@dataclass(frozen=True, slots=True)
class Add:
    amount: int

    def __str__(self) -> str:
        return f"add {self.amount}"


class ToyState(State):
    def __init__(self, game: ToyGame, players: int, seed: int) -> None:
        super().__init__(game, players, seed)
        self.counter = int(game.data["start"])
        self.adds = [0] * players
        self.secret = [self.rng.randbelow(100) for _ in range(players)]
        self.tick_at: float | None = float(game.options["tick"])
        self.ended: Result | None = None

    def _to_act(self) -> frozenset[int]:
        return frozenset(range(self.players))

    def _legal(self, seat: int) -> list[Any]:
        return [Add(1), Add(2)]

    def _check(self, seat: int, action: Any) -> None:
        if not isinstance(action, Add) or action.amount not in (1, 2):
            raise IllegalActionError(f"{action} is not allowed", "bad_amount")

    def _do(self, seat: int, action: Any) -> list[Event]:
        self.counter += action.amount
        self.adds[seat] += action.amount
        self._settle()
        return [Event("add", {"seat": seat, "amount": action.amount})]

    def _settle(self) -> None:
        goal = int(self.game.data["goal"])
        if self.counter >= goal:
            self.ended = Result.ranked("goal", {s: float(a) for s, a in enumerate(self.adds)})
        elif self.counter <= 0:
            self.ended = Result("empty", frozenset(), (tuple(range(self.players)),), {}, None, {})

    def _deadline(self) -> float | None:
        return self.tick_at

    def _fire(self) -> list[Event]:
        assert self.tick_at is not None and self.tick_at <= self.now
        self.counter -= 1
        self.tick_at += float(self.game.options["tick"])
        self._settle()
        return [Event("tick", {"counter": self.counter, "at": self.now})]

    def _result(self) -> Result | None:
        return self.ended

    def _view(self, seat: int | None) -> dict[str, Any]:
        v: dict[str, Any] = {"counter": self.counter, "adds": list(self.adds)}
        if seat is not None:
            v["secret"] = self.secret[seat]
        return v

    def _dump(self) -> dict[str, Any]:
        return {"counter": self.counter, "adds": self.adds, "secret": self.secret, "tick_at": self.tick_at,
                "ended": None if self.ended is None else self.ended.to_dict()}

    def _load(self, core: dict[str, Any]) -> None:
        self.counter = core["counter"]
        self.adds = list(core["adds"])
        self.secret = list(core["secret"])
        self.tick_at = core["tick_at"]
        self.ended = None
        self._settle()

    def _copy_into(self, other: State) -> None:
        assert isinstance(other, ToyState)
        other.adds = list(self.adds)
        other.secret = list(self.secret)

    def census(self) -> Counter[str]:
        return Counter()

    def resample_hidden(self, owner: int | None, rng: Rng) -> ToyState:
        c = self.clone()
        if owner is not None:
            c.secret[owner] = rng.randbelow(100)
        return c


class ToyGame(Game[ToyState]):
    info = GameInfo("toy", "Toy race", 2, 3, real_time=True, hidden_info=True, simultaneous=True,
                    cooperative=False, num_distinct_actions=2)
    option_specs = (Option("tick", 5.0, check=number(lo=0.1)),)

    def parse_data(self, data: TextInput) -> Any:
        try:
            obj = json.loads(data.text)
        except json.JSONDecodeError as e:
            raise DataError(data.source, "(file)", f"not JSON: {e.msg}") from None
        for key in ("start", "goal"):
            if not isinstance(obj.get(key), int):
                raise DataError(data.source, key, "must be an integer")
        return obj

    def _new_state(self, players: int, seed: int) -> ToyState:
        return ToyState(self, players, seed)

    def _state_class(self) -> type[ToyState]:
        return ToyState

    def parse_action(self, text: str) -> Any:
        parts = text.split()
        if len(parts) != 2 or parts[0] != "add" or not parts[1].isdigit():
            raise NotationError(f"not a toy action: {text!r}")
        return Add(int(parts[1]))


TOY_DATA = TextInput("toy.json", json.dumps({"start": 3, "goal": 12}))
