"""Bad flags of every verb are refused before any work, naming the flag."""

from __future__ import annotations

import os

import pytest

from .corpus_projects import MD_JSON
from .harness import run_cli
from .verbs import BAD_FLAGS


@pytest.mark.parametrize("argv,needle", BAD_FLAGS, ids=[str(i) for i in range(len(BAD_FLAGS))])
def test_bad_flags_are_refused_before_any_work(argv, needle, tmp_path, capsys):
    out_dir = tmp_path / "out"
    out_dir.mkdir()
    args = [a.replace("{p}", str(MD_JSON)).replace("{o}", str(out_dir)) for a in argv]
    rc, _, err = run_cli(args, capsys)
    assert rc in (1, 2), err
    assert "Traceback" not in err
    last = err.strip().splitlines()[-1]
    assert needle in last, last
    assert not list(out_dir.iterdir())


def test_workers_are_capped_at_the_cores_with_a_note(capsys, monkeypatch):
    from referee.cli.cmd_turns import cap_workers

    cores = len(os.sched_getaffinity(0))
    assert cap_workers(100_000) == cores
    assert f"capped at {cores}" in capsys.readouterr().err
    assert cap_workers(1) == 1 and capsys.readouterr().err == ""
