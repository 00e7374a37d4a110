"""``referee`` must stay headless: importable and usable with Qt blocked."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_referee_imports_and_compiles_with_pyside6_blocked():
    script = textwrap.dedent("""
        import importlib, pkgutil, sys
        class Block:
            def find_spec(self, name, path=None, target=None):
                if name.split(".")[0] in ("PySide6", "shiboken6", "PyQt5", "PyQt6", "editor"):
                    raise ImportError(f"blocked: {name}")
        sys.meta_path.insert(0, Block())
        import referee
        for mod in pkgutil.walk_packages(referee.__path__, "referee."):
            if mod.name.endswith(("pytest_plugin", "__main__")):
                continue  # imports pytest, not Qt; loaded by pytest itself
            importlib.import_module(mod.name)
        from referee.generators import tile_grid
        from referee.compiler import compile_board
        compile_board(tile_grid(2, 2))
        assert not any(m.startswith(("PySide6", "editor")) for m in sys.modules)
        print("headless ok")
    """)
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    assert "headless ok" in proc.stdout


def test_no_referee_source_imports_qt_or_editor():
    """Neither an import statement nor an import by name (importlib, a child process)."""
    bad = []
    for path in (ROOT / "referee").rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        if "PySide6" in text or "PyQt" in text:
            bad.append(f"{path.relative_to(ROOT)}: mentions PySide6/PyQt")
        for line in text.splitlines():
            s = line.strip()
            if s.startswith(("import ", "from ")) and any(
                w in s.split()[1].split(".")[0] for w in ("PySide6", "PyQt", "editor")
            ):
                bad.append(f"{path.relative_to(ROOT)}: {s}")
    assert not bad
