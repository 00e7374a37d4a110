"""The region features of a map, and the spaces with a spatial index over them."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import shapely


@dataclass
class RegionInput:
    spaces: list[tuple[str, Any, dict[str, Any]]] = field(default_factory=list)
    rivers: list[tuple[str, Any, dict[str, Any]]] = field(default_factory=list)
    dots: list[tuple[str, Any, dict[str, Any]]] = field(default_factory=list)
    bridges: list[tuple[str, Any, dict[str, Any]]] = field(default_factory=list)
    roads: list[tuple[str, Any, dict[str, Any]]] = field(default_factory=list)


@dataclass
class _Spaces:
    """Every space of the map in board order, with an STRtree over them."""

    ids: list[str]
    polys: np.ndarray
    props: list[dict[str, Any]]
    index: dict[str, int]
    tree: shapely.STRtree

    @classmethod
    def of(cls, inp: RegionInput) -> _Spaces:
        ids = [s[0] for s in inp.spaces]
        polys = np.array([s[1] for s in inp.spaces], dtype=object)
        return cls(
            ids,
            polys,
            [s[2] for s in inp.spaces],
            {sid: i for i, sid in enumerate(ids)},
            shapely.STRtree(polys),
        )


def _near(
    tree: shapely.STRtree, ids: list[str], geoms: list[Any], tol: float, predicate: str = "dwithin"
) -> list[set[str]]:
    """Per geometry, the ids of the spaces within ``tol`` of it (or intersecting it)."""
    out: list[set[str]] = [set() for _ in geoms]
    if geoms:
        arr = np.array(geoms, dtype=object)
        gi, si = (
            tree.query(arr, predicate="dwithin", distance=tol)
            if predicate == "dwithin"
            else tree.query(arr, predicate=predicate)
        )
        for g, s in zip(gi.tolist(), si.tolist()):
            out[g].add(ids[s])
    return out
