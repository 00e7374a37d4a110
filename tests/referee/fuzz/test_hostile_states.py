"""The game verbs (moves, play, replay, position) on hostile states and replay logs."""

from __future__ import annotations

import json

import pytest

from .corpus_projects import PROJECTS
from .harness import check_refusal, run_cli, snapshot

STATE_KINDS = 43


def test_state_corpus_size(states):
    assert len(states) == STATE_KINDS
    assert len(PROJECTS) + len(states) >= 150, len(PROJECTS) + len(states)


@pytest.mark.parametrize("index", range(STATE_KINDS))
def test_every_game_verb_refuses_a_hostile_state(index, states, tmp_path, capsys):
    """moves / play / replay on a malformed state or log: exit 1, one line naming the file."""
    kind, writer = states[index]
    src = tmp_path / "in"
    src.mkdir()
    path = writer(src)
    before = snapshot(src)
    for argv in (
        ["moves", str(path)],
        ["moves", str(path), "--json"],
        ["play", str(path), "1", "-o", str(src / "new.json")],
        ["play", str(path), "pass", "-o", str(path)],
        ["replay", str(path)],
        ["position", str(path), "-o", str(src / "new.json")],
    ):
        rc, out, err = run_cli(argv, capsys)
        if rc == 0 and argv[0] != "play":
            # a few edits (e.g. an unused field) still make a usable state: fine,
            # as long as nothing crashed
            continue
        if kind.startswith("log-") and argv[0] != "replay" and rc == 0:
            continue
        if argv[0] == "play" and rc == 0:
            continue
        if argv[0] == "play" and rc == 1 and "illegal move" in err:
            # a usable state, an illegal move: one line, and nothing written
            assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
            assert snapshot(src) == before
            continue
        check_refusal(rc, out, err, path, before if rc else snapshot(src), src, {"new.json"})


def test_log_shapes_are_refused_by_replay(states, tmp_path, capsys):
    for kind, writer in states:
        if not kind.startswith("log-"):
            continue
        path = writer(tmp_path)
        rc, _, err = run_cli(["replay", str(path)], capsys)
        assert rc == 1 and "log" in err and str(path) in err, (kind, err)


def test_rules_errors_on_a_hand_edited_state_are_bad_state(states, tmp_path, capsys):
    """A state the rules cannot use is one ``bad_state`` line, never a traceback."""
    seen = 0
    for kind, writer in states:
        if kind not in (
            "pos-str",
            "current-99",
            "row-dict",
            "held-int",
            "state-empty",
            "state-list",
        ):
            continue
        path = writer(tmp_path)
        rc, out, err = run_cli(["moves", str(path), "--json"], capsys)
        if rc:
            seen += 1
            assert rc == 1 and len(err.strip().splitlines()) == 1 and str(path) in err
            assert json.loads(out)["error"]["code"]
    assert seen >= 3
