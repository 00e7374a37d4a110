"""The balance report as people read it: whole-number histogram bins, a heat map
whose title sits above the board, a difference map for ``--compare``."""

from __future__ import annotations

import re
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest

from referee.balance import LocalEngine, Study, run_study
from referee.balance.heatmap import difference_svg, heatmap_svg
from referee.balance.report import heat_difference, summarise, text
from referee.balance.runner import board
from referee.cli import main

PROJECTS = Path(__file__).resolve().parents[3] / "projects"
RIDDLE = str(PROJECTS / "riddle-sample")


def record(seed: int, moves: int, heat: dict[str, int] | None = None) -> dict[str, Any]:
    return {
        "seed": seed,
        "seats": ["a", "b"],
        "bots": ["random", "random"],
        "first": "a",
        "moves": moves,
        "result": "won",
        "winners": ["a"],
        "ending": "won: test",
        "rules_fired": {"move": moves},
        "heat": heat or {},
    }


def test_histogram_bins_are_whole_moves() -> None:
    """Lengths 6 to 305 (the issue's "6–305.4"): ten bins of 30 whole moves, each
    bin's ends both included, every game in exactly one bin."""
    lengths = [6, 7, 50, 120, 121, 200, 305, 305]
    s = summarise([record(i, n) for i, n in enumerate(lengths)])
    bins = s["length"]["histogram"]
    assert all(isinstance(b["from"], int) and isinstance(b["to"], int) for b in bins)
    assert bins[0]["from"] == 6 and bins[-1]["to"] >= 305
    assert all(b["to"] - b["from"] == 29 for b in bins)
    assert all(nxt["from"] == b["to"] + 1 for b, nxt in pairwise(bins))
    assert sum(b["games"] for b in bins) == len(lengths)
    report = {"rules": "x", "project": "p", "players": 2, "summary": s}
    rows = [ln for ln in text(report).splitlines() if re.fullmatch(r"\s+[\d–.]+\s+\d+ #*", ln)]
    assert [r.split()[0] for r in rows][:2] == ["6–35", "36–65"] and len(rows) == len(bins)


def test_one_length_makes_one_bin() -> None:
    bins = summarise([record(0, 32), record(1, 32)])["length"]["histogram"]
    assert bins == [{"from": 32, "to": 32, "games": 2}]


def test_help_prints_one_percent_sign(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["balance", "--help"])
    out = capsys.readouterr().out
    assert "95 % intervals" in re.sub(r"\s+", " ", out) and "%%" not in out


def _view_box(svg: str) -> tuple[float, ...]:
    m = re.search(r'viewBox="([^"]+)"', svg)
    assert m is not None
    return tuple(float(v) for v in m.group(1).split())


def test_heat_map_title_sits_above_the_board() -> None:
    """The title goes in a band added above the drawn board, so it cannot cover the
    board's own title or its spaces."""
    compiled = board(RIDDLE)
    plain = heatmap_svg(compiled, {}, "")
    titled = heatmap_svg(compiled, {}, "riddle: where figures went")
    x0, y0, w, h = _view_box(plain)
    tx0, ty0, tw, th = _view_box(titled)
    assert (tx0, tw) == (x0, w) and ty0 < y0 and ty0 + th == pytest.approx(y0 + h)
    m = re.search(r'<text x="[^"]+" y="([^"]+)" font-size="([^"]+)"[^>]*>riddle: where', titled)
    assert m is not None
    assert float(m.group(1)) < y0  # the baseline, and so the whole line, above the board


def test_heat_difference_rings_a_real_change_not_noise() -> None:
    """Node ``x`` is visited 3 times a game on B and never on A; ``y`` the same
    count on both; ``z`` once in one game of A only: only ``x`` is significant."""
    ra = [record(i, 10, {"y": 2} | ({"z": 1} if i == 0 else {})) for i in range(20)]
    rb = [record(i, 10, {"x": 3, "y": 2}) for i in range(20)]
    d = heat_difference(ra, rb)
    assert d["x"]["difference"] == 3 and d["x"]["significant"]
    assert d["y"]["difference"] == 0 and not d["y"]["significant"]
    assert d["z"]["difference"] == -0.05 and not d["z"]["significant"]
    node = next(iter(board(RIDDLE).graph.nodes))
    svg = difference_svg(board(RIDDLE), {node: {**d["x"]}}, "B − A")
    assert f"<title>{node}: 0 → 3 per game (+3; p = " in svg
    assert 'stroke="#000" stroke-width="1.6"><title>' in svg  # ringed


def test_compare_writes_a_difference_map(tmp_path: Path) -> None:
    """``--compare`` on the same board: a map titled as a difference (B − A), drawn
    without a single disc, since nothing changed."""
    rep = run_study(
        Study("riddle", RIDDLE, 2, 2, ("greedy", "random"), options={"turn_limit": 3}),
        db=tmp_path / "r.sqlite",
        engine=LocalEngine(1),
        compare_project=RIDDLE,
        out_dir=tmp_path / "out",
    )
    assert rep["compare"]["heat"] and not any(
        v["difference"] or v["significant"] for v in rep["compare"]["heat"].values()
    )
    svg = (tmp_path / "out" / "heatmap-compare.svg").read_text()
    assert "riddle: riddle-sample − riddle-sample: change in visits per game" in svg
    assert '<g id="heat-difference"' in svg and "<circle" not in svg.split("heat-difference")[1]
    plain = (tmp_path / "out" / "heatmap.svg").read_text()
    assert "where figures went" in plain and "change in visits" not in plain
    assert "space(s) changed significantly" in text(rep)
