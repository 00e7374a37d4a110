"""The project JSON Schema documents what the exporter writes."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from referee.generators import tile_grid, voronoi_map
from referee.store import load_project

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = json.loads((ROOT / "referee" / "schema" / "project.schema.json").read_text())


def validate(data):
    jsonschema.Draft202012Validator(SCHEMA).validate(json.loads(json.dumps(data)))


def test_schema_is_valid_draft_2020_12():
    jsonschema.Draft202012Validator.check_schema(SCHEMA)


@pytest.mark.parametrize(
    "board", [tile_grid(2, 3, seed=2), voronoi_map(50, 1)], ids=["tiles", "region-map"]
)
def test_generated_boards_validate(board):
    validate(board.to_json())


@pytest.mark.parametrize(
    "project", sorted((ROOT / "projects").glob("*/*.json")), ids=lambda p: p.parent.name
)
def test_shipped_projects_validate(project):
    validate(load_project(project).to_json())


def test_schema_rejects_what_the_loader_rejects():
    data = tile_grid(1, 1).to_json()
    data["placements"][0]["turns"] = -1
    with pytest.raises(jsonschema.ValidationError):
        validate(data)
    data = tile_grid(1, 1).to_json()
    data["version"] = 2
    with pytest.raises(jsonschema.ValidationError):
        validate(data)


def test_committed_schema_matches_the_model():
    """project.schema.json is generated from the property tables; rerun `python -m referee.schema`."""
    from referee.schema import project_schema

    assert project_schema() == SCHEMA


def test_schema_rejects_a_bad_property_per_kind():
    data = tile_grid(1, 1).to_json()
    feat = data["assets"]["tiles"][0]["features"][0]
    assert feat["kind"] == "port"
    feat["props"]["side"] = "NE"
    with pytest.raises(jsonschema.ValidationError):
        validate(data)
