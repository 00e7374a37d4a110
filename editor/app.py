"""``boardwright``: start the editor.

::

    boardwright [PROJECT] [--screenshot FILE.png] [--size WxH]

Without ``PROJECT`` the default Ringgeister board (``projects/ringgeister``) opens,
or an empty board if it is not there. ``--screenshot`` renders the main window
offscreen on that project, saves it as PNG and exits 0 (for docs and CI).
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import sys
import tempfile
from collections.abc import Mapping
from pathlib import Path

from referee.shipped import projects_dir

DEFAULT_PROJECT = projects_dir() / "ringgeister"


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="boardwright", description="Boardwright board editor")
    p.add_argument(
        "project",
        nargs="?",
        help="project file (.bwproj), JSON export, or a "
        "folder holding one (default: projects/ringgeister)",
    )
    p.add_argument(
        "--screenshot",
        metavar="FILE.png",
        help="render the main window offscreen to FILE.png and exit",
    )
    p.add_argument("--size", default="1400x900", help="window size for --screenshot (WxH)")
    return p


INSTALL_HINT = (
    "boardwright: the editor needs PySide6, which is not installed: "
    "pip install 'boardwright[editor]'"
)


def no_display_problem(env: Mapping[str, str], platform: str) -> str | None:
    """Why Qt could not open a window here, as one line with what to do; else None.

    On Linux and the BSDs Qt needs ``DISPLAY`` (X11) or ``WAYLAND_DISPLAY`` unless a
    platform plugin is chosen with ``QT_QPA_PLATFORM``; without one it aborts the
    process (exit 134) with a long message.
    """
    if not platform.startswith(("linux", "freebsd", "openbsd", "netbsd")):
        return None
    if env.get("QT_QPA_PLATFORM") or env.get("DISPLAY") or env.get("WAYLAND_DISPLAY"):
        return None
    return (
        "no display to open a window on (DISPLAY and WAYLAND_DISPLAY are not set); "
        "run it on a desktop, or headless with QT_QPA_PLATFORM=offscreen, "
        "e.g. boardwright PROJECT --screenshot out.png"
    )


def main(argv: list[str] | None = None) -> int:
    if importlib.util.find_spec("PySide6") is None:
        # `pip install boardwright` is the headless referee; the editor is an extra
        print(INSTALL_HINT, file=sys.stderr)
        return 2
    args = _parser().parse_args(argv)
    try:
        w, h = (int(v) for v in args.size.lower().split("x"))
    except ValueError:
        print(f"boardwright: --size {args.size!r} is not WxH", file=sys.stderr)
        return 2
    if args.screenshot:
        os.environ["QT_QPA_PLATFORM"] = "offscreen"
    problem = no_display_problem(os.environ, sys.platform)
    if problem:
        print(f"boardwright: {problem}", file=sys.stderr)
        return 2
    from PySide6.QtCore import QCoreApplication, QSettings
    from PySide6.QtWidgets import QApplication

    from .mainwindow import MainWindow

    QCoreApplication.setOrganizationName("Boardwright")
    QCoreApplication.setApplicationName("Boardwright")
    app = QApplication.instance() or QApplication(sys.argv[:1])
    settings = None
    scratch = None
    if args.screenshot:
        # throwaway settings: a picture for the docs must not touch the user's
        # recent files or window layout
        scratch = tempfile.TemporaryDirectory(prefix="boardwright-screenshot-")
        settings = QSettings(str(Path(scratch.name) / "settings.ini"), QSettings.Format.IniFormat)
    win = MainWindow(settings=settings)
    if args.screenshot:
        win.autosave_timer.stop()

        # no one is there to answer a message box: print it and go on
        def tell(
            kind: str, title: str, text: str, buttons: object = None, default: object = None
        ) -> object:
            print(f"boardwright: {title}: {text}", file=sys.stderr)
            return default

        win.ask = tell  # type: ignore[method-assign]
    project = Path(args.project) if args.project else DEFAULT_PROJECT
    if args.project or project.exists():
        if not win.open_path(project, offer_recovery=not args.screenshot) and args.screenshot:
            win.close()
            return 1
    elif not args.screenshot:
        win.offer_recovery()  # an untitled board autosaved before a crash
    if args.screenshot:
        win.resize(w, h)
        win.show()
        for _ in range(3):
            app.processEvents()
        win.view.fit()
        app.processEvents()
        out = Path(args.screenshot)
        if not win.grab().save(str(out)):
            print(f"boardwright: cannot write {out}", file=sys.stderr)
            return 1
        win.doc.undo.setClean()
        win.close()
        return 0
    win.show()
    win.view.fit()
    return int(app.exec())


if __name__ == "__main__":
    raise SystemExit(main())
