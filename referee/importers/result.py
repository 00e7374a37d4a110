"""What an import gives back: the board, what the format could not carry, and refusals.

An import either succeeds, with an :class:`ImportResult` whose :attr:`~ImportResult.lost`
lists — one line per kind — what the file held that the board does not keep (an
ellipse drawn as a polygon, the pieces a Tiled map has no place for), or fails with
one :class:`ImportRefused` that names every problem, one line each (a missing
tileset, an isometric map, a self-intersecting polygon). Nothing is written on a
refusal; the caller saves the board only on success.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..errors import BoardwrightError
from ..model import Board

#: most problems listed by one refusal (the rest are counted)
MAX_PROBLEMS = 20


class ImportRefused(BoardwrightError):
    """A file that cannot be imported; ``problems`` holds one line per problem.

    ``str()`` of the error is the first problem (and how many more there are); the
    CLI prints every line of :attr:`problems`.
    """

    code = "bad_import"

    def __init__(
        self,
        message: str,
        *,
        code: str | None = None,
        location: str | None = None,
        problems: list[str] | None = None,
    ) -> None:
        lines = list(problems or [f"{location}: {message}" if location else message])
        more = f" (and {len(lines) - 1} more)" if len(lines) > 1 else ""
        super().__init__(message + more, code=code, location=location, details={"problems": lines})
        self.problems = lines


class Problems:
    """Collects the problems of one import and refuses them all at once."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.lines: list[str] = []
        self.more = 0

    def add(self, where: str, message: str) -> None:
        """One problem at ``where`` (a place inside the file: ``layer 'x' object 3``)."""
        if len(self.lines) >= MAX_PROBLEMS:
            self.more += 1
            return
        self.lines.append(
            f"{self.source}: {where}: {message}" if where else f"{self.source}: {message}"
        )

    def __bool__(self) -> bool:
        return bool(self.lines)

    def check(self, code: str = "bad_import") -> None:
        """Raise :class:`ImportRefused` if any problem was added."""
        if not self.lines:
            return
        lines = list(self.lines)
        if self.more:
            lines.append(f"{self.source}: … and {self.more} more problems")
        first = lines[0].removeprefix(f"{self.source}: ")
        raise ImportRefused(first, code=code, location=self.source, problems=lines)


class Losses:
    """What the file held that the board does not keep, counted by kind.

    ``add("ellipse", "ellipse objects: drawn as 32-sided polygons")`` twice gives
    the one line ``2 ellipse objects: drawn as 32-sided polygons``.
    """

    def __init__(self) -> None:
        self._text: dict[str, str] = {}
        self._count: dict[str, int] = {}

    def add(self, key: str, text: str, n: int = 1) -> None:
        if n <= 0:
            return
        self._text.setdefault(key, text)
        self._count[key] = self._count.get(key, 0) + n

    def lines(self) -> list[str]:
        """One line per kind, in the order first seen."""
        return [f"{self._count[k]} {t}" for k, t in self._text.items()]


@dataclass
class ImportResult:
    """A board read from another tool's file.

    Attributes
    ----------
    board : Board
        The board (validated like a loaded project; not yet saved).
    format : str
        The importer's name (``tmj``, ``geojson`` …).
    source : str
        The file read.
    lost : list of str
        One line per kind of thing the board does not keep.
    """

    board: Board
    format: str
    source: str
    lost: list[str] = field(default_factory=list)
