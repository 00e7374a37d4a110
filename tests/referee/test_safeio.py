"""referee.safeio: the one reader, the one JSON writer and the one atomic file writer."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee.errors import BoardwrightError, StateError, UsageError
from referee.safeio import (
    MAX_DEPTH,
    MAX_INT_DIGITS,
    OutputError,
    atomic_build,
    atomic_write,
    dumps_json,
    finite,
    loads_json,
    loads_toml,
    option_value,
    read_json,
    remove_stale_temps,
)


def refused(text: str | bytes, **kw) -> BoardwrightError:
    with pytest.raises(BoardwrightError) as info:
        loads_json(text, "f.json", **kw)
    assert str(info.value).startswith("f.json: ")
    assert "\n" not in str(info.value)
    return info.value


@pytest.mark.parametrize(
    "text,code,place",
    [
        ("[" * 5000 + "]" * 5000, "too_deep", "line 1 column 101"),
        (
            '{"a": [1,\n  ' + "[" * (MAX_DEPTH + 5) + "]" * (MAX_DEPTH + 5) + "]}",
            "too_deep",
            "line 2",
        ),
        ('{"n": ' + "9" * 5000 + "}", "bad_number", "line 1 column 7"),
        ('{"n": -' + "9" * (MAX_INT_DIGITS + 1) + "}", "bad_number", "line 1 column 7"),
        ('{"x": 1,\n "y": NaN}', "bad_number", "line 2 column 7"),
        ('{"x": Infinity}', "bad_number", "line 1 column 7"),
        ('{"x": -Infinity}', "bad_number", "line 1 column 7"),
        ('{"x": 1e999}', "bad_number", "line 1 column 7"),
        ('{"id": "\\ud800"}', "bad_text", "line 1 column 9"),
        ('{"id": "ok \\udc00 no"}', "bad_text", "line 1 column 12"),
        ('{"id": "\\ud83d\\u0041"}', "bad_text", "line 1 column 9"),
        ('{"a": 1,}', "bad_json", "line 1 column 9"),
        (b'{"a": "\xff"}', "bad_json", "byte 7"),
    ],
)
def test_the_reader_refuses_with_one_line_naming_the_place(text, code, place):
    err = refused(text)
    assert err.code == code
    assert place in err.message


def test_the_reader_takes_what_is_fine():
    text = '{"pair": "\\ud83d\\ude00", "escaped": "\\\\ud800", "s": "NaN [[[[", "n": -12.5e3}'
    assert loads_json(text, "f") == {
        "pair": "😀",
        "escaped": "\\ud800",
        "s": "NaN [[[[",
        "n": -12500.0,
    }
    deep = "[" * MAX_DEPTH + "]" * MAX_DEPTH
    assert loads_json(deep, "f") is not None
    assert loads_json("9" * MAX_INT_DIGITS, "f") == int("9" * MAX_INT_DIGITS)


def test_the_reader_has_a_size_limit_and_an_error_class():
    err = refused("[1, 2, 3]", max_bytes=4)
    assert err.code == "too_large"
    with pytest.raises(StateError):
        loads_json("nope", "s.json", error=StateError)


@given(
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.floats() | st.text(),
        lambda c: st.lists(c, max_size=4) | st.dictionaries(st.text(max_size=5), c, max_size=4),
        max_leaves=30,
    )
)
def test_writer_and_reader_agree(value):
    """Whatever the writer accepts, the reader reads back equal; what it refuses is named."""
    try:
        text = dumps_json(value, "v")
    except OutputError as exc:
        assert exc.code in ("bad_number", "bad_text", "too_deep")
        return
    assert json.loads(text) == value
    assert loads_json(text, "v") == json.loads(text)


@pytest.mark.parametrize(
    "value,code",
    [
        ({"a": [1, float("nan")]}, "bad_number"),
        ({"a": float("inf")}, "bad_number"),
        ({"a": 10**200}, "bad_number"),
        ({"\ud800": 1}, "bad_text"),
        (["ok", "x\udfff"], "bad_text"),
    ],
)
def test_the_writer_never_writes_what_is_not_json(value, code):
    with pytest.raises(OutputError) as info:
        dumps_json(value, "out.json")
    assert info.value.code == code and "out.json" in str(info.value)


def test_toml_limits():
    with pytest.raises(BoardwrightError) as info:
        loads_toml("x = nan", "b.toml")
    assert info.value.code == "bad_number" and "x" in str(info.value)
    with pytest.raises(BoardwrightError) as info:
        loads_toml("x = " + "[" * 3000 + "]" * 3000, "b.toml")
    assert info.value.code == "too_deep"
    with pytest.raises(BoardwrightError) as info:
        loads_toml("x = " + "9" * 5000, "b.toml")
    assert info.value.code == "bad_number"
    with pytest.raises(BoardwrightError) as info:
        loads_toml("x = = 1", "b.toml")
    assert info.value.code == "bad_toml" and str(info.value).startswith("b.toml: ")
    assert loads_toml("[expect]\nnodes = 3", "b.toml") == {"expect": {"nodes": 3}}


@pytest.mark.parametrize("text", ["nan", "NaN", "inf", "-inf", "Infinity", "1e999", "9" * 300])
def test_option_values_must_be_finite_numbers(text):
    with pytest.raises(UsageError) as info:
        option_value(text, "--option x")
    assert "--option x" in str(info.value)


def test_option_values_convert():
    assert option_value("true", "o") is True
    assert option_value("3", "o") == 3 and option_value("-2.5", "o") == -2.5
    assert option_value("random", "o") == "random" and option_value("a,b", "o") == "a,b"


def test_finite_checks_range():
    assert finite(2.0, "--dpi", low=1) == 2.0
    for bad in (float("nan"), float("inf"), 0.5, "3"):
        with pytest.raises(UsageError, match="--dpi"):
            finite(bad, "--dpi", low=1)  # type: ignore[arg-type]


def test_read_json_refuses_fifos_and_folders_at_once(tmp_path):
    fifo = tmp_path / "f.json"
    os.mkfifo(fifo)
    with pytest.raises(BoardwrightError) as info:
        read_json(fifo)  # would block forever if opened for a plain read
    assert info.value.code == "not_regular"
    with pytest.raises(BoardwrightError):
        read_json(tmp_path)


# ====================================================================== atomic writer
def test_atomic_write_keeps_mode_and_symlink(tmp_path):
    real = tmp_path / "real.json"
    real.write_text("old")
    real.chmod(0o640)
    link = tmp_path / "link.json"
    link.symlink_to(real.name)
    atomic_write(link, "new")
    assert link.is_symlink() and os.readlink(link) == real.name
    assert real.read_text() == "new"
    assert stat.S_IMODE(real.stat().st_mode) == 0o640
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.json", "real.json"]


def test_a_planted_symlink_at_a_temp_name_is_never_followed(tmp_path):
    outside = tmp_path / "outside.txt"
    outside.write_text("precious")
    folder = tmp_path / "work"
    folder.mkdir()
    # the old fixed temp names, and a guess at ours
    for name in (".b.json.writing", ".b.json.saving", f".b.json.{os.getpid()}.0.bwtmp"):
        (folder / name).symlink_to(outside)
    atomic_write(folder / "b.json", "data")
    assert outside.read_text() == "precious"
    assert (folder / "b.json").read_text() == "data"


def test_a_failed_build_leaves_the_old_file_and_no_temp(tmp_path):
    target = tmp_path / "t.json"
    target.write_text("old")
    with pytest.raises(RuntimeError), atomic_build(target) as tmp:
        tmp.write_text("half")
        raise RuntimeError("disk on fire")
    assert target.read_text() == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["t.json"]


def test_stale_temps_of_dead_processes_are_removed_ours_only(tmp_path):
    target = tmp_path / "t.json"
    dead = 2**22 + 12345  # above the default pid_max: never a live process
    stale = tmp_path / f".t.json.{dead}.abc123.bwtmp"
    stale.write_text("x")
    journal = tmp_path / f".t.json.{dead}.abc123.bwtmp-journal"
    journal.write_text("x")
    alive = tmp_path / f".t.json.{os.getppid()}.abc123.bwtmp"
    alive.write_text("x")
    other = tmp_path / ".t.json.notours"
    other.write_text("x")
    atomic_write(target, "v")
    assert not stale.exists() and not journal.exists()
    assert alive.exists() and other.exists()
    assert remove_stale_temps(target) == []


def test_write_into_a_missing_folder_is_one_error(tmp_path):
    with pytest.raises(OutputError) as info:
        atomic_write(tmp_path / "no" / "x.json", "v")
    assert "does not exist" in str(info.value)


def test_dumps_json_roundtrips_a_path_like_value(tmp_path):
    p = tmp_path / "a.json"
    atomic_write(p, dumps_json({"k": [1, 2.5, "é"]}))
    assert read_json(p) == {"k": [1, 2.5, "é"]}
    assert isinstance(Path(p), Path)
