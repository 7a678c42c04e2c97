"""The outcome of a finished game."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class Result:
    """Scores, ranking (tiers, best first), winners; ``team_win`` for cooperative games."""

    reason: str
    winners: frozenset[int]
    ranking: tuple[tuple[int, ...], ...]
    scores: Mapping[int, float] | None = None
    team_win: bool | None = None
    details: Mapping[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "reason": self.reason,
            "winners": sorted(self.winners),
            "ranking": [list(t) for t in self.ranking],
            "scores": None if self.scores is None else {str(k): v for k, v in sorted(self.scores.items())},
            "team_win": self.team_win,
            "details": dict(self.details),
        }

    @staticmethod
    def ranked(reason: str, scores: Mapping[int, float], keys: Mapping[int, Sequence[float]] | None = None,
               details: Mapping[str, Any] | None = None) -> Result:
        """Rank seats by ``keys`` (default: score), ties share a tier; the top tier wins."""
        k = keys or {s: (v,) for s, v in scores.items()}
        order = sorted(k, key=lambda s: tuple(k[s]), reverse=True)
        tiers: list[list[int]] = []
        for s in order:
            if tiers and tuple(k[tiers[-1][0]]) == tuple(k[s]):
                tiers[-1].append(s)
            else:
                tiers.append([s])
        ranking = tuple(tuple(sorted(t)) for t in tiers)
        return Result(reason, frozenset(ranking[0]), ranking, dict(scores), None, dict(details or {}))
