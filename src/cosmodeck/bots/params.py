"""Reading bot parameters (``name:key=value;key=value``) with clear errors."""

from __future__ import annotations

from collections.abc import Iterable


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
        text = self._get(key)
        if text is None:
            return default
        try:
            value = float(text)
        except ValueError:
            raise ValueError(f"{self.bot} bot: {key}={text!r} is not a number") from None
        if (lo is not None and value < lo) or (hi is not None and value > hi):
            raise ValueError(f"{self.bot} bot: {key}={text} is out of range [{lo}, {hi}]")
        return value

    def int(self, key: str, default: int | None, lo: int | None = None) -> int | None:
        text = self._get(key)
        if text is None:
            return default
        try:
            value = int(text)
        except ValueError:
            raise ValueError(f"{self.bot} bot: {key}={text!r} is not an integer") from None
        if lo is not None and value < lo:
            raise ValueError(f"{self.bot} bot: {key}={text} must be at least {lo}")
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
