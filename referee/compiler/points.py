"""The points of a board and the steps between them: :class:`PointGraph`.

Points-and-paths games (a race along paths, a tag game on a ring of points) move
from point to point; the compiled ``path`` relation also holds junctions, doors and
tile ports between them. :func:`point_graph` resolves those: two points are
neighbours when a path leads from one to the other without passing another point.
Read it through :meth:`referee.compiler.CompiledBoard.point_graph`, which keeps it
for the board's current tile turns.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

import networkx as nx

__all__ = ["PointGraph", "point_graph"]


@dataclass(frozen=True)
class PointGraph:
    """The points of a board (node indices of the compiled board) and their neighbours.

    Attributes
    ----------
    points : tuple of int
        The node indices of every node of the kind asked for (``point``), in index order.
    neighbours : mapping of int to tuple of int
        Point -> the points one step away along the paths (through junctions, doors
        and ports, never through another point), in index order. A point whose only
        way leads back to itself is not its own neighbour.
    ids : sequence of str
        The compiled board's node ids (``ids[i]`` names index ``i``).
    """

    points: tuple[int, ...]
    neighbours: Mapping[int, tuple[int, ...]]
    ids: Sequence[str]

    def steps_from(self, source: int, most: int | None = None) -> dict[int, int]:
        """Steps from point ``source`` to every point at most ``most`` steps away
        (``None``: all reachable), breadth first.

        Notes
        -----
        O(P + S) in the points and steps reached.
        """
        out = {source: 0}
        queue = deque([source])
        while queue:
            n = queue.popleft()
            if most is not None and out[n] >= most:
                continue
            for m in self.neighbours[n]:
                if m not in out:
                    out[m] = out[n] + 1
                    queue.append(m)
        return out

    def to_networkx(self) -> nx.Graph:
        """The point graph as a :class:`networkx.Graph` over node ids."""
        g = nx.Graph()
        g.add_nodes_from(self.ids[p] for p in self.points)
        g.add_edges_from(
            (self.ids[p], self.ids[q]) for p, qs in self.neighbours.items() for q in qs if p < q
        )
        return g


def point_graph(
    ids: Sequence[str],
    point_nodes: Iterable[int],
    inc: Sequence[Sequence[tuple[int, int, float, float]]],
) -> PointGraph:
    """The :class:`PointGraph` over ``point_nodes`` (node indices) of a board whose
    ``path`` relation is ``inc`` (the rows of
    :meth:`~referee.compiler.CompiledBoard.path_view`): every other node (junction,
    door, port, ...) is passed through.

    Notes
    -----
    O(P·R) where R is the number of non-point nodes reachable from a point before
    the next points: a walk from every point.
    """
    points = sorted(point_nodes)
    is_point = set(points)
    neighbours: dict[int, tuple[int, ...]] = {}
    for p in points:
        found: set[int] = set()
        seen = {p}
        todo = [o for _, o, _, _ in inc[p]]
        while todo:  # through junctions, doors and ports to the next points
            n = todo.pop()
            if n in seen:
                continue
            seen.add(n)
            if n in is_point:
                found.add(n)
            else:
                todo.extend(o for _, o, _, _ in inc[n])
        neighbours[p] = tuple(sorted(found))
    return PointGraph(tuple(points), neighbours, ids)
