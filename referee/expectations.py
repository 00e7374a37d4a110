"""Declarative board expectations (``boardwright.toml``) and the checks behind them.

A repository keeps, next to its board, a ``boardwright.toml`` saying what must stay
true of the board; ``referee check`` reads it (``--expect FILE``, or the file found
next to the project) and reports every broken expectation as an error::

    [expect]
    nodes = ["t0/s", "t3/g"]          # nodes that must exist
    max_components = 1                # at most this many connected components ...
    components_via = "path"           # ... counting only this relation (default: all)

    [[expect.reachable]]              # every `to` reachable from some `from`
    from = "@start=white"
    to = ["t3/g"]
    via = "path"                      # relation to move along (default: any relation)

    [[expect.adjacent]]               # two nodes joined directly
    a = "shire"
    b = "bree"
    via = "touch"

    [[expect.connected_for_all_turns]]  # reachable under every turn of these tiles
    tiles = ["t1", "t2"]              # or "turnable"
    from = "@start=white"
    to = "@goal"
    via = "path"

An optional ``[board]`` table with ``project = "file.json"`` ties the file to one
board when a folder holds several (an auto-discovered file for another board is
ignored).

Node selectors (``from``, ``to``, ``nodes``, ``a``, ``b``) are a node id, a list of
them, or ``@key=value`` / ``@key`` to select every node whose compiled attribute
``key`` equals ``value`` (or is true): ``@start=white``, ``@goal``, ``@kind=space``,
``@role=shire``.

The same checks back the pytest plugin's assertion helpers, so a failing
expectation reads the same in ``referee check`` and in pytest: which node, what the
nearest reachable node is and where, which turn configuration fails.

Turn analysis: along ``path`` (the default), ``connected_for_all_turns`` asks the
exact rotation census :func:`referee.rotations.census` (frontier DP over the
tiles, symmetric turns counted once; all 18 turnable tiles of the default board in
well under a second) and reports how many distinct configurations fail with one of
them. For other relations, or when the census cannot answer (from/to nodes that are
spaces), it enumerates every combination with :meth:`CompiledBoard.turn`
(incremental re-link, odometer order) and a union-find over the relation — about
3 ms a configuration on the default board — and refuses more than
:data:`MAX_CONFIGURATIONS` combinations with a clear error.
"""

from __future__ import annotations

import difflib
import itertools
import math
import tomllib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import networkx as nx

from .compiler import CompiledBoard, Problem
from .errors import BoardwrightError, ProjectFileError, UnknownNodeError

#: Largest number of turn combinations ``connected_for_all_turns`` enumerates (4^8).
MAX_CONFIGURATIONS = 4**8
RELATIONS = ("path", "touch", "road", "dot", "dot_river", "next", "arrival")
EXPECT_FILE = "boardwright.toml"


class ExpectationError(BoardwrightError):
    """An expectations file or an expectation that cannot be read or evaluated."""

    code = "bad_expectation"


# ---------------------------------------------------------------------- selectors
def select(compiled: CompiledBoard, spec: str | Sequence[str], what: str = "node") -> list[str]:
    """Node ids named by ``spec`` (ids, ``@key=value``, ``@key``); unknown ids raise."""
    items = [spec] if isinstance(spec, str) else list(spec)
    g = compiled.graph
    out: list[str] = []
    for item in items:
        if not isinstance(item, str) or not item:
            raise ExpectationError(f"{what} selector {item!r} must be a node id or @key=value")
        if item.startswith("@"):
            key, eq, val = item[1:].partition("=")
            found = [n for n, d in g.nodes(data=True) if _matches(d.get(key), eq, val)]
            if not found:
                raise ExpectationError(f"{what} selector {item!r} matches no node")
            out.extend(n for n in sorted(found) if n not in out)
        else:
            if item not in g:
                raise unknown_node(compiled, item, what)
            if item not in out:
                out.append(item)
    return out


def _matches(value: Any, eq: str, want: str) -> bool:
    if not eq:
        return value is True
    if isinstance(value, bool):
        return want.lower() == str(value).lower()
    return value is not None and str(value) == want


def unknown_node(compiled: CompiledBoard, nid: str, what: str = "node") -> UnknownNodeError:
    """An error for a missing node, suggesting the closest ids."""
    close = difflib.get_close_matches(nid, [str(n) for n in compiled.graph.nodes], n=3)
    hint = f" (did you mean {', '.join(close)}?)" if close else ""
    if nid in compiled.features:
        hint = f" (it is a {compiled.features[nid][1].kind}, which is not a graph node)"
    return UnknownNodeError(f"{what} {nid!r} is not a node of the board{hint}", location=nid)


def _relation(via: str | None) -> str | None:
    if via in (None, "", "any", "all"):
        return None
    if via not in RELATIONS:
        raise ExpectationError(f"unknown relation {via!r} (one of {', '.join(RELATIONS)} or any)")
    return via


def _graph(compiled: CompiledBoard, via: str | None) -> nx.Graph:
    g = compiled.graph
    h = nx.Graph()
    h.add_nodes_from(g.nodes)
    h.add_edges_from(
        (u, v) for u, v, d in g.edges(data=True) if via is None or d["relation"] == via
    )
    return h


def _xy(compiled: CompiledBoard, n: str) -> tuple[float, float]:
    d = compiled.graph.nodes[n]
    return float(d["x"]), float(d["y"])


def _label(compiled: CompiledBoard, n: str) -> str:
    d = compiled.graph.nodes[n]
    return f"{d['kind']} {n} at ({d['x']:g}, {d['y']:g})"


# ---------------------------------------------------------------------- checks
@dataclass
class Failure:
    """A broken expectation: a message and the node it is about."""

    code: str
    message: str
    node: str | None = None
    details: dict[str, Any] = field(default_factory=dict)

    def to_problem(self, compiled: CompiledBoard, where: str = "") -> Problem:
        xy = _xy(compiled, self.node) if self.node and self.node in compiled.graph else None
        msg = f"{where}{self.message}"
        return Problem.make(self.code, msg, self.node, xy, severity="error")


def why_unreachable(
    compiled: CompiledBoard,
    sources: list[str],
    target: str,
    via: str | None,
    h: nx.Graph | None = None,
) -> str:
    """A readable explanation of why ``target`` is not reached from ``sources``."""
    h = h if h is not None else _graph(compiled, via)
    reach: set[str] = set()
    for s in sources:
        if s not in reach:
            reach |= nx.node_connected_component(h, s)
    tx, ty = _xy(compiled, target)
    along = f"along {via}" if via else "along any relation"
    src = ", ".join(sources[:4]) + (f" and {len(sources) - 4} more" if len(sources) > 4 else "")
    nearest = min(reach, key=lambda n: (math.dist(_xy(compiled, n), (tx, ty)), n))
    dist = math.dist(_xy(compiled, nearest), (tx, ty))
    ends = sorted(n for n in reach if compiled.graph.nodes[n]["kind"] == "dead_end")
    msg = (
        f"{_label(compiled, target)} is not reachable from {src} {along}: they reach "
        f"{len(reach)} node(s); the nearest to it is {_label(compiled, nearest)}, "
        f"{dist:.0f} mm away"
    )
    if ends:
        msg += f"; their paths end at dead end(s) {', '.join(ends[:5])}"
    return msg


def check_reachable(
    compiled: CompiledBoard,
    sources: str | Sequence[str],
    targets: str | Sequence[str],
    via: str | None = None,
) -> list[Failure]:
    """Every target must be reachable from at least one source along ``via``."""
    rel = _relation(via)
    src = select(compiled, sources, "from")
    tgt = select(compiled, targets, "to")
    h = _graph(compiled, rel)
    reach: set[str] = set()
    for s in src:
        if s not in reach:
            reach |= nx.node_connected_component(h, s)
    return [
        Failure(
            "expect_reachable",
            why_unreachable(compiled, src, t, rel, h),
            t,
            {"from": src, "to": t, "via": rel},
        )
        for t in tgt
        if t not in reach
    ]


def check_adjacent(
    compiled: CompiledBoard, a: str, b: str, via: str | None = None
) -> list[Failure]:
    """``a`` and ``b`` must be joined by an edge (of relation ``via``)."""
    rel = _relation(via)
    (na,), (nb,) = select(compiled, [a], "a"), select(compiled, [b], "b")
    g = compiled.graph
    rels = sorted({d["relation"] for d in g.get_edge_data(na, nb, default={}).values()})
    if (rel is None and rels) or rel in rels:
        return []
    nbrs = sorted({v for _, v, d in g.edges(na, data=True) if rel is None or d["relation"] == rel})
    what = f"a {rel} edge" if rel else "an edge"
    msg = (
        f"{_label(compiled, na)} and {_label(compiled, nb)} are not joined by {what}"
        + (f" (they are joined by {', '.join(rels)})" if rels else "")
        + f"; {na}'s {rel + ' ' if rel else ''}neighbours: {', '.join(nbrs) or 'none'}"
    )
    return [Failure("expect_adjacent", msg, na, {"a": na, "b": nb, "via": rel})]


def check_nodes_exist(compiled: CompiledBoard, nodes: Iterable[str]) -> list[Failure]:
    out = []
    for n in nodes:
        if n not in compiled.graph:
            out.append(
                Failure(
                    "expect_node",
                    str(unknown_node(compiled, n, "expected node").message),
                    None,
                    {"node": n},
                )
            )
    return out


def check_max_components(
    compiled: CompiledBoard, limit: int, via: str | None = None
) -> list[Failure]:
    rel = _relation(via)
    comps = sorted(nx.connected_components(_graph(compiled, rel)), key=lambda c: (-len(c), min(c)))
    if len(comps) <= limit:
        return []
    small = [min(c) for c in comps[limit : limit + 5]]
    msg = (
        f"board has {len(comps)} connected components{' along ' + rel if rel else ''}, "
        f"at most {limit} expected; the largest has {len(comps[0])} node(s), the ones beyond "
        f"the limit start at {', '.join(small)}"
    )
    return [
        Failure(
            "expect_components",
            msg,
            small[0] if small else None,
            {"components": len(comps), "max": limit},
        )
    ]


def _tile_ids(compiled: CompiledBoard, tiles: str | Sequence[str]) -> list[str]:
    board = compiled.board
    if tiles == "turnable":
        return [p.id for p in board.placements if board.tile_of(p).turnable]
    ids = [tiles] if isinstance(tiles, str) else list(tiles)
    known = {p.id for p in board.placements}
    for t in ids:
        if t not in known:
            close = difflib.get_close_matches(t, sorted(known), n=3)
            hint = f" (did you mean {', '.join(close)}?)" if close else ""
            raise UnknownNodeError(f"no tile placed as {t!r}{hint}", location=t)
    return ids


def check_connected_for_all_turns(
    compiled: CompiledBoard,
    tiles: str | Sequence[str],
    sources: str | Sequence[str] = "@start=white",
    targets: str | Sequence[str] = "@goal",
    via: str | None = "path",
    *,
    max_configurations: int = MAX_CONFIGURATIONS,
    stop_at_first: bool = True,
    method: str = "auto",
) -> list[Failure]:
    """Every target reachable from some source under every turn of ``tiles``.

    The board's own turns are restored afterwards. Returns failures naming the
    turns of a failing configuration.

    ``method``: ``"exact"`` asks :func:`referee.rotations.census` (frontier DP, no
    enumeration, no size limit; ``path`` relation only, every path counts — no
    galleries, spider path open) and returns at most one failure, which says how
    many of the distinct configurations fail; ``"brute"`` enumerates; ``"auto"``
    (default) uses the census for ``via="path"`` when it can, else brute force.

    Notes
    -----
    Brute force: ``prod(turn_count)`` configurations in odometer order; each step
    re-links the turned tiles incrementally and runs a union-find over the
    relation's edges, O(E α(V)) — about 3 ms per configuration on the default
    Ringgeister board, hence the :data:`MAX_CONFIGURATIONS` cap. One failure per
    failing configuration (only the first with ``stop_at_first``).
    """
    rel = _relation(via)
    ids = _tile_ids(compiled, tiles)
    board = compiled.board
    counts = [board.tile_of(board.placement(t)).turn_count for t in ids]
    total = math.prod(counts)
    if method not in ("auto", "exact", "brute"):
        raise ExpectationError(f"unknown method {method!r} (auto, exact or brute)")
    if method != "brute" and rel == "path":
        exact = _census_failures(compiled, ids, sources, targets)
        if exact is not None:
            return exact
        if method == "exact":
            raise ExpectationError(
                "the exact rotation census (referee.rotations) cannot "
                "answer this (it needs points, junctions or doors as "
                "from/to nodes)"
            )
    if total > max_configurations:
        raise ExpectationError(
            f"{len(ids)} tiles give {total} turn configurations, more than the "
            f"{max_configurations} this check enumerates; name fewer tiles, or use "
            f"`referee turns` for the exact census"
        )
    src = select(compiled, sources, "from")
    tgt = select(compiled, targets, "to")
    original = {t: board.placement(t).turns for t in ids}
    current = dict(original)
    failures: list[Failure] = []
    try:
        for combo in itertools.product(*[range(c) for c in counts]):
            for t, turns in zip(ids, combo):
                if current[t] != turns:
                    compiled.turn(t, turns)
                    current[t] = turns
            missing = _unreached(compiled, src, tgt, rel)
            if missing:
                conf = " ".join(f"{t}={n}" for t, n in zip(ids, combo))
                msg = (
                    f"with turns {conf}: "
                    + why_unreachable(compiled, src, missing[0], rel)
                    + (f" (and {len(missing) - 1} more target(s))" if len(missing) > 1 else "")
                )
                failures.append(
                    Failure(
                        "expect_turns",
                        msg,
                        missing[0],
                        {"turns": dict(zip(ids, combo)), "unreached": missing},
                    )
                )
                if stop_at_first:
                    break
    finally:
        for t, turns in original.items():
            if current[t] != turns:
                compiled.turn(t, turns)
    return failures


def _census_failures(
    compiled: CompiledBoard,
    ids: list[str],
    sources: str | Sequence[str],
    targets: str | Sequence[str],
) -> list[Failure] | None:
    """The answer of the exact rotation census, or None when it cannot give one."""
    try:
        from .rotations import census
    except ImportError:
        return None
    src = select(compiled, sources, "from")
    tgt = select(compiled, targets, "to")
    stop = ("point", "junction", "door")
    if any(compiled.graph.nodes[n]["kind"] not in stop for n in src + tgt) or not ids:
        return None
    try:
        res = census(compiled, sources=src, targets=tgt, tiles=ids, critical=False, fewest=False)
    except BoardwrightError:
        return None
    if res.partial or res.success is None:
        return None
    if res.success == res.total:
        return []
    w = res.unreachable
    if w is None:
        return None
    board = compiled.board
    original = {t: board.placement(t).turns for t in w.turns}
    try:
        for t, n in w.turns.items():
            compiled.turn(t, n)
        missing = _unreached(compiled, src, tgt, "path")
        why = why_unreachable(compiled, src, missing[0], "path") if missing else "?"
    finally:
        for t, n in original.items():
            compiled.turn(t, n)
    conf = " ".join(f"{t}={w.turns[t]}" for t in ids if t in w.turns)
    bad = res.total - res.success
    msg = (
        f"{bad} of {res.total} distinct turn configurations of {', '.join(ids)} "
        f"disconnect it; e.g. with turns {conf}: {why}"
    )
    return [
        Failure(
            "expect_turns",
            msg,
            missing[0] if missing else None,
            {"turns": dict(w.turns), "failing": bad, "total": res.total, "method": "exact"},
        )
    ]


def _unreached(
    compiled: CompiledBoard, src: list[str], tgt: list[str], rel: str | None
) -> list[str]:
    parent: dict[str, str] = {}

    def find(a: str) -> str:
        root = a
        while parent.get(root, root) != root:
            root = parent[root]
        while parent.get(a, a) != root:
            parent[a], a = root, parent[a]
        return root

    for u, v, d in compiled.graph.edges(data=True):
        if rel is None or d["relation"] == rel:
            ru, rv = find(u), find(v)
            if ru != rv:
                parent[ru] = rv
    roots = {find(s) for s in src if s in compiled.graph}
    return [t for t in tgt if t not in compiled.graph or find(t) not in roots]


# ---------------------------------------------------------------------- files
@dataclass
class Expectations:
    """The parsed ``[expect]`` table of a ``boardwright.toml``."""

    path: str
    nodes: list[str] = field(default_factory=list)
    max_components: int | None = None
    components_via: str | None = None
    reachable: list[dict[str, Any]] = field(default_factory=list)
    adjacent: list[dict[str, Any]] = field(default_factory=list)
    turns: list[dict[str, Any]] = field(default_factory=list)
    project: str | None = None

    lines: dict[str, int] = field(default_factory=dict)

    def entries(self, compiled: CompiledBoard) -> list[tuple[str, int | None, list[Problem]]]:
        """``(label, line in the file, problems)`` for every expectation, passing or not."""
        out: list[tuple[str, int | None, list[Problem]]] = []
        where = f"{Path(self.path).name}: "

        def run(label: str, fn: Any, *a: Any, **k: Any) -> None:
            try:
                fails = fn(*a, **k)
                probs = [f.to_problem(compiled, where + label + ": ") for f in fails]
            except (BoardwrightError, ValueError) as exc:  # a selector that names nothing
                msg = exc.message if isinstance(exc, BoardwrightError) else str(exc)
                probs = [Problem.make("expect_invalid", f"{where}{label}: {msg}", severity="error")]
            out.append((label, self.lines.get(label), probs))

        if self.nodes:
            run("nodes", check_nodes_exist, compiled, self.nodes)
        if self.max_components is not None:
            run(
                "max_components",
                check_max_components,
                compiled,
                self.max_components,
                self.components_via,
            )
        for i, r in enumerate(self.reachable):
            run(f"reachable[{i}]", check_reachable, compiled, r["from"], r["to"], r.get("via"))
        for i, r in enumerate(self.adjacent):
            run(f"adjacent[{i}]", check_adjacent, compiled, r["a"], r["b"], r.get("via"))
        for i, r in enumerate(self.turns):
            run(
                f"connected_for_all_turns[{i}]",
                check_connected_for_all_turns,
                compiled,
                r["tiles"],
                r.get("from", "@start=white"),
                r.get("to", "@goal"),
                r.get("via", "path"),
            )
        return out

    def check(self, compiled: CompiledBoard) -> list[Problem]:
        """Every broken expectation as an error :class:`Problem` (message says which)."""
        return [p for _, _, probs in self.entries(compiled) for p in probs]


def _entry_lines(text: str) -> dict[str, int]:
    """Line numbers of the expectations in a TOML text, by label (``reachable[0]``)."""
    out: dict[str, int] = {}
    seen: dict[str, int] = {}
    for i, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if line.startswith("[[expect.") and line.endswith("]]"):
            key = line[len("[[expect.") : -2].strip()
            n = seen.get(key, 0)
            seen[key] = n + 1
            out[f"{key}[{n}]"] = i
        else:
            for key in ("nodes", "max_components"):
                if line.startswith(key) and line[len(key) :].lstrip().startswith("="):
                    out.setdefault(key, i)
    return out


def _need(
    d: dict[str, Any], key: str, types: type | tuple[type, ...], where: str, required: bool = True
) -> Any:
    if key not in d:
        if required:
            raise ExpectationError(f"missing {key!r}", location=where)
        return None
    v = d[key]
    if not isinstance(v, types) or (isinstance(v, bool) and types is int):
        raise ExpectationError(f"{key!r} has the wrong type ({type(v).__name__})", location=where)
    return v


_SEL = (str, list)


def load_expectations(path: str | Path) -> Expectations:
    """Read and validate a ``boardwright.toml``; errors name the file and the entry."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
        data = tomllib.loads(text)
    except FileNotFoundError:
        raise ProjectFileError(
            "no such expectations file", code="not_found", location=str(p)
        ) from None
    except tomllib.TOMLDecodeError as exc:
        raise ExpectationError(f"not valid TOML: {exc}", location=str(p)) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ExpectationError(f"cannot read: {exc}", location=str(p)) from None
    exp = data.get("expect", {})
    if not isinstance(exp, dict):
        raise ExpectationError("[expect] must be a table", location=str(p))
    known = {
        "nodes",
        "max_components",
        "components_via",
        "reachable",
        "adjacent",
        "connected_for_all_turns",
    }
    extra = set(exp) - known
    if extra:
        raise ExpectationError(
            f"unknown key(s) {', '.join(sorted(extra))} in [expect] "
            f"(known: {', '.join(sorted(known))})",
            location=str(p),
        )
    out = Expectations(str(p), lines=_entry_lines(text))
    board = data.get("board", {})
    if isinstance(board, dict) and isinstance(board.get("project"), str):
        out.project = board["project"]
    nodes = _need(exp, "nodes", list, f"{p} [expect]", required=False) or []
    if not all(isinstance(n, str) for n in nodes):
        raise ExpectationError("nodes must be a list of node ids", location=f"{p} [expect]")
    out.nodes = nodes
    mc = _need(exp, "max_components", int, f"{p} [expect]", required=False)
    if mc is not None and mc < 1:
        raise ExpectationError("max_components must be at least 1", location=f"{p} [expect]")
    out.max_components = mc
    out.components_via = _need(exp, "components_via", str, f"{p} [expect]", required=False)
    for key, fields, target in (
        ("reachable", (("from", _SEL), ("to", _SEL)), out.reachable),
        ("adjacent", (("a", str), ("b", str)), out.adjacent),
        ("connected_for_all_turns", (("tiles", _SEL),), out.turns),
    ):
        entries = exp.get(key, [])
        if not isinstance(entries, list):
            raise ExpectationError(
                f"{key} must be an array of tables ([[expect.{key}]])", location=str(p)
            )
        for i, e in enumerate(entries):
            where = f"{p} [[expect.{key}]] #{i + 1}"
            if not isinstance(e, dict):
                raise ExpectationError("must be a table", location=where)
            for name, types in fields:
                _need(e, name, types, where)
            for opt in ("via", "from", "to"):
                if opt in e and not isinstance(e[opt], _SEL if opt != "via" else str):
                    raise ExpectationError(f"{opt!r} has the wrong type", location=where)
            if "via" in e:
                try:
                    _relation(e["via"])
                except ExpectationError as exc:
                    raise ExpectationError(exc.message, location=where) from None
            target.append(dict(e))
    return out


def find_expectations(project: str | Path) -> Path | None:
    """The ``boardwright.toml`` next to a project (in its folder, or the folder itself)."""
    p = Path(project)
    folder = p if p.is_dir() else p.parent
    cand = folder / EXPECT_FILE
    return cand if cand.is_file() else None


def check_expectations(compiled: CompiledBoard, path: str | Path) -> list[Problem]:
    """Load ``path`` and check it against ``compiled``."""
    return load_expectations(path).check(compiled)


__all__ = [
    "EXPECT_FILE",
    "MAX_CONFIGURATIONS",
    "ExpectationError",
    "Expectations",
    "Failure",
    "check_adjacent",
    "check_connected_for_all_turns",
    "check_expectations",
    "check_max_components",
    "check_nodes_exist",
    "check_reachable",
    "find_expectations",
    "load_expectations",
    "select",
    "why_unreachable",
]


# ---------------------------------------------------------------------- check output formats
CHECK_FORMATS = ("text", "json", "junit", "github")


@dataclass
class CheckRun:
    """Everything ``referee check`` found: compile problems and expectation results."""

    project: str
    project_file: str
    problems: list[Problem]
    expect_file: str | None = None
    entries: list[tuple[str, int | None, list[Problem]]] = field(default_factory=list)
    strict: bool = False

    @property
    def expectation_problems(self) -> list[Problem]:
        return [p for _, _, probs in self.entries for p in probs]

    def all_problems(self) -> list[Problem]:
        return self.problems + self.expectation_problems

    @property
    def failing(self) -> list[Problem]:
        return [p for p in self.all_problems() if p.severity == "error" or self.strict]

    @property
    def ok(self) -> bool:
        return not self.failing


def _project_file(project: str) -> str:
    p = Path(project)
    if p.is_dir():
        cands = sorted(p.glob("*.bwproj")) or sorted(p.glob("*.json"))
        if cands:
            return str(cands[0])
    return str(p)


def _json_lines(path: str) -> dict[str, int]:
    """Line of each placement / free feature id in a JSON export (none for SQLite)."""
    try:
        with open(path, encoding="utf-8") as fh:
            text = fh.read(50_000_000)
    except (OSError, UnicodeDecodeError):
        return {}
    if not text.lstrip().startswith("{"):
        return {}
    out: dict[str, int] = {}
    section = None
    for i, line in enumerate(text.splitlines(), start=1):
        st = line.strip()
        if line.startswith(' "') and not line.startswith("  "):
            section = st.split('"')[1] if '"' in st else None
        if section in ("placements", "features") and st.startswith('"id": "'):
            fid = st[len('"id": "') :].split('"', 1)[0]
            out.setdefault(fid, i)
    return out


def problem_line(lines: dict[str, int], node: str | None) -> int | None:
    if not node:
        return None
    return lines.get(node) or lines.get(node.split("/", 1)[0])


def _gh_escape(s: str, prop: bool = False) -> str:
    s = s.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    if prop:
        s = s.replace(":", "%3A").replace(",", "%2C")
    return s


def format_check(run: CheckRun, fmt: str) -> str:
    """The check's output in ``fmt`` (text | json | junit | github), ending with a newline."""
    if fmt == "json":
        import json

        data = {
            "project": run.project,
            "ok": run.ok,
            "problems": [p.to_json() for p in run.all_problems()],
            "expectations": None
            if run.expect_file is None
            else {
                "file": run.expect_file,
                "entries": [
                    {
                        "expectation": label,
                        "line": line,
                        "ok": not probs,
                        "problems": [p.to_json() for p in probs],
                    }
                    for label, line, probs in run.entries
                ],
            },
        }
        return json.dumps(data, ensure_ascii=False, indent=1, allow_nan=False) + "\n"
    if fmt == "text":
        return "".join(f"{run.project}: {p}\n" for p in run.all_problems())
    if fmt == "github":
        lines = _json_lines(run.project_file)
        out = []
        for p in run.problems:
            level = "error" if p.severity == "error" or run.strict else "warning"
            props = [f"file={_gh_escape(run.project_file, True)}"]
            ln = problem_line(lines, p.node)
            if ln:
                props.append(f"line={ln}")
            props.append(f"title={_gh_escape(p.code, True)}")
            out.append(f"::{level} {','.join(props)}::{_gh_escape(f'{p.location}: {p.message}')}")
        for _label, ln, probs in run.entries:
            for p in probs:
                props = [f"file={_gh_escape(str(run.expect_file), True)}"]
                if ln:
                    props.append(f"line={ln}")
                props.append(f"title={_gh_escape(p.code, True)}")
                out.append(f"::error {','.join(props)}::{_gh_escape(p.message)}")
        return "".join(line + "\n" for line in out)
    if fmt == "junit":
        return _junit(run)
    raise ExpectationError(f"unknown check format {fmt!r} (one of {', '.join(CHECK_FORMATS)})")


def _junit(run: CheckRun) -> str:
    import xml.etree.ElementTree as ET

    cases: list[tuple[str, str, list[Problem], list[Problem]]] = []
    errs = [p for p in run.problems if p.severity == "error" or run.strict]
    warns = [p for p in run.problems if p not in errs]
    cases.append(("board compiles without errors", run.project_file, errs, warns))
    for label, _ln, probs in run.entries:
        cases.append((f"expect {label}", str(run.expect_file), probs, []))
    suite = ET.Element(
        "testsuite",
        name="referee check",
        tests=str(len(cases)),
        failures=str(sum(1 for c in cases if c[2])),
        errors="0",
        skipped="0",
    )
    for name, cls, fails, notes in cases:
        tc = ET.SubElement(suite, "testcase", name=name, classname=f"boardwright.{cls}")
        if fails:
            f = ET.SubElement(
                tc,
                "failure",
                message=f"{len(fails)} problem(s): {fails[0].code} at {fails[0].location}",
                type=fails[0].code,
            )
            f.text = "\n".join(str(p) for p in fails)
        if notes:
            ET.SubElement(tc, "system-out").text = "\n".join(str(p) for p in notes)
    root = ET.Element(
        "testsuites",
        name="boardwright",
        tests=suite.get("tests", "0"),
        failures=suite.get("failures", "0"),
    )
    root.append(suite)
    ET.indent(root)
    return '<?xml version="1.0" encoding="utf-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


def run_check(
    project: str, *, strict: bool = False, expect: str | None = None, no_expect: bool = False
) -> CheckRun:
    """Compile ``project``, collect its problems (and its rules' board checks), then the
    expectations of ``expect`` or of the ``boardwright.toml`` found next to it."""
    from .compiler import compile_board
    from .store import load_project

    board = load_project(project)
    compiled = compile_board(board)
    problems = list(compiled.problems)
    if board.rules:
        from .checks import rules_problems

        problems.extend(rules_problems(board.rules, compiled))
    if any(True for _ in board.image_uses()):
        from .images.project import image_problems

        problems.extend(image_problems(board))
    run = CheckRun(project, _project_file(project), problems, strict=strict)
    path: Path | None = None
    if expect:
        path = Path(expect)
    elif not no_expect:
        path = find_expectations(project)
    if path is not None:
        exp = load_expectations(path)
        if not expect and exp.project and Path(exp.project).name != Path(run.project_file).name:
            return run  # found next to the project, but written for another board
        run.expect_file = str(path)
        run.entries = exp.entries(compiled)
    return run
