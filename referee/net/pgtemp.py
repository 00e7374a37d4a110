"""A throwaway PostgreSQL cluster in a temporary folder, for tests and benchmarks.

Debian's ``postgresql`` package puts its programs in ``/usr/lib/postgresql/NN/bin``,
not on ``PATH``; :func:`find_bin` looks there (and on ``PATH``). PostgreSQL refuses
to run as root, so as root the cluster belongs to the ``postgres`` user: its folder
is handed to that user and ``initdb`` and ``pg_ctl`` run under ``runuser``.

>>> pg = TempPostgres()
>>> url = pg.start()  # postgresql://postgres@127.0.0.1:PORT/postgres
>>> pg.stop()  # the cluster and its folder are gone

The cluster listens on 127.0.0.1 only, on a free port, with ``trust``
authentication (anyone on this machine may connect): never for real games.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path

from ..errors import BoardwrightError


def find_bin(name: str = "pg_ctl") -> Path | None:
    """PostgreSQL's program ``name``: the newest Debian version's, else on ``PATH``."""

    def version(path: str) -> int:
        part = Path(path).parts[-3]
        return int(part) if part.isdigit() else 0

    found = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"), key=version)
    if found:
        return Path(found[-1])
    on_path = shutil.which(name)
    return Path(on_path) if on_path else None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class TempPostgres:
    """A PostgreSQL cluster of its own (see the module).

    Parameters
    ----------
    user : str
        The system user that owns and runs the cluster when this process is root.
    """

    def __init__(self, user: str = "postgres") -> None:
        self.user = user
        self.port = 0
        self.dir: Path | None = None
        self._bin: Path | None = None

    @property
    def url(self) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    def _run(self, *cmd: str) -> None:
        assert self._bin is not None
        argv = [str(self._bin / cmd[0]), *cmd[1:]]
        if os.geteuid() == 0:
            argv = ["runuser", "-u", self.user, "--", *argv]
        done = subprocess.run(argv, capture_output=True, text=True, stdin=subprocess.DEVNULL)
        if done.returncode != 0:
            tail = (done.stderr or done.stdout).strip().splitlines()[-3:]
            raise BoardwrightError(
                f"PostgreSQL's {cmd[0]} failed: {' / '.join(tail)}", code="postgres_failed"
            )

    def start(self) -> str:
        """Create the cluster and start it; its URL.

        Raises
        ------
        BoardwrightError
            ``postgres_missing``: no PostgreSQL programs on this machine;
            ``postgres_failed``: ``initdb`` or ``pg_ctl`` failed (their last lines).
        """
        ctl = find_bin("pg_ctl")
        if ctl is None or not (ctl.parent / "initdb").exists():
            raise BoardwrightError(
                "PostgreSQL is not installed (apt-get install postgresql)",
                code="postgres_missing",
            )
        self._bin = ctl.parent
        self.dir = Path(tempfile.mkdtemp(prefix="referee-pg-"))
        if os.geteuid() == 0:
            try:
                pw = pwd.getpwnam(self.user)
            except KeyError:
                raise BoardwrightError(
                    f"running as root, PostgreSQL needs the system user {self.user!r}",
                    code="postgres_missing",
                ) from None
            os.chown(self.dir, pw.pw_uid, pw.pw_gid)
        data = self.dir / "data"
        self._run("initdb", "-D", str(data), "-U", "postgres", "-A", "trust", "-E", "UTF8")
        self.port = _free_port()
        self._ctl("start")
        return self.url

    def _ctl(self, verb: str, *extra: str) -> None:
        assert self.dir is not None
        opts = f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1"
        data, log = str(self.dir / "data"), str(self.dir / "log")
        self._run("pg_ctl", verb, "-w", "-t", "60", "-D", data, "-l", log, "-o", opts, *extra)

    def restart(self) -> None:
        """Stop the cluster (cleanly: every commit is on disk) and start it again, on
        the same port: every connection to it is cut."""
        self._ctl("restart", "-m", "fast")

    def stop(self) -> None:
        """Stop the cluster and remove its folder (``immediate``: no shutdown
        checkpoint, nothing of it is kept)."""
        if self.dir is None:
            return
        data = self.dir / "data"
        if (data / "postmaster.pid").exists():
            self._run("pg_ctl", "stop", "-w", "-m", "immediate", "-D", str(data))
        shutil.rmtree(self.dir, ignore_errors=True)
        self.dir = None

    def __enter__(self) -> TempPostgres:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()
