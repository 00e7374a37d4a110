"""The ``referee`` command line.

Verbs live in ``referee/cli/cmd_*.py``; each module defines ``register(subparsers)``
that adds its verbs with ``set_defaults(func=...)``. A verb function takes the parsed
arguments and returns the exit status. JSON goes to stdout, progress and logs to
stderr. Errors on bad input are one line on stderr and exit 1; bad usage exits 2.
"""

from __future__ import annotations

import argparse
import importlib
import json
import pkgutil
import sys
from collections.abc import Sequence
from typing import Any

from ..errors import BoardwrightError, UsageError


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        self.print_usage(sys.stderr)
        print(f"{self.prog}: error: {message}", file=sys.stderr)
        raise SystemExit(2)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="referee", description="Compile, check and referee Boardwright boards.")
    parser.add_argument("--version", action="version", version=f"%(prog)s {_version()}")
    sub = parser.add_subparsers(dest="verb", metavar="VERB", parser_class=_Parser)
    sub.required = True
    for mod in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if mod.name.startswith("cmd_"):
            importlib.import_module(f"{__name__}.{mod.name}").register(sub)
    _register_rules_verbs(sub)
    return parser


def _register_rules_verbs(sub: argparse._SubParsersAction[Any]) -> None:
    """The verbs rules modules add (``RulesModule.cli``); one that clashes with a
    verb already there is left out with a warning on stderr."""
    from ..games import modules

    for name, rm in modules().items():
        if rm.cli is None:
            continue
        try:
            rm.cli(sub)
        except argparse.ArgumentError as exc:
            print(f"referee: rules module {name!r}: {exc}", file=sys.stderr)


def _version() -> str:
    from .. import __version__

    return __version__


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except UsageError as exc:
        print(f"referee {args.verb}: {exc}", file=sys.stderr)
        return 2
    except BoardwrightError as exc:
        if getattr(args, "json", False):
            print(json.dumps({"error": exc.to_json()}))
        print(f"referee {args.verb}: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print(f"referee {args.verb}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 1


def emit_json(data: Any) -> None:
    """Print one JSON document to stdout."""
    print(json.dumps(data, ensure_ascii=False, indent=1, allow_nan=False))


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
