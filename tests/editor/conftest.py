"""Editor test fixtures: QSettings and app data in a temp dir, message boxes patched."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QCoreApplication, QSettings, QStandardPaths
from PySide6.QtWidgets import QMessageBox

ROOT = Path(__file__).resolve().parents[2]
RINGGEISTER = ROOT / "projects" / "ringgeister"


@pytest.fixture(autouse=True)
def isolated_settings(
    tmp_path_factory: pytest.TempPathFactory, qapp: Any, monkeypatch: pytest.MonkeyPatch
) -> Path:
    """Point QSettings (recent files, window layout) and app data (untitled boards'
    autosaves) at a temp dir of this test's own: Qt's test mode alone shares one
    folder between every test and every worker."""
    d = tmp_path_factory.mktemp("settings")
    monkeypatch.setenv("BOARDWRIGHT_DATA_DIR", str(d / "data"))
    QCoreApplication.setOrganizationName("BoardwrightTests")
    QCoreApplication.setApplicationName("BoardwrightTests")
    QSettings.setDefaultFormat(QSettings.Format.IniFormat)
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, str(d))
    QStandardPaths.setTestModeEnabled(True)
    return d


class Asked:
    """Records message boxes and answers them with a preset answer."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, str, str]] = []
        self.answer: Any = QMessageBox.StandardButton.Yes

    def __call__(
        self, kind: str, title: str, text: str, buttons: Any = None, default: Any = None
    ) -> Any:
        self.calls.append((kind, title, text))
        return self.answer


@pytest.fixture
def asked(monkeypatch: pytest.MonkeyPatch) -> Asked:
    """Patch every QMessageBox static call (a stray modal box would hang offscreen)."""
    rec = Asked()
    for kind in ("question", "critical", "warning", "information"):
        monkeypatch.setattr(
            QMessageBox,
            kind,
            staticmethod(lambda parent, title, text, *a, _k=kind, **kw: rec(_k, title, text, *a)),
        )
    return rec


class Dialogs:
    """Runs the window's dialogs (``run_dialog``) without a modal loop: shows the dialog
    and clicks its buttons, named in :attr:`clicks` (e.g. ``["discard", "restore"]``;
    ``"<name>_btn"`` attributes of the dialog), then closes it with Esc if still open."""

    def __init__(self, qtbot: Any) -> None:
        self.qtbot = qtbot
        self.clicks: list[str] = []
        self.seen: list[Any] = []

    def __call__(self, dialog: Any) -> int:
        from PySide6.QtCore import Qt

        self.seen.append(dialog)
        dialog.show()
        for name in self.clicks:
            if not dialog.isVisible():
                break
            self.qtbot.mouseClick(getattr(dialog, f"{name}_btn"), Qt.MouseButton.LeftButton)
        if dialog.isVisible():
            self.qtbot.keyClick(dialog, Qt.Key.Key_Escape)
        return int(dialog.result())


@pytest.fixture
def dialogs(qtbot: Any) -> Dialogs:
    return Dialogs(qtbot)


@pytest.fixture
def make_window(qtbot: Any, asked: Asked, dialogs: Dialogs) -> Any:
    """Build main windows (closed again without questions at teardown)."""
    from editor.mainwindow import MainWindow

    made: list[Any] = []

    def make(*args: Any, **kw: Any) -> MainWindow:
        w = MainWindow(*args, **kw)
        w.ask = asked  # type: ignore[method-assign]
        w.run_dialog = dialogs  # type: ignore[method-assign]
        w.autosave_timer.stop()
        qtbot.addWidget(w)
        w.resize(1200, 800)
        w.show()
        w.view.fit()
        made.append(w)
        return w

    yield make
    for w in made:
        w.doc.undo.setClean()
        w.close()
