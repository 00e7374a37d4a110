"""The Rotations dock's answer as a report: a Markdown page a designer can keep or share
(the figures, the tiles ranked by criticality, and the census as JSON, as
``referee turns --json`` prints it)."""

from __future__ import annotations

import json
from pathlib import Path

from referee.rotations import CensusResult
from referee.safeio import atomic_write


def report_text(board_name: str, figures: str, rows: list[list[str]], res: CensusResult) -> str:
    """The report as Markdown: ``figures`` (plain lines) and the table ``rows``."""
    lines = [f"# Rotations of {board_name}", ""]
    lines += [f"- {line}" for line in figures.splitlines() if line.strip()]
    lines += ["", "| Tile | Decides | Alike turns | Connects by turn |", "|---|---|---|---|"]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    lines += ["", "## The census (JSON)", "", "```json", json.dumps(res.to_json(), indent=1)]
    lines += ["```", ""]
    return "\n".join(lines)


def write_report(path: Path, text: str) -> None:
    atomic_write(path, text)
