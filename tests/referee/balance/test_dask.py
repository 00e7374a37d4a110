"""The Dask engine against a real scheduler and two workers, separate processes on
loopback: the stored results equal the local engine's for the same seeds."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from referee.balance import DaskEngine, EngineError, LocalEngine, ResultStore, Study, run_study
from referee.cli import main

pytest.importorskip("distributed")

PROJECTS = Path(__file__).resolve().parents[3] / "projects"


def _dask(*args: str) -> list[str]:
    exe = Path(sys.executable).with_name("dask")
    return [str(exe), *args]


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``dask scheduler`` and two ``dask worker`` processes on 127.0.0.1."""
    d = tmp_path_factory.mktemp("dask")
    sched_file = d / "scheduler.json"
    env = {**os.environ, "DASK_DISTRIBUTED__WORKER__DAEMON": "False"}
    procs = [
        subprocess.Popen(
            _dask(
                "scheduler",
                "--host",
                "127.0.0.1",
                "--port",
                "0",
                "--no-dashboard",
                "--scheduler-file",
                str(sched_file),
            ),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            env=env,
        )
    ]
    try:
        deadline = time.monotonic() + 60
        while not sched_file.exists() and time.monotonic() < deadline:
            time.sleep(0.2)
        address = json.loads(sched_file.read_text())["address"]
        for _ in range(2):
            procs.append(
                subprocess.Popen(
                    _dask(
                        "worker",
                        address,
                        "--nworkers",
                        "1",
                        "--nthreads",
                        "1",
                        "--host",
                        "127.0.0.1",
                        "--no-dashboard",
                        "--local-directory",
                        str(d),
                    ),
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                    env=env,
                )
            )
        from distributed import Client

        with Client(address, timeout=30) as client:
            client.wait_for_workers(2, timeout=90)
        yield address
    finally:
        for p in reversed(procs):
            p.terminate()
        for p in procs:
            try:
                p.wait(timeout=20)
            except subprocess.TimeoutExpired:
                p.kill()


def test_dask_results_equal_local(cluster: str, tmp_path: Path) -> None:
    study = Study(
        "riddle",
        str(PROJECTS / "riddle-sample"),
        players=2,
        games=6,
        bots=("mcts:iterations=6,rollout=2", "greedy"),
        options={"turn_limit": 4},
    )
    run_study(study, db=tmp_path / "local.sqlite", engine=LocalEngine(1))
    rep = run_study(study, db=tmp_path / "dask.sqlite", engine=DaskEngine(cluster))
    assert rep["engine"] == f"dask ({cluster})"
    with ResultStore(tmp_path / "local.sqlite") as a, ResultStore(tmp_path / "dask.sqlite") as b:
        key = a.begin(study.description())
        local = a.records(key)
        assert len(local) == 6
        assert local == b.records(key)


def test_unreachable_scheduler_fails_fast(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    t0 = time.monotonic()
    with pytest.raises(EngineError, match="cannot reach the Dask scheduler"):
        run_study(
            Study(
                "riddle",
                str(PROJECTS / "riddle-sample"),
                2,
                2,
                ("random", "random"),
                options={"turn_limit": 2},
            ),
            db=tmp_path / "x.sqlite",
            engine=DaskEngine(f"tcp://127.0.0.1:{port}", timeout=2),
        )
    assert time.monotonic() - t0 < 15
    status = main(
        [
            "balance",
            "riddle",
            str(PROJECTS / "riddle-sample"),
            "--games",
            "2",
            "--bots",
            "random",
            "--option",
            "turn_limit=2",
            "--db",
            str(tmp_path / "y.sqlite"),
            "--engine",
            "dask",
            "--scheduler",
            f"tcp://127.0.0.1:{port}",
        ]
    )
    err = capsys.readouterr().err
    assert status == 1
    assert "cannot reach the Dask scheduler" in err and "Traceback" not in err
