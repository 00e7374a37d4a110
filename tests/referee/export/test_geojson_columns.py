"""Every shipped GeoJSON export has one type per property column, as OGR and fiona
need (Ringgeister's ``heading`` was a string on 30 points and a number on 12), and
an import still reads the values back as they were."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from referee.compiler import compile_board
from referee.export.geojson import to_geojson
from referee.store import load_project

ROOT = Path(__file__).resolve().parents[3]
SHIPPED = ["ringgeister", "riddle-sample", "mount-doom", "lotr-coop", "painted-tiles"]


def _type(v: object) -> str | None:
    if v is None:
        return None
    if isinstance(v, bool):
        return "bool"
    if isinstance(v, int | float):
        return "number"
    return type(v).__name__


@pytest.mark.parametrize("project", SHIPPED)
def test_one_type_per_property_column(project: str, tmp_path: Path) -> None:
    data = to_geojson(compile_board(load_project(ROOT / "projects" / project)))
    seen: dict[str, set[str]] = {}
    for feat in data["features"]:
        for k, v in feat["properties"].items():
            t = _type(v)
            if t is not None:
                seen.setdefault(k, set()).add(t)
    assert {k: ts for k, ts in seen.items() if len(ts) > 1} == {}
    src = tmp_path / f"{project}.geojson"
    src.write_text(json.dumps(data), encoding="utf-8")
    # GDAL/OGR through pyogrio (a dev dependency, GDAL in its wheel): every feature,
    # every property column, each column of one type
    import pyogrio

    info = pyogrio.read_info(src)
    assert info["features"] == len(data["features"])
    assert set(info["fields"]) == {k for f in data["features"] for k in f["properties"]}
    _meta, _fids, geometry, columns = pyogrio.raw.read(src)
    assert len(geometry) == len(data["features"]) and len(columns) == len(info["fields"])
    ogr = shutil.which("ogr2ogr")
    if ogr is None:  # Debian's gdal-bin: .ci/run installs it
        pytest.skip("ogr2ogr (Debian's gdal-bin) is not installed; pyogrio read the export")
    out = tmp_path / f"{project}.gpkg"
    done = subprocess.run([ogr, "-f", "GPKG", str(out), str(src)], capture_output=True, text=True)
    assert done.returncode == 0 and "ERROR" not in done.stderr, done.stderr
    info = subprocess.run(["ogrinfo", "-so", "-al", str(out)], capture_output=True, text=True)
    assert f"Feature Count: {len(data['features'])}" in info.stdout


def test_a_mixed_column_comes_back_as_it_was(tmp_path: Path) -> None:
    """Points headed "N" and 90 (both allowed): written as text for the column, read
    back by the import as the string and the number they were (same board hash)."""
    import shapely

    from referee.export import write_export
    from referee.importers import import_board
    from referee.model import Board, Feature

    feats = [
        Feature("a", "point", shapely.Point(0, 0), {"heading": "N", "colour": "black"}),
        Feature("b", "point", shapely.Point(20, 0), {"heading": 90, "colour": "black"}),
    ]
    board = Board(
        meta={"name": "mixed", "rules": "ringgeister", "width": 60, "height": 20}, features=feats
    )
    c = compile_board(board)
    out = tmp_path / "mixed.geojson"
    write_export(c, "geojson", out)
    data = json.loads(out.read_text(encoding="utf-8"))
    headings = {f["id"]: f["properties"].get("heading") for f in data["features"]}
    assert headings == {"a": "N", "b": "90"}
    back = import_board("geojson", out).board
    got = {f.id: f.props.get("heading") for f in back.features}
    assert got["a"] == "N" and got["b"] == 90
    assert compile_board(back).hash == c.hash
