"""The game registry: each game package registers itself with its static facts."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from cosmodeck.engine.errors import UnknownGameError
from cosmodeck.engine.game import Game


@dataclass(frozen=True, slots=True)
class GameSpec:
    """How to build a game: its class, where its default data lives, which options are files."""

    game_cls: type[Game[Any]]
    data_package: str
    data_file: str
    file_options: tuple[str, ...] = ()
    rules_en: str = ""
    rules_es: str = ""

    @property
    def id(self) -> str:
        return self.game_cls.info.id


_REGISTRY: dict[str, GameSpec] = {}


def register(spec: GameSpec) -> None:
    if spec.id in _REGISTRY and _REGISTRY[spec.id] != spec:
        raise ValueError(f"game {spec.id!r} registered twice")
    _REGISTRY[spec.id] = spec


def get_spec(game_id: str) -> GameSpec:
    try:
        return _REGISTRY[game_id]
    except KeyError:
        known = ", ".join(sorted(_REGISTRY)) or "none"
        raise UnknownGameError(f"unknown game {game_id!r}; known games: {known}") from None


def registered() -> list[str]:
    return sorted(_REGISTRY)
