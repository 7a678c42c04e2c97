"""A small seeded random number generator kept inside the game state.

SplitMix64: one 64-bit integer of state, so cloning and JSON round trips are exact and
cheap. Never the global ``random`` module.
"""

from __future__ import annotations

from collections.abc import MutableSequence, Sequence
from typing import TypeVar

T = TypeVar("T")

_MASK = (1 << 64) - 1
_GAMMA = 0x9E3779B97F4A7C15


def mix64(z: int) -> int:
    """SplitMix64 finaliser: a bijective scramble of a 64-bit integer."""
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9 & _MASK
    z = (z ^ (z >> 27)) * 0x94D049BB133111EB & _MASK
    return z ^ (z >> 31)


def derive_seed(master: int, *path: int) -> int:
    """A seed for sub-stream ``path`` of ``master`` (e.g. game ``i`` of a simulation).

    Independent of how work is split, so results are identical on any worker count.
    """
    z = mix64((master & _MASK) ^ 0x5DEECE66D)
    for p in path:
        z = mix64((z + _GAMMA * ((p & _MASK) + 1)) & _MASK)
    return z >> 1  # a non-negative 63-bit seed


class Rng:
    """Seeded generator; ``state`` is a plain int (serializable)."""

    __slots__ = ("state",)

    def __init__(self, seed: int = 0, *, raw_state: int | None = None) -> None:
        self.state = raw_state if raw_state is not None else mix64(seed & _MASK)

    def next64(self) -> int:
        self.state = (self.state + _GAMMA) & _MASK
        return mix64(self.state)

    def random(self) -> float:
        """Uniform float in [0, 1)."""
        return (self.next64() >> 11) * (1.0 / 9007199254740992.0)

    def randbelow(self, n: int) -> int:
        """Uniform integer in [0, n), unbiased (rejection sampling).

        ``next64`` and ``mix64`` inlined (the hottest call of every playout); same numbers.
        """
        if n <= 1:
            if n <= 0:
                raise ValueError("randbelow needs n > 0")
            return 0
        shift = 64 - (n - 1).bit_length()
        s = self.state
        while True:
            s = (s + _GAMMA) & _MASK
            z = (s ^ (s >> 30)) * 0xBF58476D1CE4E5B9 & _MASK
            z = (z ^ (z >> 27)) * 0x94D049BB133111EB & _MASK
            r = (z ^ (z >> 31)) >> shift
            if r < n:
                self.state = s
                return r

    def randint(self, lo: int, hi: int) -> int:
        """Uniform integer in [lo, hi] inclusive."""
        return lo + self.randbelow(hi - lo + 1)

    def choice(self, seq: Sequence[T]) -> T:
        return seq[self.randbelow(len(seq))]

    def shuffle(self, seq: MutableSequence[T]) -> None:
        """Fisher-Yates, in place (``randbelow`` inlined; same numbers)."""
        s = self.state
        for i in range(len(seq) - 1, 0, -1):
            n = i + 1
            shift = 64 - i.bit_length()
            while True:
                s = (s + _GAMMA) & _MASK
                z = (s ^ (s >> 30)) * 0xBF58476D1CE4E5B9 & _MASK
                z = (z ^ (z >> 27)) * 0x94D049BB133111EB & _MASK
                j = (z ^ (z >> 31)) >> shift
                if j < n:
                    break
            seq[i], seq[j] = seq[j], seq[i]
        self.state = s

    def uniform(self, lo: float, hi: float) -> float:
        return lo + (hi - lo) * self.random()

    def lognormal(self, median: float, sigma: float) -> float:
        """Log-normal sample with the given median (for reaction times)."""
        import math  # local: keeps the module import light

        # Box-Muller from two uniforms.
        u1 = 1.0 - self.random()
        u2 = self.random()
        z = math.sqrt(-2.0 * math.log(u1)) * math.cos(2.0 * math.pi * u2)
        return median * math.exp(sigma * z)

    def fork(self) -> Rng:
        """An independent child generator (advances this one by one step)."""
        return Rng(raw_state=mix64(self.next64() ^ 0xD1B54A32D192ED03))

    def copy(self) -> Rng:
        return Rng(raw_state=self.state)
