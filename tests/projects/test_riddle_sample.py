"""The Riddle of the Ring sample map (projects/riddle-sample): what issue 5 asks of it,
that it is what its committed generator makes, and the movement verbs on it."""

from __future__ import annotations

import importlib.util
import json
import random
from collections import Counter
from pathlib import Path

import pytest

from referee.cli import main
from referee.compiler import compile_board
from referee.games.riddle.movement import Movement, reference_destinations
from referee.store import load_project

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "projects" / "riddle-sample"


@pytest.fixture(scope="module")
def board():
    return load_project(SAMPLE)


@pytest.fixture(scope="module")
def cb(board):
    return compile_board(board)


@pytest.fixture(scope="module")
def mv(cb):
    return Movement(cb)


def _spaces(cb):
    return {n: d for n, d in cb.graph.nodes(data=True) if d["kind"] == "space"}


def _edges(cb, relation):
    return [(u, v, d) for u, v, d in cb.graph.edges(data=True) if d["relation"] == relation]


def test_check_passes_and_meta(board, cb, capsys):
    assert main(["check", str(SAMPLE)]) == 0
    assert not cb.errors()
    assert board.meta["rules"] == "riddle" and board.meta["width"] > 0 and board.meta["height"] > 0
    assert (SAMPLE / "riddle-sample.bwproj").exists() and (SAMPLE / "riddle-sample.json").exists()


def test_spaces_terrain_cities_letters_roles(cb):
    sp = _spaces(cb)
    assert len(sp) >= 300
    terr = Counter(d["terrain"] for d in sp.values())
    assert {"open", "forest", "mountain", "ocean", "lake"} <= set(terr)
    cities = Counter(d.get("city") for d in sp.values() if d.get("city"))
    assert sum(cities.values()) >= 12 and set(cities) == {"good", "evil", "neutral"}
    letters = Counter(x for d in sp.values() for x in d.get("letters", []))
    assert all(letters[x] >= 3 for x in "GCS")
    roles = Counter(d.get("role") for d in sp.values() if d.get("role"))
    assert roles == {"shire": 1, "cracks_of_doom": 1, "barad_dur": 1, "exit_limbo": 1}
    exit_limbo = next(d for d in sp.values() if d.get("role") == "exit_limbo")
    assert exit_limbo["terrain"] == "mountain"  # "Gray space in the Mountains"
    names = [d.get("name") for d in sp.values()]
    assert all(names) and len(set(names)) == len(names)


def test_rivers_dots_bridges_water(cb):
    sp = _spaces(cb)
    per_river = Counter(d["river"] for _, _, d in _edges(cb, "dot_river"))
    assert len(per_river) >= 4 and all(k >= 3 for k in per_river.values())
    dots = _edges(cb, "dot")
    water_of = {
        sp[s]["terrain"]
        for u, v, _ in dots
        for s in (u, v)
        if s in sp and sp[s]["terrain"] in ("ocean", "lake")
    }
    assert water_of == {"ocean", "lake"}  # an ocean and a lake connected to rivers
    city_dots = [n for n, d in cb.graph.nodes(data=True) if d.get("city_space")]
    assert city_dots and all(sp[cb.graph.nodes[n]["city_space"]].get("city") for n in city_dots)
    bridges = [d for _, _, d in _edges(cb, "touch") if d.get("bridge")]
    assert len(bridges) >= 4 and all(d.get("river") for d in bridges)


def test_city_dot_at_a_river_end(board, cb):
    feats = {f.id: f for f in board.features}
    for n, d in cb.graph.nodes(data=True):
        if d.get("city_space"):
            p = feats[n].geometry
            ends = [
                f
                for f in feats.values()
                if f.kind == "river"
                and min(
                    p.distance(type(p)(f.geometry.coords[0])),
                    p.distance(type(p)(f.geometry.coords[-1])),
                )
                < 0.01
            ]
            assert ends, f"city-dot {n} is not at the end of a river"


def test_roads_through_forests_and_mountains(cb):
    sp = _spaces(cb)
    on_road = {s for u, v, _ in _edges(cb, "road") for s in (u, v)}
    terr = Counter(sp[s]["terrain"] for s in on_road)
    assert terr["forest"] >= 2 and terr["mountain"] >= 2 and not terr["ocean"]
    assert len({d["road"] for _, _, d in _edges(cb, "road")}) >= 5


def test_no_slivers(board):
    areas = sorted(f.geometry.area for f in board.features if f.kind == "space")
    assert areas[0] >= 0.3 * areas[len(areas) // 2]


@pytest.mark.slow
def test_committed_map_is_what_the_generator_makes(board):
    spec = importlib.util.spec_from_file_location("riddle_generate", SAMPLE / "generate.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    fresh = mod.build()
    assert json.dumps(fresh.to_json(), sort_keys=True) == json.dumps(
        board.to_json(), sort_keys=True
    )


def test_movement_agrees_with_oracle_on_the_sample(mv, cb):
    rng = random.Random(5)
    for _ in range(25):
        start = rng.choice(mv.ids)
        cards = [c for c in ("boat", "cloak", "rope") if rng.random() < 0.6]
        roll = rng.randint(1, 6)
        got = {k: (r.cost, r.stops_turn) for k, r in mv.destinations(start, roll, cards).items()}
        assert got == reference_destinations(cb, start, roll, cards)


def test_cli_reach_path_within(capsys):
    assert main(["reach", str(SAMPLE), "--from", "the shire", "--roll", "2", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["name"] == "The Shire" and out["destinations"]
    far = max(out["destinations"], key=lambda r: (r["cost"], len(r["path"])))
    assert far["cost"] <= 2
    path = far["path"]
    args = ["path", str(SAMPLE), "--from", path[0], "--to", path[-1], "--roll", "2"]
    if len(path) > 2:
        args += ["--via", ",".join(path[1:-1])]
    assert main(args) == 0
    assert "legal" in capsys.readouterr().out
    assert main(["path", str(SAMPLE), "--from", path[0], "--to", path[-1], "--roll", "0"]) == 1
    assert main(["within", str(SAMPLE), "Exit Limbo", "6", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["spaces"][0] == {"node": out["space"], "name": "Exit Limbo", "distance": 0}
    assert max(s["distance"] for s in out["spaces"]) == 6
    assert main(["reach", str(SAMPLE), "--from", "The Shyre", "--roll", "2"]) == 1
    assert "closest: The Shire" in capsys.readouterr().err
    assert (
        main(["reach", str(SAMPLE), "--from", "The Shire", "--roll", "2", "--cards", "wings"]) == 2
    )
