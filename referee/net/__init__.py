"""Network play: an authoritative game server with seats and hidden information.

``referee serve --http --projects DIR`` (see :mod:`referee.net.cli`) serves games
over HTTP and WebSockets (Starlette + uvicorn, the ``server`` extra), stores them
in SQLite (:mod:`referee.net.store`) and serves a browser table at ``/``.

- :mod:`.tables` — :class:`~.tables.Hall`, the network side of a
  :class:`referee.session.Session` (the dispatcher the stdio server uses too):
  seats, owners, expiry, the store, pushes;
- :mod:`.app` — the ASGI app: the endpoint table, JSON safety, the WebSocket;
- :mod:`.openapi` — the OpenAPI document, generated from the endpoint table;
- :mod:`.store` — games and move logs in SQLite, each move committed before answered;
- :mod:`.limits` — the limits and the per-token rate limiter;
- :mod:`.guard` — the deadline on slow request heads (slowloris);
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
