"""Reading bot parameters (``name:key=value;key=value``) with clear errors."""

from __future__ import annotations

import math
from collections.abc import Iterable

MAX_NUMBER = 1e6  # every numeric parameter is at most this unless its bot caps it lower
MAX_INT = 1_000_000


class Params:
    """The parameters of one bot spec; every key must be read, or ``done`` refuses it."""

    def __init__(self, bot: str, raw: dict[str, str]) -> None:
        self.bot = bot
        self.raw = dict(raw)
        self._seen: set[str] = set()

    def _get(self, key: str) -> str | None:
        self._seen.add(key)
        return self.raw.get(key)

    def float(self, key: str, default: float, lo: float | None = None, hi: float | None = None) -> float:
        """A finite number in ``[lo, hi]`` (``hi`` defaults to ``MAX_NUMBER``); nan and inf are refused."""
        text = self._get(key)
        if text is None:
            return default
        hi = MAX_NUMBER if hi is None else hi
        try:
            value = float(text)
        except ValueError:
            raise ValueError(f"{self.bot} bot: {key}={text!r} is not a number") from None
        if not math.isfinite(value):
            raise ValueError(f"{self.bot} bot: {key}={text} must be a finite number")
        if (lo is not None and value < lo) or value > hi:
            raise ValueError(f"{self.bot} bot: {key}={text} is out of range [{lo}, {hi}]")
        return value

    def int(self, key: str, default: int | None, lo: int | None = None, hi: int = MAX_INT) -> int | None:
        """An integer in ``[lo, hi]`` (written in ASCII digits, at most 12 of them)."""
        text = self._get(key)
        if text is None:
            return default
        digits = text.strip().lstrip("+-")
        if not (digits.isascii() and digits.isdigit() and len(digits) <= 12):
            raise ValueError(f"{self.bot} bot: {key}={text!r} is not an integer")
        value = int(text)
        if lo is not None and value < lo:
            raise ValueError(f"{self.bot} bot: {key}={text} must be at least {lo}")
        if value > hi:
            raise ValueError(f"{self.bot} bot: {key}={text} must be at most {hi}")
        return value

    def choice(self, key: str, default: str, choices: Iterable[str]) -> str:
        text = self._get(key)
        allowed = tuple(choices)
        if text is None:
            return default
        if text not in allowed:
            raise ValueError(f"{self.bot} bot: {key}={text!r} is not one of {', '.join(allowed)}")
        return text

    def done(self) -> None:
        unknown = set(self.raw) - self._seen
        if unknown:
            raise ValueError(f"{self.bot} bot: unknown parameter(s) {', '.join(sorted(unknown))}; "
                             f"known: {', '.join(sorted(self._seen))}")
