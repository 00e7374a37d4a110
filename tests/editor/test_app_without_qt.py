"""`pip install boardwright` has no PySide6: the `boardwright` command says in one line
how to get the editor and exits 2 (the `boardwright[editor]` extra)."""

from __future__ import annotations

import importlib.util
from typing import Any

import pytest

from editor import app


def test_boardwright_without_pyside6_says_how_to_install_it(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    real = importlib.util.find_spec

    def find_spec(name: str, *args: Any, **kwargs: Any) -> Any:
        return None if name.split(".")[0] == "PySide6" else real(name, *args, **kwargs)

    monkeypatch.setattr(importlib.util, "find_spec", find_spec)
    assert app.main(["--screenshot", "never.png"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.count("\n") == 1 and "pip install 'boardwright[editor]'" in err
