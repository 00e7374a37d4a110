"""Region-map relations: ``touch`` (flagged ``river``/``bridge``), ``road``, ``dot``, ``dot_river``.

Adjacency of spaces comes from **shared-edge hashing**: every ring segment of every
space polygon is keyed by its two endpoints (rounded to a micrometre, in sorted
order); a key owned by two spaces is a shared border. One ``np.unique`` over all
segments does it, O(S log S) for S segments — no all-pairs ``touches``. In a clean
map every ring segment is then shared by exactly two spaces except on the outline;
one vectorized ``STRtree.query(..., predicate="dwithin")`` around the *unmatched*
segments (and checks on segments shared by three or more) finds the borders whose
vertices do not match (T-junctions) and the overlaps. Each of those tests involves
only the two spaces concerned, so a pair's answer never depends on the rest of the
map — which is what lets :meth:`RegionState.update` recompile a neighbourhood.
(We first gated these checks with ``shapely.coverage_invalid_edges``; whether it
flags a space depends on all of that space's edges, so a T-junction border could
appear or vanish when an unrelated edge of the same space changed.)

One module per stage: :mod:`.adjacency` (shared-edge hashing, borders, overlaps),
:mod:`.rivers` (rivers along borders, bridges on them), :mod:`.spaces` (the input and
the spatial index of the spaces), :mod:`.features` (river dots and roads) and
:mod:`.state` (:class:`~.state.RegionState`, its incremental update, and
:func:`~.state.compile_regions`).
"""
