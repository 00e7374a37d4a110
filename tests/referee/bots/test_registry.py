"""The bots are one registry (issue 26, "Lists kept in step by hand"): each bot class
declares its name, label, description and parameters; specs are read by the declared
parameters, and the editor's seat list and ``docs/reference/bots.md`` come from
``referee.bots.BOTS``."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.bots import BOTS, MctsBot, make_bot
from referee.errors import UsageError

ROOT = Path(__file__).resolve().parents[3]
PAGE = ROOT / "docs" / "reference" / "bots.md"


def _rows(table_head: str) -> list[str]:
    lines = PAGE.read_text(encoding="utf-8").splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(table_head))
    rows = []
    for line in lines[start + 2 :]:
        if not line.startswith("|"):
            break
        rows.append(line)
    return rows


def test_every_bot_declares_what_uis_and_docs_show() -> None:
    assert list(BOTS) == ["random", "greedy", "mcts"]
    for name, cls in BOTS.items():
        assert cls.name == name and cls.label and cls.description
        assert make_bot(name).describe().startswith(name)


def test_a_spec_is_read_by_the_declared_parameters() -> None:
    bot = make_bot("mcts:iterations=40,rollout=3,exploration=1.5", seed=2)
    assert isinstance(bot, MctsBot)
    assert (bot.iterations, bot.rollout, bot.exploration) == (40, 3, 1.5)
    assert {p.name for p in MctsBot.PARAMS} == set(MctsBot.DEFAULTS)
    assert all(MctsBot.DEFAULTS[p.name] == p.default for p in MctsBot.PARAMS)


@pytest.mark.parametrize(
    ("spec", "says"),
    [
        ("random:depth=2", "random takes no parameters, not depth"),
        (
            "mcts:depth=2",
            "mcts takes iterations, ms, rollout, exploration, worlds, widen, not 'depth'",
        ),
        ("mcts:iterations=many", "mcts: iterations must be a number, not 'many'"),
        ("mcts:rollout=1.5", "mcts: rollout must be a number, not '1.5'"),
        ("oracle", "unknown bot 'oracle' (known: random, greedy, mcts)"),
    ],
)
def test_a_bad_spec_is_one_line_naming_what_is_allowed(spec: str, says: str) -> None:
    with pytest.raises(UsageError) as e:
        make_bot(spec)
    assert str(e.value) == says


def test_the_docs_page_lists_the_registry() -> None:
    assert _rows("| bot |") == [
        f"| `{n}` | {cls.label} | {cls.description} |" for n, cls in BOTS.items()
    ]
    assert _rows("| parameter |") == [
        f"| `{p.name}` | {p.type.__name__} | {'none' if p.default is None else p.default} "
        f"| {p.help} |"
        for p in MctsBot.PARAMS
    ]
    assert [n for n, cls in BOTS.items() if cls.PARAMS] == ["mcts"]  # the page's one table
