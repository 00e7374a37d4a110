"""``referee perft``: perft-style fixture files.

The numbers in ``tests/fixtures/*.perft`` are checked twice: by ``referee perft``
(the tool) and by an independent count written here — plain-Python union-find and
breadth-first search over the compiled graph's edge list, and a move-tree walk over
the rules module's ``legal_moves`` — so the fixtures are not the tool's own output
copied back into it.
"""

from __future__ import annotations

import json
from collections import deque
from pathlib import Path

import pytest

from referee.cli import main
from referee.compiler import compile_board
from referee.perft import PerftSyntaxError, check_file, parse_fixtures, parse_line
from referee.store import load_project

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests/fixtures"
#: fixture file -> the project it is written for
SUITES = {
    "road-row.perft": FIXTURES / "boards/road-row.json",
    "little-map.perft": FIXTURES / "boards/little-map.json",
    "ringgeister.perft": ROOT / "projects/ringgeister",
    "mount-doom.perft": ROOT / "projects/mount-doom",
    "riddle-sample.perft": ROOT / "projects/riddle-sample",
}
SUITES = {k: v for k, v in SUITES.items() if (FIXTURES / k).exists()}


# ---------------------------------------------------------------------- independent counts
def _edges(compiled, rel):
    return [
        (u, v) for u, v, d in compiled.graph.edges(data=True) if rel is None or d["relation"] == rel
    ]


def _adjacency(compiled, rel):
    adj = {n: [] for n in compiled.graph.nodes}
    for u, v in _edges(compiled, rel):
        adj[u].append(v)
        adj[v].append(u)
    return adj


def independent_count(compiled, measure, qualifier, args, game=None):
    g = compiled.graph
    if measure == "nodes":
        return sum(1 for n in g.nodes if qualifier is None or g.nodes[n]["kind"] == qualifier)
    if measure == "edges":
        return len(_edges(compiled, qualifier))
    if measure == "components":
        parent = {n: n for n in g.nodes}

        def find(a):
            while parent[a] != a:
                a = parent[a]
            return a

        for u, v in _edges(compiled, qualifier):
            parent[find(u)] = find(v)
        return len({find(n) for n in g.nodes})
    if measure == "reach":
        adj = _adjacency(compiled, qualifier)
        seen, todo = {args[0]}, deque([args[0]])
        while todo:
            for m in adj[todo.popleft()]:
                if m not in seen:
                    seen.add(m)
                    todo.append(m)
        return len(seen)
    if measure in ("errors", "warnings"):
        return sum(1 for p in compiled.problems if p.severity == measure[:-1])
    if measure == "moves":
        return len(list(game.legal_moves))
    if measure == "perft":

        def walk(gm, depth):
            if depth == 0:
                return 1
            total = 0
            for mv in list(gm.legal_moves):
                child = gm.copy()
                child.push(mv)
                total += 1 if depth == 1 else (0 if child.outcome else walk(child, depth - 1))
            return total

        return walk(game, int(args[0]))
    raise AssertionError(measure)


def independent_position(project, setup):
    board = load_project(project)
    if setup[0] == "turns":
        for tok in setup[1:]:
            pid, t = tok.split("=")
            board.placement(pid).turns = int(t)
    compiled = compile_board(board)
    game = None
    if setup[0] == "new":
        from referee.games import get_game

        opts = dict(t.split("=", 1) for t in setup[2:])
        game = get_game(setup[1]).new(
            compiled,
            players=int(opts.pop("players")),
            seed=int(opts.pop("seed")),
            options=opts or None,
        )
        compiled = game.compiled
    return compiled, game


@pytest.mark.parametrize("name", sorted(SUITES))
def test_fixture_numbers_match_an_independent_count(name):
    fixtures, bad = parse_fixtures((FIXTURES / name).read_text())
    assert bad == [] and fixtures
    for f in fixtures:
        compiled, game = independent_position(SUITES[name], f.setup)
        for e in f.expectations:
            got = independent_count(compiled, e.measure, e.qualifier, e.args, game)
            assert got == e.expected, (
                f"{name}:{f.line} {f.id} {e}: file says {e.expected}, count {got}"
            )


@pytest.mark.parametrize("name", sorted(SUITES))
def test_referee_perft_passes_the_shipped_fixtures(name, capsys):
    assert main(["perft", str(SUITES[name]), str(FIXTURES / name)]) == 0, capsys.readouterr().out


# ---------------------------------------------------------------------- the tool
def test_each_mismatch_is_reported_with_its_line(tmp_path, capsys):
    f = tmp_path / "x.perft"
    f.write_text(
        "# comment line\n"
        "ok     board; components:path 1; reach:path t0/s 4\n"
        "\n"
        "wrong  board; reach:path t0/s 5   # the road has 4 points\n"
        "broken turns t2=3; components:path 1\n"
        "typo   board; reachh t0/s 4\n"
        "nonode board; reach:path t9/zz 1\n"
    )
    assert main(["perft", str(FIXTURES / "boards/road-row.json"), str(f)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out == [
        f"{f}:4: wrong: reach:path t0/s expected 5, got 4",
        f"{f}:5: broken: components:path expected 1, got 2",
        f"{f}:6: typo: syntax: unknown measure 'reachh' (one of nodes, edges, "
        "components, reach, errors, warnings, moves, perft)",
        f"{f}:7: nonode: reach:path t9/zz: board has no node 't9/zz'",
    ]


def test_json_output(tmp_path, capsys):
    f = tmp_path / "x.perft"
    f.write_text("a board; edges:path 3; nodes:point 4\n")
    assert main(["perft", str(FIXTURES / "boards/road-row.json"), str(f), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["ok"] and data["checks"] == 2 and data["failures"] == 0


@pytest.mark.parametrize(
    "line, msg",
    [
        ("x", "needs an id and a setup"),
        ("x board", "at least one expectation"),
        ("x board; reach 3", "reach takes 1 argument"),
        ("x board; moves 3", "needs a game setup"),
        ("x turns t1; nodes 3", "PLACEMENT=INT"),
        ("x new ringgeister seed=1; moves 3", "players=N and seed=S"),
        ("x board; nodes:planet 3", "unknown node kind"),
        ("x board; edges:bridge 3", "unknown relation"),
        ("x board; nodes three", "whole number"),
    ],
)
def test_grammar_errors(line, msg):
    with pytest.raises(PerftSyntaxError, match=msg):
        parse_line(line, 1)


def test_state_setup_reads_a_saved_game(tmp_path):
    """`state FILE` (relative to the fixtures file) sets up a saved game state."""
    from referee.games import get_game

    project = ROOT / "projects/mount-doom"
    compiled = compile_board(load_project(project))
    game = get_game("mount-doom").new(compiled, players=2, seed=3)
    (tmp_path / "s.json").write_text(json.dumps(game.to_json()))
    n = len(list(game.legal_moves))
    (tmp_path / "x.perft").write_text(f"saved state s.json; moves {n}\n")
    report = check_file(load_project(project), tmp_path / "x.perft")
    assert report.ok, [o.describe("x") for o in report.failures]


def test_missing_fixtures_file_is_one_line(capsys):
    assert main(["perft", str(FIXTURES / "boards/road-row.json"), "/nonexistent.perft"]) == 1
    err = capsys.readouterr().err
    assert "no such fixtures file" in err and "Traceback" not in err
