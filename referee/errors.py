"""Errors raised by :mod:`referee`.

Every error the package raises on bad input derives from :class:`BoardwrightError`,
carries a machine-readable ``code`` and, where it has one, a ``location`` (a file
and a place inside it, or a node id and coordinates). The CLI turns them into one
line and exit status 1; it never shows a traceback for bad input.

Following python-chess, the errors that reject a value a caller passed in
(an illegal move, a bad argument) also subclass :class:`ValueError`.
"""

from __future__ import annotations

from typing import Any


class BoardwrightError(Exception):
    """Base class of every error :mod:`referee` raises on bad input."""

    code = "error"

    def __init__(
        self,
        message: str,
        *,
        code: str | None = None,
        location: str | None = None,
        details: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code
        self.location = location
        self.details = dict(details or {})

    def __str__(self) -> str:
        return f"{self.location}: {self.message}" if self.location else self.message

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.location:
            out["location"] = self.location
        if self.details:
            out["details"] = self.details
        return out


class ProjectFileError(BoardwrightError):
    """A project or asset file cannot be read: missing, corrupt, not ours, malformed."""

    code = "bad_file"


class FormatVersionError(ProjectFileError):
    """A file written by a newer (or unknown) format version."""

    code = "unknown_format_version"


class BoardError(BoardwrightError, ValueError):
    """The content of a board is invalid: bad geometry, duplicate id, unknown asset."""

    code = "bad_board"


class GeometryError(BoardError):
    """A geometry is not usable: NaN or infinite coordinates, self-intersection, wrong type."""

    code = "bad_geometry"


class AssetError(BoardError):
    """An asset (tile, piece, deck) is unknown or malformed."""

    code = "bad_asset"


class UnknownNodeError(BoardwrightError, KeyError):
    """A node, space or tile id that the board does not have."""

    code = "unknown_node"

    def __str__(self) -> str:  # KeyError would quote the message
        return BoardwrightError.__str__(self)


class StateError(BoardwrightError, ValueError):
    """A game state that cannot be used: malformed, or made for another board."""

    code = "bad_state"


class IllegalMoveError(BoardwrightError, ValueError):
    """A move that the rules do not allow in the given state.

    ``code`` says why in a word (``blocked_by_black_figure``, ``needs_boat`` ...),
    ``details`` gives the places involved. The state it was tried on is unchanged.
    """

    code = "illegal_move"


class UsageError(BoardwrightError, ValueError):
    """A bad command-line argument or API call (exit status 2 in the CLI)."""

    code = "usage"


class ImageError(BoardwrightError, ValueError):
    """An image that cannot be used: corrupt, truncated, unsupported, too large, unsafe SVG,
    or referenced but missing from the project."""

    code = "bad_image"


class RequestError(UsageError):
    """A request a session refuses. ``status`` is the HTTP status that says it (the
    stdio protocol answers the code alone)."""

    code = "bad_request"

    def __init__(
        self,
        message: str,
        *,
        status: int = 400,
        code: str | None = None,
        details: dict[str, Any] | None = None,
        headers: dict[str, str] | None = None,
    ) -> None:
        super().__init__(message, code=code, details=details)
        self.status = status
        self.headers = dict(headers or {})
