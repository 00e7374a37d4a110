"""Issue 25, finding 1: no CLI view of a game carries its seed.

``referee new ringgeister ... --seed 12345`` then ``referee moves --view orange
--json`` printed ``view.state.seed`` = 12345: the seed rebuilds the generator and
with it the face-down pile. Every player's view and an onlooker's, as JSON and as
text, for every registered game.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from referee.cli import main
from referee.games import get_module, modules

SEED = 918_273_645_501


@pytest.mark.parametrize("rules", sorted(modules()))
def test_no_cli_view_carries_the_seed(
    tmp_path: Path, rules: str, capsys: pytest.CaptureFixture[str]
) -> None:
    module = get_module(rules)
    sample = module.sample_path()
    assert sample is not None
    lo, hi = module.game.PLAYERS
    state = tmp_path / "g.json"
    argv = ["new", rules, str(sample), "--players", str(max(lo, min(hi, 2)))]
    assert main([*argv, "--seed", str(SEED), "-o", str(state)]) == 0
    players = json.loads(state.read_text(encoding="utf-8"))["state"]["players"]
    capsys.readouterr()
    for view in [*(["--view", p] for p in players), []]:
        for form in (["--json"], []):
            assert main(["moves", str(state), *view, *form]) == 0
            shown = "".join(capsys.readouterr())
            assert shown and str(SEED) not in shown, (rules, view, form)
