"""Playtest ▸ Host on the network (issue 18): the real server for the open board, on
loopback, in a background thread; seat links fetched over HTTP; Stop ends it."""

from __future__ import annotations

import json
import urllib.error
import urllib.parse
import urllib.request
from typing import Any

import pytest
from PySide6.QtWidgets import QApplication

from .conftest import RINGGEISTER

pytest.importorskip("uvicorn")


def _get(url: str, token: str | None = None) -> Any:
    req = urllib.request.Request(url)
    if token:
        req.add_header("Authorization", f"Bearer {token}")
    with urllib.request.urlopen(req, timeout=10) as resp:
        return json.loads(resp.read())


def _host(make_window: Any, qtbot: Any) -> tuple[Any, Any]:
    win = make_window()
    assert win.open_path(RINGGEISTER, offer_recovery=False)
    dlg = win.hosting.open_dialog()
    assert dlg.host_box.currentData() == "127.0.0.1"  # loopback unless asked
    dlg.players_box.setValue(2)
    with qtbot.waitSignal(dlg.hosting_changed, timeout=30_000) as sig:
        dlg.start_button.click()
    assert sig.args[0].startswith("http://127.0.0.1:"), dlg.message.text()
    return win, dlg


def test_hosting_serves_the_open_board_and_each_seat_sees_its_own_view(
    make_window: Any, qtbot: Any
) -> None:
    _win, dlg = _host(make_window, qtbot)
    game = dlg.game
    assert game is not None and len(game["seats"]) == 2
    seat = game["seats"][0]
    # the dialog shows each seat's link (and the spectators'), copyable
    assert dlg.link_edits[seat["player"]].text() == seat["link"]
    assert "Spectators" in dlg.link_edits
    link = urllib.parse.urlparse(seat["link"])
    query = urllib.parse.parse_qs(link.query)
    assert query["token"] == [seat["token"]]
    base = f"{link.scheme}://{link.netloc}"
    view = _get(f"{base}/api/games/{game['game']}", seat["token"])
    assert json.dumps(view)  # the seat's view, as JSON
    public = _get(f"{base}/api/games/{game['game']}")
    assert seat["token"] not in json.dumps(public)
    # the browser table is served at the link
    with urllib.request.urlopen(seat["link"], timeout=10) as resp:
        assert resp.status == 200 and b"<html" in resp.read().lower()
    # Copy puts the link on the clipboard
    dlg.links.itemAtPosition(0, 2).widget().click()
    assert QApplication.clipboard().text() == seat["link"]
    dlg.stop_button.click()
    assert dlg.server is None and dlg.start_button.isEnabled()
    with pytest.raises(urllib.error.URLError):
        _get(f"{base}/api/games/{game['game']}", seat["token"])


def test_the_hosted_board_is_the_board_as_edited_not_as_saved(make_window: Any, qtbot: Any) -> None:
    win = make_window()
    assert win.open_path(RINGGEISTER, offer_recovery=False)
    win.doc.board.meta["name"] = "edited in the window"
    dlg = win.hosting.open_dialog()
    with qtbot.waitSignal(dlg.hosting_changed, timeout=30_000):
        dlg.start_button.click()
    assert dlg.server is not None
    projects = _get(f"{dlg.server.url}/api/projects")
    assert "edited in the window" in json.dumps(projects)
    win.close()  # closing the window stops the server
    assert dlg.server is None


def test_a_refused_game_shows_one_line_and_nothing_keeps_running(
    make_window: Any, qtbot: Any
) -> None:
    win = make_window()
    assert win.open_path(RINGGEISTER, offer_recovery=False)
    dlg = win.hosting.open_dialog()
    dlg.rules_box.setCurrentIndex(dlg.rules_box.findData("riddle"))  # not this board's rules
    with qtbot.waitSignal(dlg.hosting_changed, timeout=30_000) as sig:
        dlg.start_button.click()
    assert sig.args[0] == ""
    text = dlg.message.text()
    assert "ringgeister" in text and "\n" not in text and "Traceback" not in text
    assert dlg.server is None and dlg.worker is None and dlg.start_button.isEnabled()
