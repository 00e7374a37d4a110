"""The ``referee`` command line.

Verbs live in ``referee/cli/cmd_*.py``; each module defines ``register(subparsers)``
that adds its verbs with ``set_defaults(func=...)``. A verb function takes the parsed
arguments and returns the exit status. JSON goes to stdout, progress and logs to
stderr. Errors on bad input are one line on stderr and exit 1; bad usage exits 2.

:func:`main` is the last line of defence: a :class:`~referee.errors.UsageError`
exits 2, any other :class:`~referee.errors.BoardwrightError` exits 1, and anything
else (a bug, or a ``RecursionError``/``MemoryError`` on an input no check caught)
is one line ``referee VERB: internal error: …`` and exit 1 — never a traceback
(set ``REFEREE_DEBUG=1`` to see it). Lines are written with unprintable characters
escaped, so a file name that is not UTF-8 cannot break the error message.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import pkgutil
import sys
import traceback
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


def say(line: str) -> None:
    """Write one line to stderr, escaping what the stream cannot encode."""
    line = line.replace("\n", " ").replace("\r", " ")
    stream = sys.stderr
    try:
        stream.write(line + "\n")
    except UnicodeEncodeError:
        enc = getattr(stream, "encoding", None) or "utf-8"
        stream.write(line.encode(enc, "backslashreplace").decode(enc, "replace") + "\n")
    stream.flush()


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except UsageError as exc:
        say(f"referee {args.verb}: {exc}")
        return 2
    except BoardwrightError as exc:
        if getattr(args, "json", False):
            try:
                print(json.dumps({"error": exc.to_json()}, allow_nan=False))
            except (ValueError, TypeError):
                print(json.dumps({"error": {"code": exc.code, "message": exc.message[:500]}}))
            except BrokenPipeError:
                _stdout_gone()
        say(f"referee {args.verb}: {exc}")
        return 1
    except KeyboardInterrupt:
        say(f"referee {args.verb}: interrupted")
        return 130
    except BrokenPipeError:
        _stdout_gone()
        return 1
    except Exception as exc:
        if os.environ.get("REFEREE_DEBUG"):
            traceback.print_exc()
        text = str(exc).replace("\n", " ")[:200]
        say(
            f"referee {args.verb}: internal error: {type(exc).__name__}: {text} "
            "(please report it; REFEREE_DEBUG=1 shows the traceback)"
        )
        return 1


def _stdout_gone() -> None:
    """The reader of stdout went away (``referee moves ... | head``): point stdout at
    the null device, so the interpreter's last flush does not print a traceback."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


def emit_json(data: Any) -> None:
    """Print one JSON document to stdout."""
    from ..safeio import dumps_json

    print(dumps_json(data, "output", indent=1))


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
