"""The PySide6 pin (< 6.12): 6.12.0 decrements the refcount of None on every call of a
method returning nothing and aborts Python 3.11 after a few thousand calls."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from importlib.metadata import version


def test_pyside6_is_pinned_below_6_12():
    major, minor = (int(x) for x in version("PySide6-Essentials").split(".")[:2])
    assert (major, minor) < (6, 12)


def test_twenty_thousand_void_calls_survive():
    """`QPen().setWidthF(0.5)` returns nothing; on 6.12.0 this loop dies with
    `Fatal Python error: none_dealloc`. Run it in a child so a crash fails the test
    instead of killing the test run."""
    script = textwrap.dedent("""
        import os
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
        from PySide6.QtGui import QGuiApplication, QPen
        app = QGuiApplication([])
        for _ in range(20_000):
            QPen().setWidthF(0.5)
        print("survived")
    """)
    proc = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "survived" in proc.stdout
