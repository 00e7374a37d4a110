"""Skip these tests where the example package is not installed
(``pip install -e examples/boardwright-race``; ``.ci/run`` installs it)."""

from __future__ import annotations

import importlib.util

collect_ignore_glob = [] if importlib.util.find_spec("boardwright_race") else ["test_*.py"]
