"""Where the games of a study run: local processes, or a Dask distributed cluster.

Both engines take the :class:`~.runner.Job` list and yield ``(job, record)`` as games
finish, in any order; the caller stores each at once. Records do not depend on the
engine or the number of workers (:func:`~.runner.play` is a function of the job).

- :class:`LocalEngine`: a :mod:`multiprocessing` pool on this machine (``workers``
  processes; 1 plays in this process).
- :class:`DaskEngine`: ``dask.distributed`` — connect to a scheduler
  (``tcp://HOST:8786``) and submit one task per game. Workers need Boardwright
  installed and the project readable at the same path. An unreachable scheduler
  fails within ``timeout`` seconds with one line.
"""

from __future__ import annotations

import ctypes
import importlib
import multiprocessing
import os
import re
import signal
import sys
import threading
import time
from abc import ABC, abstractmethod
from collections.abc import Iterator
from typing import Any

from ..errors import BoardwrightError, UsageError
from .runner import Job, play


class EngineError(BoardwrightError):
    """The engine cannot run the study (scheduler unreachable, workers failing)."""

    code = "engine_error"


class Engine(ABC):
    """Runs jobs; yields ``(job, record)`` as each game finishes."""

    name = ""

    @abstractmethod
    def run(self, jobs: list[Job]) -> Iterator[tuple[Job, dict[str, Any]]]: ...

    def describe(self) -> str:
        return self.name


def _play_pair(job: Job) -> tuple[Job, dict[str, Any]]:
    return job, play(job)


def _die_with(parent: int) -> None:
    """Pool initializer: the worker ends when the study's process does.

    A study killed outright (``kill -9``) cannot stop its pool; its workers would
    play on and print a broken pipe's traceback when they hand in a game. On Linux
    the kernel kills the worker with its parent (``PR_SET_PDEATHSIG``); elsewhere a
    daemon thread notices the parent is gone within half a second.
    """
    if sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            if libc.prctl(1, signal.SIGKILL) == 0:  # 1: PR_SET_PDEATHSIG
                if os.getppid() != parent:  # the parent died before the call
                    os._exit(0)
                return
        except (OSError, AttributeError):
            pass

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(0)

    threading.Thread(target=watch, name="die-with-parent", daemon=True).start()


#: the most local worker processes
MAX_WORKERS = 1024
#: a Dask scheduler's address: tcp:// (or tls://) HOST:PORT
_ADDRESS = re.compile(r"^(tcp|tls)://(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]{1,253}):(\d{1,5})$")


class LocalEngine(Engine):
    """Processes on this machine (default: one per CPU)."""

    name = "local"

    def __init__(self, workers: int | None = None) -> None:
        if workers is not None and not 1 <= workers <= MAX_WORKERS:
            raise UsageError(f"--workers must be from 1 to {MAX_WORKERS}, not {workers}")
        self.workers = workers or multiprocessing.cpu_count()

    def describe(self) -> str:
        return f"local ({self.workers} process{'es' if self.workers != 1 else ''})"

    def run(self, jobs: list[Job]) -> Iterator[tuple[Job, dict[str, Any]]]:
        if self.workers == 1 or len(jobs) <= 1:
            for job in jobs:
                yield job, play(job)
            return
        ctx = multiprocessing.get_context("spawn")
        pool = ctx.Pool(
            min(self.workers, len(jobs)), initializer=_die_with, initargs=(os.getpid(),)
        )
        try:
            yield from pool.imap_unordered(_play_pair, jobs)
            pool.close()
        finally:
            pool.terminate()
            pool.join()


class DaskEngine(Engine):
    """A Dask distributed scheduler (``tcp://HOST:8786``), one task per game."""

    name = "dask"

    def __init__(self, scheduler: str, timeout: float = 4.0) -> None:
        if not scheduler:
            raise UsageError("--engine dask needs --scheduler tcp://HOST:PORT")
        m = _ADDRESS.match(scheduler)
        if m is None or not 0 < int(m.group(3)) < 65536:
            raise UsageError(
                f"--scheduler must be a Dask scheduler's address, tcp://HOST:PORT, "
                f"not {scheduler[:80]!r}"
            )
        self.scheduler = scheduler
        self.timeout = timeout

    def describe(self) -> str:
        return f"dask ({self.scheduler})"

    def _connect(self, distributed: Any) -> Any:
        """A client of the scheduler, connected and past the handshake within
        :attr:`timeout` seconds, whatever answers on the port (a listener that never
        speaks held Dask's own connect for minutes); else one :class:`EngineError`.

        The connect runs in a daemon thread: one left waiting on a silent peer does
        not hold up the process's exit."""
        box: dict[str, Any] = {}

        def connect() -> None:
            try:
                box["client"] = distributed.Client(
                    self.scheduler, timeout=self.timeout, set_as_default=False
                )
            except BaseException as exc:  # reported below, on the caller's thread
                box["error"] = exc

        t = threading.Thread(target=connect, name="dask-connect", daemon=True)
        t.start()
        t.join(self.timeout + 0.5)
        if "client" in box:
            return box["client"]
        why = type(box["error"]).__name__ if "error" in box else "no answer"
        raise EngineError(
            f"cannot reach the Dask scheduler at {self.scheduler} within "
            f"{self.timeout:g} s ({why})",
            location=self.scheduler,
        )

    def run(self, jobs: list[Job]) -> Iterator[tuple[Job, dict[str, Any]]]:
        try:
            # untyped package: held as Any rather than silenced line by line
            distributed: Any = importlib.import_module("distributed")
        except ImportError:
            raise UsageError(
                "--engine dask needs Dask distributed: pip install 'boardwright[dask]'"
            ) from None
        client = self._connect(distributed)
        try:
            futures = [client.submit(_play_pair, job, pure=False) for job in jobs]
            # as_completed asks for the current client; this one is not the process's
            # default (set_as_default=False), so it is made current here
            try:
                with client.as_current():
                    for fut in distributed.as_completed(futures):
                        yield fut.result()
            finally:
                client.cancel(futures)
        finally:
            client.close()


def make_engine(name: str, *, workers: int | None = None, scheduler: str | None = None) -> Engine:
    """The engine ``--engine`` names."""
    if name == "local":
        return LocalEngine(workers)
    if name == "dask":
        return DaskEngine(scheduler or "")
    raise UsageError(f"unknown engine {name!r} (local, dask)")
