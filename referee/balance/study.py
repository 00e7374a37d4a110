"""A balance study from end to end: plan the seeds, skip the finished ones, run the
rest on an engine, store each game as it finishes, and report.

>>> rep = run_study(
...     Study("riddle", "projects/riddle-sample", players=2, games=100, bots=("mcts", "random")),
...     db="results.sqlite",
... )
"""

from __future__ import annotations

import json
import os
import sys
import time
from collections.abc import Callable, Generator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from ..bots import parse_bots
from ..errors import UsageError
from .engines import Engine, LocalEngine
from .heatmap import difference_svg, heatmap_png, heatmap_svg
from .report import compare, summarise
from .runner import Job, board
from .sequential import ALPHA, LOOK, QUESTIONS, check, look_every, looks
from .store import ResultStore


@dataclass(frozen=True)
class Study:
    """What a balance study plays (everything but the engine)."""

    rules: str
    project: str
    players: int
    games: int
    bots: tuple[str, ...]
    seed: int = 0
    options: dict[str, Any] = field(default_factory=dict)
    max_moves: int = 3000
    #: ``"rotate"``: game k seats bot j in seat (j + k) mod seats, so every bot plays
    #: every seat equally often over each run of that many games and seat advantage
    #: and bot strength can be told apart; ``"fixed"``: bot j always in seat j
    seating: str = "rotate"
    #: stop once the answer is clear (:mod:`.sequential`): ``"bots"`` or ``"seats"``;
    #: ``None`` plays every game
    stop_early: str | None = None
    #: games between two looks of ``stop_early``
    look: int = LOOK
    #: with ``stop_early``: also stop once every share is within fair share ± this
    margin: float | None = None

    def description(self, project: str | None = None) -> dict[str, Any]:
        """What identifies the study's games in the store (the board by its hash).

        A fixed-seat study is described as before seats rotated, so its stored games
        are found again."""
        proj = project or self.project
        out: dict[str, Any] = {
            "rules": self.rules,
            "board": board(proj).hash,
            "players": self.players,
            "bots": list(self.bots),
            "options": self.options,
            "max_moves": self.max_moves,
        }
        if self.rotated:
            out["seating"] = "rotate"
        return out

    @property
    def rotated(self) -> bool:
        """Whether seats rotate (and rotating changes anything: two bots differ)."""
        return self.seating == "rotate" and len(set(self.bots)) > 1

    def lineup(self, k: int) -> tuple[int, ...]:
        """Game ``k``'s seating: for each seat, the index in :attr:`bots` of its bot."""
        n = len(self.bots)
        if not self.rotated:
            return tuple(range(n))
        return tuple((i - k) % n for i in range(n))

    def jobs(self, project: str | None = None) -> list[Job]:
        proj = os.path.abspath(project or self.project)
        jobs = []
        for k in range(self.games):
            lineup = self.lineup(k)
            jobs.append(
                Job(
                    self.rules,
                    proj,
                    self.players,
                    self.seed + k,
                    tuple(self.bots[j] for j in lineup),
                    dict(self.options),
                    self.max_moves,
                    lineup,
                )
            )
        return jobs


#: the most games of one study, moves of one game, and the largest seed
MAX_GAMES = 1_000_000
MAX_MOVES = 1_000_000
MAX_SEED = 2**63 - 1


def check_study(study: Study) -> None:
    """Refuse bad input before any game runs (one line each)."""
    if not 1 <= study.games <= MAX_GAMES:
        raise UsageError(f"--games must be from 1 to {MAX_GAMES:,}, not {study.games}")
    if study.seating not in ("rotate", "fixed"):
        raise UsageError(f"seating must be rotate or fixed, not {study.seating!r}")
    if study.stop_early is not None:
        if study.stop_early not in QUESTIONS:
            raise UsageError(
                f"--stop-early asks {' or '.join(QUESTIONS)}, not {study.stop_early!r}"
            )
        if study.stop_early == "bots" and len(set(study.bots)) < 2:
            raise UsageError("--stop-early bots needs two different bots in --bots")
        if not 1 <= study.look <= MAX_GAMES:
            raise UsageError(f"--look must be from 1 to {MAX_GAMES:,}, not {study.look}")
    if study.margin is not None and not 0 < study.margin < 1:
        raise UsageError(f"--margin must be between 0 and 1, not {study.margin}")
    if study.margin is not None and study.stop_early is None:
        raise UsageError("--margin needs --stop-early")
    if not 1 <= study.max_moves <= MAX_MOVES:
        raise UsageError(f"--max-moves must be from 1 to {MAX_MOVES:,}, not {study.max_moves}")
    if not 0 <= study.seed <= MAX_SEED - study.games:
        raise UsageError(f"--seed must be from 0 to 2**63 - 1 - --games, not {study.seed}")
    parse_bots(";".join(study.bots), study.players)
    from ..games import get_game

    cls = get_game(study.rules)
    declared = board(study.project).board.rules
    if declared and declared != study.rules:
        raise UsageError(f"{study.project} declares rules {declared!r}, not {study.rules!r}")
    cls.new(
        board(study.project), players=study.players, seed=study.seed, options=dict(study.options)
    )


Progress = Callable[[int, int], None]


def run_games(
    study: Study,
    store: ResultStore,
    engine: Engine,
    project: str | None = None,
    progress: Progress | None = None,
) -> tuple[str, list[dict[str, Any]], dict[str, Any] | None]:
    """Play the study's missing games on ``project`` (default: the study's board);
    return the study key, the records of its planned seeds and, with
    ``study.stop_early``, the look that stopped it (``None`` when none was clear).

    Each record is stored as it arrives, so an interruption keeps the finished ones.
    With ``stop_early`` the games of the first seeds are looked at every
    ``look`` games (:mod:`.sequential`); at the first clear look the games still
    running are cancelled and the records are those of the seeds up to that look.
    """
    key = store.begin(study.description(project))
    jobs = study.jobs(project)
    seeds = [j.seed for j in jobs]
    done = store.done(key)
    todo = [j for j in jobs if j.seed not in done]
    total = len(jobs)
    finished = total - len(todo)
    if progress is not None:
        progress(finished, total)
    question = study.stop_early
    step = look_every(study.look, study.players)
    n_looks = looks(total, step)
    have = {r["seed"]: r for r in store.records(key, seeds)} if question else {}
    looked = 0
    stopped: dict[str, Any] | None = None

    def look_now() -> dict[str, Any] | None:
        """The first clear look among the complete prefixes not yet looked at."""
        nonlocal looked
        prefix = 0
        while prefix < total and seeds[prefix] in have:
            prefix += 1
        while question and (looked + 1) * step <= min(prefix, total - 1):
            looked += 1
            verdict = check(
                [have[s] for s in seeds[: looked * step]],
                question,
                n_looks,
                margin=study.margin,
            )
            if verdict["clear"]:
                return verdict
        return None

    stopped = look_now()
    if stopped is None:
        games = engine.run(todo)
        try:
            for _, record in games:
                store.add(key, record)
                finished += 1
                if progress is not None:
                    progress(finished, total)
                if question:
                    have[record["seed"]] = record
                    stopped = look_now()
                    if stopped is not None:
                        break
        finally:
            if isinstance(games, Generator):
                games.close()  # cancels the games still running
    if stopped is not None:
        if progress is not None:
            progress(stopped["games"], stopped["games"])
        return key, store.records(key, seeds[: stopped["games"]]), stopped
    return key, store.records(key, seeds), None


def stderr_progress(label: str, stream: IO[str] | None = None) -> Progress:
    """A one-line progress counter with a rate and an estimate of the time left."""
    t0 = time.perf_counter()
    first: list[int] = []

    def show(done: int, total: int) -> None:
        if not first:
            first.append(done)
        dt = time.perf_counter() - t0
        new = done - first[0]
        rate = new / dt if dt > 0 and new else 0.0
        left = f", {((total - done) / rate):.0f} s left" if rate else ""
        end = "\n" if done >= total else ""
        out = stream or sys.stderr
        out.write(f"\r{label}: {done}/{total} games ({rate:.2f}/s{left})   {end}")
        out.flush()

    return show


def run_study(
    study: Study,
    *,
    db: str | Path = ":memory:",
    engine: Engine | None = None,
    compare_project: str | None = None,
    out_dir: str | Path | None = None,
    progress: bool = False,
    shared: tuple[str, ...] = (),
) -> dict[str, Any]:
    """Run (or resume) a study and return its report; write files into ``out_dir``.
    ``shared``: prefixes of tables the caller keeps in ``db`` (see
    :class:`~referee.balance.store.ResultStore`).

    Files: ``report.json``, ``report.txt``, ``heatmap.svg``, ``heatmap.png`` (and
    ``heatmap-compare.*``: the difference map, board B − board A, drawn on B).
    """
    from .report import text

    check_study(study)
    if compare_project is not None:
        check_study(Study(**{**study.__dict__, "project": compare_project}))
    engine = engine or LocalEngine()
    with ResultStore(db, shared=shared) as store:
        _, ra, stopped = run_games(
            study,
            store,
            engine,
            progress=stderr_progress(study.project) if progress else None,
        )
        rb: list[dict[str, Any]] | None = None
        if compare_project is not None:
            # board B plays the seeds board A played (all, or up to A's clear look)
            other = Study(**{**study.__dict__, "games": len(ra), "stop_early": None})
            _, rb, _ = run_games(
                other,
                store,
                engine,
                compare_project,
                progress=stderr_progress(compare_project) if progress else None,
            )
    summary = summarise(ra)
    report: dict[str, Any] = {
        "rules": study.rules,
        "project": study.project,
        "players": study.players,
        "seeds": [study.seed, study.seed + len(ra) - 1],
        "options": study.options,
        "engine": engine.describe(),
        "db": str(db),
        "summary": summary,
    }
    if study.stop_early is not None:
        report["stop_early"] = {
            "question": study.stop_early,
            "planned": study.games,
            "look_every": look_every(study.look, study.players),
            "alpha": ALPHA,
            "stopped": stopped is not None,
            "games": len(ra),
            "look": stopped,
        }
    if rb is not None and compare_project is not None:
        report["compare_project"] = compare_project
        report["compare_summary"] = summarise(rb)
        report["compare"] = compare(summary, report["compare_summary"], ra, rb)
    if out_dir is not None:
        out = Path(out_dir)
        try:
            out.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise UsageError(f"cannot write {out}: {exc.strerror}") from None
        files = []
        pictures = [("heatmap", heatmap_svg(board(study.project), summary["heat"], _title(study)))]
        if rb is not None and compare_project is not None:
            title = f"{study.rules}: {_name(compare_project)} − {_name(study.project)}"
            pictures.append(
                (
                    "heatmap-compare",
                    difference_svg(board(compare_project), report["compare"]["heat"], title),
                )
            )
        for stem, svg in pictures:
            (out / f"{stem}.svg").write_text(svg, encoding="utf-8")
            (out / f"{stem}.png").write_bytes(heatmap_png(svg))
            files += [str(out / f"{stem}.svg"), str(out / f"{stem}.png")]
        files += [str(out / "report.json"), str(out / "report.txt")]
        report["files"] = files
        (out / "report.json").write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
        (out / "report.txt").write_text(text(report) + "\n", encoding="utf-8")
    return report


def _name(project: str) -> str:
    """A project's name for a title (its folder's or file's name)."""
    p = Path(project)
    return p.stem if p.suffix == ".json" else p.name


def _title(study: Study) -> str:
    return f"{study.rules} on {_name(study.project)}: where figures went"
