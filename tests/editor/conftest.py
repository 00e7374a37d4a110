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
def isolated_settings(tmp_path_factory: pytest.TempPathFactory, qapp: Any) -> Path:
    """Point QSettings (recent files, window layout) and app data at a temp dir."""
    d = tmp_path_factory.mktemp("settings")
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


@pytest.fixture
def make_window(qtbot: Any, asked: Asked) -> Any:
    """Build main windows (closed again without questions at teardown)."""
    from editor.mainwindow import MainWindow

    made: list[Any] = []

    def make(*args: Any, **kw: Any) -> MainWindow:
        w = MainWindow(*args, **kw)
        w.ask = asked  # type: ignore[method-assign]
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
