"""Docs that cannot lie: every command block of the README, the how-to guides and the
tutorials is run, and its output compared with what the page shows.

The convention (docs/explanation/documentation.md):

- a ```` ```console ```` block is run: each ``$ `` line is a command (``> `` lines
  continue it), the lines under it are its expected output, ``...`` on a line of its
  own stands for any number of lines, and a last line ``[exit N]`` expects exit
  status N (otherwise 0). A command shown without output has its output unchecked.
- a ```` ```python ```` block is run as a script; it must exit 0.
- ``norun`` after the language (```` ```sh norun ````) shows a block without running it
  — the README's fresh-machine commands (``.ci/run`` runs those; see
  ``test_reference.py``), servers that run until stopped, other machines.
- any other shell block (``sh``, ``bash``, untagged) is an error: choose.

Each page runs in its own scratch folder holding a copy of the shipped projects, the
test fixtures, the example positions and the race plug-in, with this virtual
environment's ``referee`` and ``boardwright`` first on ``PATH``; blocks of one page
share the folder, in order, so a page can build on its earlier commands.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGES = sorted(
    [
        ROOT / "README.md",
        *(ROOT / "docs" / "how-to").glob("*.md"),
        *(ROOT / "docs" / "tutorials").glob("*.md"),
    ]
)
#: what a page's scratch folder holds, copied from the checkout
COPIED = ("projects", "tests/fixtures", "docs/positions", "examples/boardwright-race")
SHELLS = {"sh", "bash", "shell", "console", "zsh", ""}
TIMEOUT = 600


@dataclass
class Command:
    line: int  # where the command is written, for the failure message
    text: str
    expected: list[str] = field(default_factory=list)
    status: int = 0


@dataclass
class Block:
    page: Path
    line: int
    lang: str
    norun: bool
    body: list[str]

    def where(self) -> str:
        return f"{self.page.relative_to(ROOT)}:{self.line}"


FENCE = re.compile(r"^(?P<indent>\s*)(?P<ticks>`{3,})(?P<info>[^`]*)$")


def blocks(page: Path) -> list[Block]:
    """The fenced blocks of a Markdown page (indented fences of list items too)."""
    found: list[Block] = []
    lines = page.read_text(encoding="utf-8").splitlines()
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        indent, ticks, info = m["indent"], m["ticks"], m["info"].strip()
        words = info.split()
        lang = words[0] if words else ""
        body: list[str] = []
        j = i + 1
        while j < len(lines) and not (
            lines[j].strip().startswith(ticks) and lines[j].strip().strip("`") == ""
        ):
            line = lines[j]
            body.append(line[len(indent) :] if line.startswith(indent) else line.lstrip())
            j += 1
        found.append(Block(page, i + 1, lang, "norun" in words[1:], body))
        i = j + 1
    return found


def commands(block: Block) -> list[Command]:
    """The ``$`` commands of a console block with their expected output and status."""
    cmds: list[Command] = []
    for offset, line in enumerate(block.body, start=block.line + 1):
        if line.startswith("$ "):
            cmds.append(Command(offset, line[2:]))
        elif (line.startswith("> ") or line == ">") and cmds and not cmds[-1].expected:
            cmds[-1].text += "\n" + line[2:]
        elif cmds:
            cmds[-1].expected.append(line.rstrip())
        elif line.strip():
            raise AssertionError(f"{block.where()}: output before any `$ ` command: {line!r}")
    for cmd in cmds:
        while cmd.expected and not cmd.expected[-1]:
            cmd.expected.pop()
        if cmd.expected and (m := re.fullmatch(r"\[exit (\d+)\]", cmd.expected[-1])):
            cmd.status = int(m[1])
            cmd.expected.pop()
    return cmds


def line_ok(expected: str, actual: str) -> bool:
    """One line: equal, or with ``...`` inside the line standing for any text
    (``1 passed in ...``: a time that changes from run to run)."""
    if "..." not in expected:
        return expected == actual
    pattern = ".*".join(re.escape(part) for part in expected.split("..."))
    return re.fullmatch(pattern, actual) is not None


def _at(part: list[str], actual: list[str], k: int) -> bool:
    return k + len(part) <= len(actual) and all(
        line_ok(e, a) for e, a in zip(part, actual[k : k + len(part)])
    )


def matches(expected: list[str], actual: list[str]) -> bool:
    """``actual`` is ``expected`` with each ``...`` line standing for any lines."""
    parts: list[list[str]] = [[]]
    for line in expected:
        if line.strip() == "...":
            parts.append([])
        else:
            parts[-1].append(line)
    if len(parts) == 1:
        return len(expected) == len(actual) and _at(expected, actual, 0)
    first, *middle, last = parts
    end = len(actual) - len(last)
    if end < len(first) or not _at(first, actual, 0) or not _at(last, actual, end):
        return False
    pos = len(first)
    for part in middle:
        for k in range(pos, end - len(part) + 1):
            if _at(part, actual, k):
                pos = k + len(part)
                break
        else:
            return False
    return True


def scratch(tmp: Path) -> Path:
    for rel in COPIED:
        shutil.copytree(ROOT / rel, tmp / rel, ignore=shutil.ignore_patterns("__pycache__"))
    return tmp


def environment() -> dict[str, str]:
    bin_dir = str(Path(sys.executable).parent)
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST")}
    # unbuffered: stdout and stderr interleave in the order the program writes them
    env.update(
        PATH=bin_dir + os.pathsep + env.get("PATH", ""),
        QT_QPA_PLATFORM="offscreen",
        PYTHONUNBUFFERED="1",
    )
    env.pop("REFEREE_DEBUG", None)
    return env


def run_shell(cmd: Command, block: Block, cwd: Path, env: dict[str, str]) -> list[str]:
    done = subprocess.run(
        ["bash", "-c", cmd.text],
        cwd=cwd,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        timeout=TIMEOUT,
    )
    out = [line.rstrip() for line in done.stdout.splitlines()]
    while out and not out[-1]:
        out.pop()
    shown = "\n".join(out[-40:])
    assert done.returncode == cmd.status, (
        f"{block.page.relative_to(ROOT)}:{cmd.line}: `{cmd.text}` exited {done.returncode}, "
        f"the page says {cmd.status}; it printed:\n{shown}"
    )
    return out


def run_page(page: Path, tmp: Path) -> int:
    cwd, env, ran = scratch(tmp), environment(), 0
    for block in blocks(page):
        if block.norun:
            continue
        if block.lang == "console":
            for cmd in commands(block):
                out = run_shell(cmd, block, cwd, env)
                ran += 1
                if cmd.expected:
                    assert matches(cmd.expected, out), (
                        f"{block.page.relative_to(ROOT)}:{cmd.line}: `{cmd.text}` printed\n"
                        + "\n".join(out)
                        + "\n--- the page shows ---\n"
                        + "\n".join(cmd.expected)
                    )
        elif block.lang == "python":
            script = cwd / f"_block_{block.line}.py"
            script.write_text("\n".join(block.body) + "\n", encoding="utf-8")
            done = subprocess.run(
                [sys.executable, script.name],
                cwd=cwd,
                env=env,
                stdin=subprocess.DEVNULL,
                capture_output=True,
                text=True,
                timeout=TIMEOUT,
            )
            assert done.returncode == 0, f"{block.where()}: the Python block failed:\n{done.stderr}"
            ran += 1
    return ran


def test_every_shell_block_is_run_or_says_why_not() -> None:
    """A shell block that is neither ``console`` (run) nor marked ``norun`` is an error:
    otherwise a page could show a command the tests never try."""
    bad = [
        f"{b.where()}: ```{b.lang or '(untagged)'} block: make it ```console to run it, or mark it ```{b.lang or 'text'} norun"
        for page in PAGES
        for b in blocks(page)
        if b.lang in SHELLS and b.lang != "console" and not b.norun
    ]
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_page_examples(page: Path, tmp_path: Path) -> None:
    run_page(page, tmp_path)


def test_the_readme_runs_commands() -> None:
    """The runner finds the README's tour (a parser that found nothing would pass)."""
    readme = [b for b in blocks(ROOT / "README.md") if b.lang == "console"]
    assert sum(len(commands(b)) for b in readme) >= 10


@pytest.mark.parametrize(
    ("expected", "actual", "ok"),
    [
        (["a", "b"], ["a", "b"], True),
        (["a", "b"], ["a", "c"], False),
        (["a", "...", "c"], ["a", "b", "x", "c"], True),
        (["a", "...", "c"], ["a", "b", "x"], False),
        (["...", "b", "..."], ["a", "b", "c"], True),
        (["...", "z", "..."], ["a", "b", "c"], False),
        (["a", "..."], ["b"], False),
        (["1 passed in ...s"], ["1 passed in 3.38s"], True),
        (["1 passed in ...s"], ["1 failed in 3.38s"], False),
        (["a", "...", "b", "c"], ["a", "b", "c"], True),
    ],
)
def test_output_matching(expected: list[str], actual: list[str], ok: bool) -> None:
    """``...`` skips lines; every shown line must be there, in order."""
    assert matches(expected, actual) is ok


def test_a_changed_exit_status_fails(tmp_path: Path) -> None:
    """A command whose exit status is not the page's fails the page."""
    page = tmp_path / "page.md"
    page.write_text("```console\n$ false\n```\n")
    (block,) = blocks(page)
    with pytest.raises(AssertionError, match="exited 1, the page says 0"):
        run_shell(
            commands(block)[0],
            Block(ROOT / "README.md", 1, "console", False, []),
            tmp_path,
            environment(),
        )
