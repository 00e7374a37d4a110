"""``referee serve``: any line a client sends gets one standard JSON answer."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from .corpus_projects import ROOT, mutated_projects


@settings(max_examples=60, deadline=None)
@given(
    raw=st.one_of(
        st.binary(max_size=300),
        mutated_projects().map(lambda b: b[:2000]),
        st.recursive(
            st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
            lambda c: (
                st.lists(c, max_size=3)
                | st.dictionaries(
                    st.sampled_from(
                        [
                            "op",
                            "id",
                            "game",
                            "move",
                            "state",
                            "rules",
                            "project",
                            "players",
                            "seed",
                            "options",
                            "view",
                        ]
                    ),
                    c,
                    max_size=5,
                )
            ),
            max_leaves=12,
        ).map(lambda v: json.dumps(v, allow_nan=True).encode()),
    )
)
def test_any_server_line_gets_one_standard_json_answer(raw):
    from referee.cli.stdio import Server

    srv = Server(4096, projects=ROOT / "projects")
    resp = srv.handle_line(raw.replace(b"\n", b" "))
    line = srv.encode(resp)
    assert line.count("\n") == 1 and isinstance(json.loads(line)["ok"], bool)
    if not resp["ok"]:
        assert resp["error"]["code"] != "internal_error", resp
