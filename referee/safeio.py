"""Safe input and output: one reader for every JSON/TOML input, one JSON writer, one atomic file writer.

Every file or request :mod:`referee` parses goes through :func:`loads_json` /
:func:`read_json` / :func:`read_toml`, which refuse, with one
:class:`~referee.errors.BoardwrightError` naming the file (or request) and the place:

=================  =========================================  ============
limit              default                                    error code
=================  =========================================  ============
size               :data:`MAX_FILE_BYTES` (256 MiB) a file      ``too_large``
nesting depth      :data:`MAX_DEPTH` (100) brackets/tables      ``too_deep``
integer digits     :data:`MAX_INT_DIGITS` (100)                 ``bad_number``
``NaN``/``Infinity``, ``1e999``  never (not standard JSON)      ``bad_number``
lone surrogates    never (``"\\ud800"`` cannot be written back)  ``bad_text``
syntax             —                                          ``bad_json`` / ``bad_toml``
=================  =========================================  ============

:func:`dumps_json` is the one JSON writer: it can never emit ``NaN``, ``Infinity``, a
lone surrogate or an integer too long to read back (``allow_nan=False`` plus the same
checks), and says where the offending value sits. :func:`finite` and
:func:`option_value` validate numbers given on the command line or in requests
before any work starts.

:func:`atomic_write` / :func:`atomic_build` is the one way :mod:`referee` replaces a
file (projects, states, exports, packs): a temporary file with a unique name is
created exclusively (``O_EXCL``, so a planted symlink is never followed) in the
target's folder, written, ``fsync``'ed and renamed over the target. The target's
mode is kept; a target that is a symlink is written through to the file it points
at (the link stays a link). Temporary files are named ``.<name>.<pid>.<random>.bwtmp``;
one left behind by a killed process (its pid no longer runs) is removed by the next
save of the same file.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import re
import secrets
import stat
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from .errors import BoardwrightError

#: Deepest nesting of lists/objects (JSON) or arrays/tables (TOML) accepted.
MAX_DEPTH = 100
#: Most decimal digits of an integer accepted (boards need far fewer).
MAX_INT_DIGITS = 100
#: Largest JSON/TOML file read (bytes). Projects of 10,000 features are ~10 MiB.
MAX_FILE_BYTES = 256 * 1024 * 1024
#: Suffix of our temporary files (see :func:`atomic_write`).
TMP_SUFFIX = ".bwtmp"


class InputError(BoardwrightError):
    """A JSON/TOML text that the safe reader refuses (malformed, too deep, too large, …)."""

    code = "bad_json"


class OutputError(BoardwrightError):
    """A file that cannot be written (folder missing, permission, disk full, bad value)."""

    code = "cannot_write"


# ====================================================================== reading
_STRING = re.compile(r'"(?:[^"\\\n]|\\.)*"')
_BRACKETS = re.compile(r"[\[\]{}]")
_ESCAPE = re.compile(r"\\(?:u([0-9a-fA-F]{4})|.)", re.S)
_ANY_ESCAPE = re.compile(r"\\.", re.S)
_NOT_STRUCTURE = re.compile(r'[^\[\]{}"]+')
_PLAIN_STRING = re.compile(r'"[^"]*"')
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")
_BIG_EXPONENT = re.compile(r"[eE][+-]?[0-9]{3}")


def _has_long_number(text: str) -> bool:
    """Whether ``text`` has a run of more than :data:`MAX_INT_DIGITS` digits or a 3-digit exponent."""
    import numpy as np

    if _BIG_EXPONENT.search(text):
        return True
    if len(text) <= MAX_INT_DIGITS:  # no run of digits can be longer than the text
        return False
    codes = np.frombuffer(text.encode("utf-8", "surrogatepass"), dtype=np.uint8)
    digit = ((codes >= 48) & (codes <= 57)).view(np.int8)
    pad = np.zeros(1, dtype=np.int8)
    edges = np.diff(np.concatenate((pad, digit, pad)))
    runs = np.flatnonzero(edges == -1) - np.flatnonzero(edges == 1)
    return bool((runs > MAX_INT_DIGITS).any())


def _max_depth(text: str) -> int:
    """Deepest bracket nesting of JSON ``text`` outside strings (C-speed regexes + numpy).

    Escapes are dropped first (so ``\\"`` cannot end a string), then everything but
    brackets and quotes, then the (now bracket-free) strings; the running sum of
    ``+1`` per opening and ``-1`` per closing bracket peaks at the depth.
    """
    import numpy as np

    reduced = _PLAIN_STRING.sub("", _NOT_STRUCTURE.sub("", _ANY_ESCAPE.sub("", text)))
    if not reduced:
        return 0
    codes = np.frombuffer(reduced.encode("ascii"), dtype=np.uint8)
    steps = np.where((codes == 91) | (codes == 123), 1, np.where(codes == 34, 0, -1))
    return int(np.cumsum(steps, dtype=np.int64).max())


def _line_col(text: str, pos: int) -> str:
    line = text.count("\n", 0, pos) + 1
    col = pos - (text.rfind("\n", 0, pos) + 1) + 1
    return f"line {line} column {col}"


def _mask_strings(text: str) -> str:
    """``text`` with every JSON string's content blanked (same length, so positions hold)."""
    return _STRING.sub(lambda m: '"' + " " * (len(m.group()) - 2) + '"', text)


def _check_depth(masked: str, max_depth: int) -> int | None:
    """Position of the first bracket nested deeper than ``max_depth``, else None."""
    depth = 0
    for m in _BRACKETS.finditer(masked):
        if m.group() in "[{":
            depth += 1
            if depth > max_depth:
                return m.start()
        else:
            depth -= 1
    return None


def _lone_surrogate(text: str) -> int | None:
    """Position of a ``\\uD800``-style escape that is not half of a surrogate pair."""
    pending: int | None = None  # position of a high surrogate awaiting its low half
    expect_at = -1
    for m in _ESCAPE.finditer(text):
        hexa = m.group(1)
        code = int(hexa, 16) if hexa else -1
        if pending is not None:
            if m.start() == expect_at and 0xDC00 <= code <= 0xDFFF:
                pending = None
                continue
            return pending
        if 0xD800 <= code <= 0xDBFF:
            pending, expect_at = m.start(), m.end()
        elif 0xDC00 <= code <= 0xDFFF:
            return m.start()
    return pending


class _Refused(Exception):
    def __init__(self, code: str, message: str, needle: str) -> None:
        super().__init__(message)
        self.code, self.message, self.needle = code, message, needle


def _parse_int(s: str) -> int:
    digits = len(s.lstrip("-"))
    if digits > MAX_INT_DIGITS:
        raise _Refused(
            "bad_number",
            f"an integer of {digits} digits (at most {MAX_INT_DIGITS} are accepted)",
            s[:20],
        )
    return int(s)


def _parse_float(s: str) -> float:
    if len(s) > MAX_INT_DIGITS * 4:
        raise _Refused("bad_number", f"a number written with {len(s)} characters", s[:20])
    v = float(s)
    if not math.isfinite(v):
        raise _Refused(
            "bad_number", f"{s[:30]} is too large: NaN or infinite numbers are refused", s[:20]
        )
    return v


def _parse_constant(s: str) -> Any:
    raise _Refused(
        "bad_number", f"{s} is not a JSON number (NaN or infinite numbers are refused)", s
    )


def loads_json(
    text: str | bytes,
    where: str,
    *,
    error: type[BoardwrightError] = InputError,
    max_bytes: int = MAX_FILE_BYTES,
    max_depth: int = MAX_DEPTH,
) -> Any:
    """Parse JSON text safely; every refusal is one ``error`` located at ``where``.

    Parameters
    ----------
    text
        The JSON text (bytes are decoded as strict UTF-8).
    where
        What the text is, for messages: a file name or ``"request"``.
    error
        The error class raised (e.g. :class:`~referee.errors.StateError` for states).

    Notes
    -----
    Linear in the size of the text, and 4-6x :func:`json.loads` in CPU time
    (``bench/safeio.py``): the depth is found with C-speed regexes and numpy
    (:func:`_max_depth`), surrogate escapes are scanned only when one is in sight,
    and the per-number hooks run only when a long number or a 3-digit exponent is
    in the text; the slow, position-finding scans run only to word an error.
    """
    size = len(text)
    if size > max_bytes:
        raise error(
            f"{size} bytes is too large (limit {max_bytes} bytes)", code="too_large", location=where
        )
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise error(
                f"not UTF-8 text (byte {exc.start}: {exc.reason})", code="bad_json", location=where
            ) from None
    if text.startswith("\ufeff"):
        text = text[1:]
    masked: str | None = None
    if text.count("[") + text.count("{") > max_depth and _max_depth(text) > max_depth:
        masked = _mask_strings(text)
        pos = _check_depth(masked, max_depth)
        raise error(
            f"nested deeper than {max_depth} levels"
            + (f" at {_line_col(text, pos)}" if pos is not None else ""),
            code="too_deep",
            location=where,
        )
    if _SURROGATE_ESCAPE.search(text):
        pos = _lone_surrogate(text)
        if pos is not None:
            raise error(
                f"a lone surrogate escape {text[pos : pos + 6]} at {_line_col(text, pos)} "
                "(not a character; it cannot be written back)",
                code="bad_text",
                location=where,
            )
    # number hooks cost a Python call per number: only when a long one is in sight
    hooks: dict[str, Any] = {}
    if _has_long_number(text):
        hooks = {"parse_int": _parse_int, "parse_float": _parse_float}
    try:
        return json.loads(text, parse_constant=_parse_constant, **hooks)
    except _Refused as exc:
        if masked is None:
            masked = _mask_strings(text)
        pos = masked.find(exc.needle)
        at = f" at {_line_col(text, pos)}" if pos >= 0 else ""
        raise error(f"{exc.message}{at}", code=exc.code, location=where) from None
    except json.JSONDecodeError as exc:
        raise error(
            f"malformed JSON at line {exc.lineno} column {exc.colno}: {exc.msg}",
            code="bad_json",
            location=where,
        ) from None
    except RecursionError:  # pragma: no cover - the depth check comes first
        raise error("nested too deeply", code="too_deep", location=where) from None
    except ValueError as exc:  # e.g. an integer beyond Python's own digit limit
        raise error(f"bad number ({exc})", code="bad_number", location=where) from None


def read_bytes(
    path: str | os.PathLike[str],
    *,
    error: type[BoardwrightError] = InputError,
    max_bytes: int = MAX_FILE_BYTES,
) -> bytes:
    """The bytes of a regular file, refusing FIFOs, devices, folders and oversize files.

    Notes
    -----
    The file is opened with ``O_NONBLOCK`` and checked with ``fstat`` before any
    read, so a FIFO or a device is refused at once instead of blocking forever.
    """
    p = str(path)
    try:
        fd = os.open(p, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        raise error("no such file", code="not_found", location=p) from None
    except IsADirectoryError:
        raise error("is a folder, not a file", location=p) from None
    except OSError as exc:
        raise error(f"cannot read: {exc.strerror or exc}", location=p) from None
    try:
        st = os.fstat(fd)
        if stat.S_ISDIR(st.st_mode):
            raise error("is a folder, not a file", location=p)
        if not stat.S_ISREG(st.st_mode):
            raise error(
                "not a regular file (a FIFO, socket or device is refused)",
                code="not_regular",
                location=p,
            )
        if st.st_size > max_bytes:
            raise error(
                f"{st.st_size} bytes is too large (limit {max_bytes} bytes)",
                code="too_large",
                location=p,
            )
        chunks = []
        total = 0
        while True:
            try:
                chunk = os.read(fd, 1 << 20)
            except OSError as exc:
                raise error(f"cannot read: {exc.strerror or exc}", location=p) from None
            if not chunk:
                break
            total += len(chunk)
            if total > max_bytes:
                raise error(f"larger than {max_bytes} bytes", code="too_large", location=p)
            chunks.append(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)


def check_regular_file(
    path: str | os.PathLike[str], error: type[BoardwrightError]
) -> os.stat_result:
    """``stat`` of ``path`` if it is an existing regular file; else one ``error``."""
    p = str(path)
    try:
        st = os.stat(p)
    except FileNotFoundError:
        raise error("no such file", code="not_found", location=p) from None
    except OSError as exc:
        raise error(f"cannot read: {exc.strerror or exc}", location=p) from None
    if stat.S_ISDIR(st.st_mode):
        raise error("is a folder, not a file", location=p)
    if not stat.S_ISREG(st.st_mode):
        raise error(
            "not a regular file (a FIFO, socket or device is refused)",
            code="not_regular",
            location=p,
        )
    return st


def read_json(
    path: str | os.PathLike[str],
    error: type[BoardwrightError] = InputError,
    *,
    max_bytes: int = MAX_FILE_BYTES,
) -> Any:
    """Read and parse a JSON file with :func:`loads_json`'s limits."""
    return loads_json(
        read_bytes(path, error=error, max_bytes=max_bytes),
        str(path),
        error=error,
        max_bytes=max_bytes,
    )


def read_text(
    path: str | os.PathLike[str],
    error: type[BoardwrightError] = InputError,
    *,
    max_bytes: int = MAX_FILE_BYTES,
) -> str:
    """A regular file's text (strict UTF-8), with the size limit."""
    data = read_bytes(path, error=error, max_bytes=max_bytes)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise error(
            f"not UTF-8 text (byte {exc.start}: {exc.reason})", code="bad_text", location=str(path)
        ) from None


def loads_toml(
    text: str, where: str, *, error: type[BoardwrightError] = InputError, max_depth: int = MAX_DEPTH
) -> dict[str, Any]:
    """Parse TOML safely: syntax, depth, integer digits, ``nan``/``inf``, lone surrogates."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise error(f"not valid TOML: {exc}", code="bad_toml", location=where) from None
    except RecursionError:
        raise error(
            f"nested deeper than {max_depth} levels", code="too_deep", location=where
        ) from None
    except ValueError as exc:  # an integer beyond Python's digit limit
        raise error(f"bad number ({exc})", code="bad_number", location=where) from None
    check_value(data, where, error=error, max_depth=max_depth)
    return data


def read_toml(
    path: str | os.PathLike[str],
    error: type[BoardwrightError] = InputError,
    *,
    max_bytes: int = MAX_FILE_BYTES,
) -> dict[str, Any]:
    """Read and parse a TOML file with :func:`loads_toml`'s limits."""
    return loads_toml(read_text(path, error, max_bytes=max_bytes), str(path), error=error)


def _path_str(path: list[str | int]) -> str:
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "(top)"


def find_bad_value(value: Any, max_depth: int = MAX_DEPTH) -> tuple[str, str, str] | None:
    """The first value JSON cannot carry safely: ``(code, message, place)`` or None.

    Checks nesting depth, non-finite floats, integers over :data:`MAX_INT_DIGITS`
    digits and strings (or keys) holding lone surrogates. Iterative (no recursion).
    """
    limit = 10**MAX_INT_DIGITS
    stack: list[tuple[Any, list[str | int]]] = [(value, [])]
    while stack:
        v, path = stack.pop()
        if len(path) > max_depth:
            return ("too_deep", f"nested deeper than {max_depth} levels", _path_str(path))
        if isinstance(v, bool) or v is None:
            continue
        if isinstance(v, float):
            if not math.isfinite(v):
                return ("bad_number", f"{v} is not a finite number", _path_str(path))
        elif isinstance(v, int):
            if abs(v) >= limit:
                return (
                    "bad_number",
                    f"an integer of more than {MAX_INT_DIGITS} digits",
                    _path_str(path),
                )
        elif isinstance(v, str):
            if not _utf8_ok(v):
                return ("bad_text", "a string with a lone surrogate", _path_str(path))
        elif isinstance(v, dict):
            for k, item in v.items():
                if isinstance(k, str) and not _utf8_ok(k):
                    return ("bad_text", "a key with a lone surrogate", _path_str(path))
                stack.append((item, [*path, str(k)]))
        elif isinstance(v, (list, tuple)):
            stack.extend((item, [*path, i]) for i, item in enumerate(v))
    return None


def _utf8_ok(s: str) -> bool:
    try:
        s.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def check_value(
    value: Any,
    where: str,
    *,
    error: type[BoardwrightError] = InputError,
    max_depth: int = MAX_DEPTH,
) -> None:
    """Raise ``error`` if :func:`find_bad_value` finds anything in ``value``."""
    bad = find_bad_value(value, max_depth)
    if bad is not None:
        code, message, place = bad
        raise error(f"{place}: {message}", code=code, location=where)


# ====================================================================== writing
def dumps_json(
    value: Any,
    where: str = "output",
    *,
    indent: int | None = None,
    sort_keys: bool = False,
    error: type[BoardwrightError] = OutputError,
) -> str:
    """JSON text of ``value`` that any standard reader (and :func:`loads_json`) accepts.

    Refuses (one ``error`` naming ``where`` and the place inside the value) NaN,
    infinities, lone surrogates, integers over :data:`MAX_INT_DIGITS` digits and
    nesting over :data:`MAX_DEPTH`, instead of writing text that is not JSON.
    """
    bad = find_bad_value(value)
    if bad is not None:
        code, message, place = bad
        raise error(f"cannot write {place}: {message}", code=code, location=where)
    return json.dumps(
        value, indent=indent, ensure_ascii=False, allow_nan=False, sort_keys=sort_keys
    )


def finite(
    value: float, name: str, *, low: float | None = None, high: float | None = None
) -> float:
    """``value`` if it is a finite number within ``[low, high]``; else a usage error.

    For numeric command-line flags and request fields (``--dpi``, ``--px-per-mm``, …),
    checked before any work starts.
    """
    from .errors import UsageError

    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise UsageError(f"{name} must be a number, not {value!r}")
    if isinstance(value, float) and not math.isfinite(value):
        raise UsageError(f"{name} must be a finite number, not {value}")
    if low is not None and value < low:
        raise UsageError(f"{name} must be at least {low:g}, not {value:g}")
    if high is not None and value > high:
        raise UsageError(f"{name} must be at most {high:g}, not {value:g}")
    return value


def option_value(text: str, name: str) -> Any:
    """A ``KEY=VALUE`` option's value: bool, int, finite float, or the text itself.

    ``nan``, ``inf`` and numbers too long to be meant as numbers are refused
    (a usage error naming ``name``) rather than passed on to the rules.
    """
    from .errors import UsageError

    low = text.lower()
    if low in ("true", "yes", "on"):
        return True
    if low in ("false", "no", "off"):
        return False
    if low.lstrip("+-") in ("nan", "inf", "infinity"):
        raise UsageError(f"{name}={text}: numbers must be finite")
    if _NUMBER.fullmatch(text.strip().replace("_", "")):
        if len(text) > MAX_INT_DIGITS:
            raise UsageError(f"{name}: a number of {len(text)} characters is too long")
        try:
            return int(text)
        except ValueError:
            pass
        v = float(text)
        if not math.isfinite(v):
            raise UsageError(f"{name}={text}: numbers must be finite")
        return v
    return text


_NUMBER = re.compile(r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?")


def sqlite_readonly_uri(path: str | os.PathLike[str]) -> str:
    """A read-only, immutable SQLite URI for ``path``, every special character quoted.

    ``immutable=1`` makes SQLite take no locks and create no ``-shm``/``-wal``/journal
    file: a reader leaves the folder exactly as it found it. A path with ``#``, ``?``
    or ``%`` in it names the right file (the URI is built with :func:`urllib.parse.quote`,
    not string formatting).
    """
    import urllib.parse

    return "file:" + urllib.parse.quote(os.path.abspath(path)) + "?mode=ro&immutable=1"


# ====================================================================== atomic files
def _tmp_prefix(name: str) -> str:
    return f".{name}."


def _pid_alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # EPERM: it exists, owned by someone else
        return True
    return True


def remove_stale_temps(target: Path) -> list[Path]:
    """Remove temporary files of ``target`` left by processes that no longer run.

    Only our own names are touched: ``.<name>.<pid>.<hex>.bwtmp`` (and SQLite's
    ``-journal``/``-wal``/``-shm`` beside them) whose ``pid`` is not alive.
    """
    removed: list[Path] = []
    prefix = _tmp_prefix(target.name)
    try:
        names = os.listdir(target.parent)
    except OSError:
        return removed
    for n in names:
        if not n.startswith(prefix):
            continue
        rest = n[len(prefix) :]
        m = re.fullmatch(r"(\d+)\.[0-9a-f]+\.bwtmp(-journal|-wal|-shm)?", rest)
        if m is None or _pid_alive(int(m.group(1))):
            continue
        p = target.parent / n
        with contextlib.suppress(OSError):
            p.unlink()
            removed.append(p)
    return removed


def resolve_target(path: str | os.PathLike[str]) -> Path:
    """The file a write to ``path`` must replace: through symlinks, to their target."""
    p = Path(path)
    if p.is_symlink():
        return Path(os.path.realpath(p))
    return p


@contextlib.contextmanager
def atomic_build(path: str | os.PathLike[str], *, where: str | None = None) -> Iterator[Path]:
    """Yield the path of a fresh, empty temporary file; on success it replaces ``path``.

    The body writes the temporary file completely (e.g. builds a SQLite database in
    it); then it is ``fsync``'ed, given the mode of the file it replaces and renamed
    over the target. On any failure the temporary file is removed and the target
    is untouched. ``OSError`` becomes :class:`OutputError` naming ``path``.

    Notes
    -----
    The temporary file lives in the target's folder (a rename is atomic only within
    one file system) and is created with ``O_CREAT | O_EXCL`` under a random name,
    so an attacker's symlink planted there is never followed.
    """
    target = resolve_target(path)
    folder = target.parent
    label = where or str(path)
    if not folder.is_dir():
        raise OutputError(f"cannot write: folder {folder} does not exist", location=label)
    if target.is_dir():
        raise OutputError("cannot write: it is a folder", location=label)
    remove_stale_temps(target)
    mode: int | None = None
    with contextlib.suppress(OSError):
        st = os.stat(target)
        if stat.S_ISREG(st.st_mode):
            mode = stat.S_IMODE(st.st_mode)
    tmp = folder / f"{_tmp_prefix(target.name)}{os.getpid()}.{secrets.token_hex(6)}{TMP_SUFFIX}"
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0), 0o666)
    except OSError as exc:
        raise OutputError(f"cannot write: {exc.strerror or exc}", location=label) from None
    try:
        if mode is not None:
            os.fchmod(fd, mode)
        os.close(fd)
        fd = -1
        yield tmp
        fd = os.open(tmp, os.O_RDONLY)
        os.fsync(fd)
        os.close(fd)
        fd = -1
        os.replace(tmp, target)
        _fsync_dir(folder)
    except OSError as exc:
        _cleanup(fd, tmp)
        raise OutputError(f"cannot write: {exc.strerror or exc}", location=label) from None
    except BaseException:
        _cleanup(fd, tmp)
        raise


def _cleanup(fd: int, tmp: Path) -> None:
    if fd >= 0:
        with contextlib.suppress(OSError):
            os.close(fd)
    for suffix in ("", "-journal", "-wal", "-shm"):
        with contextlib.suppress(OSError):
            os.unlink(f"{tmp}{suffix}")


def atomic_write(
    path: str | os.PathLike[str], data: bytes | str, *, where: str | None = None
) -> None:
    """Replace ``path`` with ``data`` (text is written as UTF-8) atomically; see :func:`atomic_build`."""
    raw = data.encode("utf-8") if isinstance(data, str) else data
    with atomic_build(path, where=where) as tmp:
        fd = os.open(tmp, os.O_WRONLY | getattr(os, "O_CLOEXEC", 0))
        try:
            view = memoryview(raw)
            while view:
                n = os.write(fd, view)
                view = view[n:]
        finally:
            os.close(fd)


def write_json(
    path: str | os.PathLike[str], value: Any, *, indent: int | None = 1, where: str | None = None
) -> None:
    """:func:`dumps_json` + newline, written with :func:`atomic_write`."""
    atomic_write(path, dumps_json(value, where or str(path), indent=indent) + "\n", where=where)


def _fsync_dir(d: Path) -> None:
    try:
        fd = os.open(d, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
