"""The seeded generator every rules module keeps in its game state (SplitMix64).

A game state must serialise to JSON and replay bit for bit on any Python, so the
referee does not use :mod:`random` (whose state is 625 words and whose ``shuffle``
algorithm is an implementation detail). SplitMix64 (Steele, Lea & Flood 2014)
passes BigCrush, and its whole state is one 64-bit integer: ``Rng(state)`` restores
what ``rng.state`` saved.

**Fixed dice.** Tests and positions may fix the next dice: ``rng.fixed = [6, 1]``
makes the next two :meth:`Rng.die` calls return 6 and 1 (without drawing from the
generator); after them the generator rolls again. Games roll dice with
:meth:`Rng.die` so that positions can fix them; the kit saves ``fixed`` with the
state (``"dice"``).

**Fixed draws.** A blind draw (a card taken at random from a hand or a face-down
heap, :meth:`referee.games.base.Game.blind_draw`) takes the first of ``draws`` (the
cards fixed for the next blind draws, as the game names them) instead of drawing
from the generator; the kit saves them with the state (``"draws"``).
"""

from __future__ import annotations

from typing import TypeVar

T = TypeVar("T")

_MASK = (1 << 64) - 1
_GAMMA = 0x9E3779B97F4A7C15


class Rng:
    """SplitMix64 with ``below(n)`` (unbiased) and Fisher–Yates ``shuffle``."""

    __slots__ = ("draws", "fixed", "state")

    def __init__(
        self, state: int, fixed: list[int] | None = None, draws: list[str] | None = None
    ) -> None:
        self.state = int(state) & _MASK
        self.fixed: list[int] = list(fixed) if fixed else []
        #: the cards fixed for the next blind draws, next first (the game reads them)
        self.draws: list[str] = list(draws) if draws else []

    def copy(self) -> Rng:
        """An independent generator in the same state (fixed dice and draws included)."""
        return Rng(self.state, self.fixed, self.draws)

    def die(self, sides: int = 6) -> int:
        """The next die roll, 1 to ``sides``: the first fixed die if any, else random."""
        if self.fixed:
            return self.fixed.pop(0)
        return self.below(sides) + 1

    @classmethod
    def from_seed(cls, seed: int) -> Rng:
        # mix the seed once so that seeds 0, 1, 2 ... start far apart
        r = cls(int(seed) & _MASK)
        r.state = r.next64()
        return r

    def next64(self) -> int:
        self.state = (self.state + _GAMMA) & _MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)`` (rejection sampling, no modulo bias)."""
        if n <= 0:
            raise ValueError("below() needs n > 0")
        limit = ((1 << 64) // n) * n
        while True:
            x = self.next64()
            if x < limit:
                return x % n

    def shuffle(self, items: list[T]) -> None:
        """Shuffle ``items`` in place (Fisher–Yates, from the end)."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def choice(self, items: list[T]) -> T:
        return items[self.below(len(items))]

    def randrange(self, n: int) -> int:
        """``random.Random.randrange(n)``'s contract: a uniform integer in ``[0, n)``."""
        return self.below(n)
