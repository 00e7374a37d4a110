"""The game vocabulary lives in the rules modules (issue 14): generic properties in the
core, each game's own in its RulesModule, merged for loading, the schema and the editor;
RulesModule paths resolve where the package is installed."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from referee import shipped
from referee.errors import BoardError, UsageError
from referee.games import get_module, modules
from referee.games.registry import builtin_modules
from referee.model import PROP_SPECS, Feature, prop_table
from referee.schema import project_schema
from referee.vocabulary import prop_specs

ROOT = Path(__file__).resolve().parents[3]


def _point(props: dict[str, object]) -> dict[str, object]:
    return {
        "id": "p",
        "kind": "point",
        "geometry": {"type": "Point", "coordinates": [0, 0]},
        "props": props,
    }


def test_the_core_keeps_only_generic_properties() -> None:
    assert set(PROP_SPECS["point"]) == {"name"}
    assert "terrain" not in PROP_SPECS["space"] and "guard" not in PROP_SPECS["path"]
    assert "junction" not in PROP_SPECS and "door" not in PROP_SPECS
    # what the compiler itself reads stays
    assert PROP_SPECS["path"]["medium"]["values"] == ["land", "water"]
    assert PROP_SPECS["counter_space"]["arrival"] == {"type": "ids"}


@pytest.mark.parametrize(
    ("rules", "kind", "prop"),
    [
        ("ringgeister", "point", "colour"),
        ("ringgeister", "door", "symbol"),
        ("ringgeister", "path", "guard"),
        ("riddle", "space", "terrain"),
        ("riddle", "space", "letters"),
        ("mount-doom", "point", "stage_goal"),
        ("lotr-coop", "point", "event"),
    ],
)
def test_each_game_declares_its_own_properties(rules: str, kind: str, prop: str) -> None:
    assert prop in get_module(rules).props[kind]
    assert prop_table()[kind][prop] == get_module(rules).props[kind][prop]


def test_a_board_without_rules_loads_with_every_installed_games_properties() -> None:
    f = Feature.from_json(_point({"colour": "black", "wind": "E", "stage_goal": True}), "f")
    assert f.props["colour"] == "black"
    with pytest.raises(BoardError, match=r"colour='purple' is not allowed for a point") as e:
        Feature.from_json(_point({"colour": "purple"}), "features[3]")
    assert e.value.code == "bad_property" and "features[3]" in str(e.value)


def test_a_plugins_property_is_checked_when_the_plugin_is_installed() -> None:
    pytest.importorskip("boardwright_race")
    assert Feature.from_json(_point({"again": True}), "f").props == {"again": True}
    with pytest.raises(BoardError, match="again='yes'"):
        Feature.from_json(_point({"again": "yes"}), "f")


def test_a_module_never_changes_a_generic_property() -> None:
    fake = replace(
        get_module("ringgeister"),
        name="fake",
        props={"port": {"side": {"type": "str"}, "extra": {"type": "bool"}}},
    )
    merged = prop_specs(PROP_SPECS, {"fake": fake})
    assert merged["port"]["side"] == PROP_SPECS["port"]["side"]
    assert merged["port"]["extra"] == {"type": "bool"}


def test_the_committed_schema_describes_the_built_in_games_whatever_is_installed() -> None:
    pytest.importorskip("boardwright_race")
    assert "race" in modules() and "race" not in builtin_modules()
    assert set(builtin_modules()) == {"lotr-coop", "mount-doom", "riddle", "ringgeister"}

    def point_props(schema: dict[str, object]) -> dict[str, object]:
        feature = schema["$defs"]["feature"]  # type: ignore[index]
        (rule,) = [r for r in feature["allOf"] if r["if"]["properties"]["kind"]["const"] == "point"]
        return rule["then"]["properties"]["props"]["properties"]  # type: ignore[no-any-return]

    assert "colour" in point_props(project_schema()) and "again" not in point_props(
        project_schema()
    )
    assert point_props(project_schema(modules()))["again"] == {"type": "boolean"}


def test_shipped_paths_resolve_through_referee_shipped() -> None:
    rm = get_module("ringgeister")
    assert rm.sample_path() == shipped.projects_dir() / "ringgeister"
    (pos,) = rm.position_paths()
    assert pos == shipped.positions_dir() / "ringgeister-start.json" and pos.is_file()
    for name, m in builtin_modules().items():
        sample = m.sample_path()
        assert sample is not None and sample.exists(), name
        assert all(p.is_file() for p in m.position_paths()), name
    with pytest.raises(UsageError, match="names no shipped data"):
        rm.resolve("shipped:elsewhere/x.json")


def test_riddle_verbs_are_the_riddle_modules_cli() -> None:
    import argparse

    import referee.cli

    assert not (Path(referee.cli.__file__).parent / "cmd_riddle.py").exists()
    cli = get_module("riddle").cli
    assert cli is not None
    sub = argparse.ArgumentParser().add_subparsers()
    cli(sub)
    assert {"reach", "path", "within"} <= set(sub.choices)


def test_a_plugins_paths_resolve_from_an_installed_copy(tmp_path: Path) -> None:
    """The race package copied as a wheel installs it (package data beside the code),
    outside the source tree: its sample and positions resolve there."""
    race = pytest.importorskip("boardwright_race")
    site = tmp_path / "site"
    shutil.copytree(Path(race.__file__).parent, site / "boardwright_race")
    code = (
        "import json, sys; import boardwright_race as r; "
        "from referee.store import load_project; "
        "s = r.RULES.sample_path(); p = r.RULES.position_paths(); "
        "load_project(s); json.loads(p[0].read_text()); "
        "print(json.dumps([str(s), [str(x) for x in p], r.__file__]))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        cwd=tmp_path,
        env={"PYTHONPATH": str(site), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    sample, positions, module = json.loads(out)
    assert Path(module).is_relative_to(site)
    assert Path(sample) == site / "boardwright_race" / "data" / "race-demo.json"
    assert [Path(p) for p in positions] == [site / "boardwright_race" / "data" / "race-start.json"]
    assert not Path(sample).is_relative_to(ROOT)


def test_direction_properties_of_the_table_turn_with_their_tile() -> None:
    from referee.model import direction_props

    assert direction_props() == ("heading", "wind")  # Ringgeister's, type "direction"
    f = Feature.from_json(_point({"wind": "N", "heading": "E", "colour": "black"}), "f")
    assert f.turned(1, 4).props == {"wind": "E", "heading": "S", "colour": "black"}
