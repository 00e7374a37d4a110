"""Cost of the safe reader and the atomic writer (issue 13), and the memory plan of a load.

Measured side by side in this process:

- reading the shipped projects' JSON exports with :func:`referee.safeio.loads_json`
  (depth, digit, NaN and surrogate checks) against plain :func:`json.loads`;
- writing a 1 MiB file with :func:`referee.safeio.atomic_write` (exclusive temp,
  fsync, rename) against a plain ``write_bytes``;
- peak Python memory of :func:`referee.store.load_project` on a generated 10,000
  space region map (JSON export and SQLite), against the file's size — the figure
  behind the documented limit (64 MiB of project file parses to well under 1 GiB).

Times are CPU time of this process (``time.process_time``), so other work on a shared
machine does not inflate them. The last line is one JSON object with the figures.

Run: ``python bench/safeio.py``
"""

from __future__ import annotations

import json
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

from referee.generators import voronoi_map
from referee.safeio import atomic_write, loads_json
from referee.store import export_json, load_project, save_project

ROOT = Path(__file__).resolve().parent.parent


def best_of(fn, repeat: int = 5, inner: int = 10) -> float:
    """Best per-call CPU time of ``fn`` (process time: robust on a machine shared with others)."""
    best = float("inf")
    for _ in range(repeat):
        t = time.process_time()
        for _ in range(inner):
            fn()
        best = min(best, (time.process_time() - t) / inner)
    return best


def peak_mib(fn) -> float:
    tracemalloc.start()
    fn()
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return peak / 2**20


def main() -> int:
    rows = []
    figures: dict[str, object] = {}
    for path in sorted((ROOT / "projects").glob("*/*.json")):
        text = path.read_text(encoding="utf-8")
        plain = best_of(lambda t=text: json.loads(t))
        safe = best_of(lambda t=text, p=path: loads_json(t, str(p)))
        rows.append((path.name, len(text) / 1024, plain * 1000, safe * 1000, safe / plain))
        figures[f"read_{path.stem}_ratio"] = round(safe / plain, 2)
    print(f"{'file':28} {'KiB':>8} {'json.loads ms':>14} {'safe ms':>9} {'ratio':>6}")
    for name, kib, plain, safe, ratio in rows:
        print(f"{name:28} {kib:8.0f} {plain:14.2f} {safe:9.2f} {ratio:6.2f}")

    data = b"x" * (1 << 20)
    with tempfile.TemporaryDirectory() as tmp:
        target = Path(tmp) / "f.bin"
        plain_w = best_of(lambda: target.write_bytes(data), 10)
        atomic_w = best_of(lambda: atomic_write(target, data), 10)
        print(f"\n1 MiB write: plain {plain_w * 1000:.2f} ms, atomic {atomic_w * 1000:.2f} ms")
        figures["write_plain_ms"] = round(plain_w * 1000, 2)
        figures["write_atomic_ms"] = round(atomic_w * 1000, 2)

        board = voronoi_map(10_000, seed=3)
        js, db = Path(tmp) / "big.json", Path(tmp) / "big.bwproj"
        export_json(board, js)
        save_project(board, db)
        print("\nload of a 10,000-space map: file size, peak Python memory")
        for p in (js, db):
            size = p.stat().st_size / 2**20
            peak = peak_mib(lambda p=p: load_project(p))
            print(f"  {p.name:12} {size:7.1f} MiB file  {peak:7.1f} MiB peak  ({peak / size:.1f}x)")
            figures[f"load_{p.suffix[1:]}_file_mib"] = round(size, 1)
            figures[f"load_{p.suffix[1:]}_peak_mib"] = round(peak, 1)
    print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
