"""The data Boardwright ships — asset packs and sample projects — is all there and is
found through the package (``referee.shipped``), the way an installed wheel finds it.
(``.ci/run`` checks the same from a wheel installed outside the source tree.)"""

from __future__ import annotations

import pytest

from referee.assets import default_assets_dir, load_packs
from referee.errors import AssetError
from referee.shipped import assets_dir, project_path, projects_dir
from referee.store import load_project

from ..conftest import PROJECTS, ROOT, SHIPPED_PROJECTS

PACKS = {"ringgeister", "riddle", "mount-doom", "lotr-coop", "painted-tiles"}


def test_every_shipped_project_is_there_with_its_file_and_json_export():
    there = sorted(p.name for p in projects_dir().iterdir() if p.is_dir() and p.name[0] not in "_.")
    assert there == sorted(SHIPPED_PROJECTS)
    for name in SHIPPED_PROJECTS:
        folder = project_path(name)
        assert (folder / f"{name}.bwproj").is_file() and (folder / f"{name}.json").is_file()
        assert load_project(folder).features, name


def test_in_a_checkout_the_shipped_data_is_the_repositorys_folders(monkeypatch):
    monkeypatch.delenv("BOARDWRIGHT_ASSETS", raising=False)
    assert projects_dir().resolve() == PROJECTS.resolve()
    assert assets_dir().resolve() == (ROOT / "assets").resolve() == default_assets_dir().resolve()
    assert set(load_packs()) == PACKS


def test_assets_folder_can_be_overridden(monkeypatch, tmp_path):
    monkeypatch.setenv("BOARDWRIGHT_ASSETS", str(tmp_path))
    assert default_assets_dir() == tmp_path and load_packs() == {}


def test_an_unknown_project_names_the_ones_there_are():
    with pytest.raises(AssetError, match="no shipped project named 'nope'; there are: lotr-coop"):
        project_path("nope")
