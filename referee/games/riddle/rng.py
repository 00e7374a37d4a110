"""A tiny seeded generator whose whole state is one integer (JSON-friendly, fast).

PCG-style 64-bit LCG with an xorshift output; good enough for dice and shuffles,
and a game replays bit for bit from its seed and move log.
"""

from __future__ import annotations

_MASK = (1 << 64) - 1
_MUL = 6364136223846793005
_INC = 1442695040888963407


def seed_state(seed: int) -> int:
    s = (int(seed) * 0x9E3779B97F4A7C15 + _INC) & _MASK
    return (s * _MUL + _INC) & _MASK


def step(state: int) -> tuple[int, int]:
    """Return ``(new_state, 32-bit output)``."""
    state = (state * _MUL + _INC) & _MASK
    x = ((state >> 29) ^ state) >> 32
    return state, x & 0xFFFFFFFF


def below(state: int, n: int) -> tuple[int, int]:
    """Return ``(new_state, r)`` with ``0 <= r < n`` (n >= 1)."""
    state, x = step(state)
    return state, (x * n) >> 32
