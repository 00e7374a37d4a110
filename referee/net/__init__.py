"""Network play: an authoritative game server with seats and hidden information.

``referee serve --http --projects DIR`` (see :mod:`referee.net.cli`) serves games
over HTTP and WebSockets (Starlette + uvicorn, the ``server`` extra), stores them
in SQLite (:mod:`referee.net.store`) and serves a browser table at ``/``.

- :mod:`.tables` — the games (seats, views, moves, pushes) and the projects;
- :mod:`.app` — the ASGI app: endpoints, JSON safety, the WebSocket;
- :mod:`.store` — games and move logs in SQLite, each move committed before answered;
- :mod:`.limits` — the limits and the per-token rate limiter;
- :mod:`.host` — :class:`HostedServer`, to run it in a background thread (the editor).

Nothing here is imported by ``referee`` itself: the headless referee does not need
the server stack.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .limits import Limits

if TYPE_CHECKING:
    from .host import HostedServer

__all__ = ["HostedServer", "Limits"]


def __getattr__(name: str) -> Any:
    if name == "HostedServer":
        from .host import HostedServer

        return HostedServer
    raise AttributeError(name)
