"""The server's one JSON writer (``referee.net.tables.dumps``): orjson writes it, and
what orjson refuses still comes out as JSON a client can read back."""

from __future__ import annotations

import json

from referee.net.tables import dumps


def test_a_view_round_trips_compact_and_utf8():
    data = {"game": "g1", "ply": 3, "moves": ["step a1", "turn t1 +1"], "name": "Frodo ✓"}
    out = dumps(data)
    assert json.loads(out) == data
    # compact separators: byte for byte what the stdlib writes with no spaces
    assert out == json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode()
    assert "✓".encode() in out  # UTF-8, not \\u escapes


def test_a_lone_surrogate_is_written_escaped_not_an_error():
    out = dumps({"name": "bad \ud800 text"})
    assert json.loads(out) == {"name": "bad \ud800 text"}


def test_an_integer_beyond_64_bits_is_written_exactly():
    big = 2**70 + 1
    assert json.loads(dumps({"n": big})) == {"n": big}


def test_a_key_that_is_not_a_string_becomes_one():
    assert json.loads(dumps({3: "x"})) == {"3": "x"}
