"""The server's limits and the per-token move rate limiter.

Each limit is a ``referee serve --http`` flag (see :mod:`referee.net.cli`); when one
is hit the server answers a JSON error naming it (codes ``request_too_large``,
``too_many_games``, ``too_many_games_for_client``, ``rate_limited``, ``too_deep``,
``request_timeout``), closes the WebSocket with a reason (``message too large``,
``idle``, ``expired``) or closes a connection that is too slow to send its request.
"""

from __future__ import annotations

import time
from dataclasses import dataclass


@dataclass(frozen=True)
class Limits:
    """Limits of one server.

    Attributes
    ----------
    max_body : int
        Largest request body in bytes.
    max_games : int
        Most live games a server holds (expired games do not count).
    moves_per_second : float
        Moves one seat token may send per second (a burst of ``max(1, rate)``).
    ws_max_message : int
        Largest WebSocket message a client may send, in bytes.
    idle_timeout : float
        Seconds without a move after which a game expires.
    finished_ttl : float
        Seconds a finished game stays live (its seats may still read it) before it
        expires.
    ws_idle_timeout : float
        Seconds a WebSocket may stay without traffic either way before it is closed.
    games_per_client : int
        Live games one client address may hold when creation is open to anyone.
    request_timeout : float
        Seconds a connection has to send a request's headers, and a request's body,
        before it is closed (slow or idle sockets).
    max_depth : int
        Deepest nesting of arrays and objects accepted in a request body.
    """

    max_body: int = 256 * 1024
    max_games: int = 1000
    moves_per_second: float = 10.0
    ws_max_message: int = 16 * 1024
    idle_timeout: float = 3600.0
    finished_ttl: float = 600.0
    ws_idle_timeout: float = 300.0
    games_per_client: int = 4
    request_timeout: float = 10.0
    max_depth: int = 32


class RateLimiter:
    """A token bucket per key (a seat token): ``rate`` per second, bursts of ``burst``.

    Notes
    -----
    O(1) per call; one float pair per key that ever called.
    """

    def __init__(self, rate: float, burst: float | None = None) -> None:
        self.rate = float(rate)
        self.burst = float(burst if burst is not None else max(1.0, rate))
        self._buckets: dict[str, tuple[float, float]] = {}

    def take(self, key: str, now: float | None = None) -> float:
        """Take one unit for ``key``: 0.0 when allowed, else seconds to wait."""
        t = time.monotonic() if now is None else now
        level, last = self._buckets.get(key, (self.burst, t))
        level = min(self.burst, level + (t - last) * self.rate)
        if level >= 1.0:
            self._buckets[key] = (level - 1.0, t)
            return 0.0
        self._buckets[key] = (level, t)
        return (1.0 - level) / self.rate if self.rate > 0 else float("inf")
