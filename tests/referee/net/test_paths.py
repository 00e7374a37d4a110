"""Project paths resolve fully and never leave ``--projects``, at any depth (issue 25,
"links out of --projects are followed when they sit one folder down"); only regular
files are opened. The network server and the stdio server share the one check
(:class:`referee.envelopes.Boards`)."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import httpx
import pytest

from referee.cli.stdio import Server
from referee.envelopes import Boards
from referee.errors import RequestError

from .conftest import AS_ADMIN, PROJECTS, create


@pytest.fixture
def root(tmp_path: Path) -> Path:
    """A projects folder with one good project and links out of it at every depth."""
    root = tmp_path / "projects"
    root.mkdir()
    shutil.copytree(PROJECTS / "mount-doom", root / "good")
    outside = tmp_path / "outside"
    shutil.copytree(PROJECTS / "mount-doom", outside)
    secret = tmp_path / "secret.json"
    secret.write_text(json.dumps({"format": "boardwright-project", "secret": "s3cr3t"}))
    # one folder down: the project file is a link to a file outside
    (root / "leak").mkdir()
    (root / "leak" / "leak.json").symlink_to("/etc/passwd")
    (root / "leak2").mkdir()
    (root / "leak2" / "leak2.json").symlink_to(secret)
    # two folders down, through a link to a folder inside that links out again
    (root / "inner").mkdir()
    (root / "inner" / "deep").symlink_to(outside, target_is_directory=True)
    (root / "deep").symlink_to(root / "inner" / "deep", target_is_directory=True)
    # a project folder linked from outside, and a project file linked from outside
    (root / "escape").symlink_to(outside, target_is_directory=True)
    (root / "escape2.json").symlink_to(outside / "mount-doom.json")
    # a link that stays inside is fine
    (root / "alias").symlink_to(root / "good", target_is_directory=True)
    # not a regular file
    (root / "fifo").mkdir()
    os.mkfifo(root / "fifo" / "fifo.json")
    return root


LEAKS = ["leak", "leak2", "deep", "escape", "escape2"]


def test_links_out_of_the_folder_are_neither_listed_nor_opened(make_server, root):
    srv = make_server(root)
    listed = httpx.get(srv.url + "/api/projects", timeout=30).json()["projects"]
    names = {p["name"] for p in listed}
    assert {"good", "alias"} <= names and not names & set(LEAKS)
    assert "s3cr3t" not in json.dumps(listed) and "root:" not in json.dumps(listed)
    assert next(p for p in listed if p["name"] == "fifo")["error"]  # refused, not hung
    for name in [*LEAKS, "fifo"]:
        r = httpx.post(
            srv.url + "/api/games",
            json={"rules": "mount-doom", "project": name, "players": 2},
            headers=AS_ADMIN,
            timeout=30,
        )
        assert r.status_code in (400, 404), (name, r.text)
        assert "s3cr3t" not in r.text and "root:" not in r.text and str(root) not in r.text
    create(srv.url, rules="mount-doom", project="good", players=2)
    create(srv.url, rules="mount-doom", project="alias", players=2)


def test_the_stdio_server_refuses_the_same_links(root):
    srv = Server(projects=root)
    for name in ["leak/leak.json", "leak", "leak2", "deep", "deep/mount-doom.json", "escape2.json"]:
        resp = srv.handle_line(
            json.dumps({"op": "new", "rules": "mount-doom", "project": name, "players": 2}).encode()
        )
        assert resp["error"]["code"] == "forbidden", (name, resp)
    resp = srv.handle_line(
        json.dumps({"op": "new", "rules": "mount-doom", "project": "fifo", "players": 2}).encode()
    )
    assert resp["error"]["code"] == "not_regular"
    ok = srv.handle_line(
        json.dumps({"op": "new", "rules": "mount-doom", "project": "alias", "players": 2}).encode()
    )
    assert ok["ok"], ok


@pytest.mark.parametrize("name", LEAKS)
def test_boards_resolve_every_link_before_opening(root, name):
    boards = Boards(root)
    path = root / name if (root / name).exists() else root / f"{name}.json"
    with pytest.raises(RequestError) as info:
        boards.get(str(path))
    assert info.value.code == "forbidden"
