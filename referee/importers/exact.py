"""Coordinates back exactly: undoing the arithmetic an export did.

A Tiled export stores a vertex as ``(x - origin) * px_per_mm - x0``, relative to its
object's first vertex ``x0``: adding it back gives the millimetres again only to
within a unit in the last place. :func:`recover` finds, for every value, the
shortest decimal (at most :data:`MAX_DECIMALS` places) that the export's arithmetic
maps to exactly the number stored; boards drawn or generated with a few decimals
come back bit for bit. A value no such decimal reaches (a traced board's 16-digit
coordinates) keeps the plain inverse, within a unit in the last place.

Notes
-----
Vectorized: at most :data:`MAX_DECIMALS` + 1 passes over the values still unmatched.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

#: most decimal places tried
MAX_DECIMALS = 15


def recover(
    approx: np.ndarray,
    stored: np.ndarray,
    forward: Callable[[np.ndarray, np.ndarray], np.ndarray],
) -> np.ndarray:
    """For each ``approx[i]``, the shortest decimal ``c`` with ``forward(c, i) == stored[i]``.

    Parameters
    ----------
    approx : array of float
        The plain inverse of the export's arithmetic.
    stored : array of float
        The numbers the file holds.
    forward : callable
        ``forward(values, index)``: the export's arithmetic applied to ``values``,
        which stand for the elements ``index`` (an integer array) of ``approx``.

    Returns
    -------
    array of float
        ``approx`` with every value that a shorter decimal reproduces exactly replaced
        by that decimal.
    """
    out = np.array(approx, dtype=float)
    todo = np.arange(len(out))
    for places in range(MAX_DECIMALS + 1):
        if not len(todo):
            break
        cand = np.round(out[todo], places)
        hit = forward(cand, todo) == stored[todo]
        out[todo[hit]] = cand[hit]
        todo = todo[~hit]
    return out
