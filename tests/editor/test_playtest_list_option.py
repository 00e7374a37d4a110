"""A list option (Ringgeister's ``colours``) in the Playtest's options form: one
comma-separated line whose text the game's kit parses and checks (issue 26)."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtWidgets import QLineEdit

from editor.game_options import OptionsForm
from referee.errors import UsageError
from referee.games import get_game


def test_colours_are_one_line_the_game_reads_as_its_seats(qtbot: Any) -> None:
    form = OptionsForm("ringgeister")
    qtbot.addWidget(form)
    line = form.widgets["colours"]
    assert isinstance(line, QLineEdit) and line.text() == ""
    line.setText("green, purple")
    game = get_game("ringgeister")
    assert game.parse_options(form.values())["colours"] == ["green", "purple"]
    line.setText("green, purpel")
    with pytest.raises(UsageError, match="did you mean 'purple'"):
        game.parse_options(form.values())
