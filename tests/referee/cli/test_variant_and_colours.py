"""``--variant`` is the game's own ``variant`` option; Ringgeister's ``colours`` is a
list option the kit checks (issue 26).

Run in-process through ``referee.cli.main`` on the shipped projects.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from referee.cli import main

ROOT = Path(__file__).resolve().parents[3]
PROJECTS = ROOT / "projects"


def run(capsys, *argv: str) -> tuple[int, str, str]:
    rc = main(list(argv))
    out = capsys.readouterr()
    return rc, out.out, out.err


def new(capsys, rules: str, players: int, *extra: str) -> tuple[int, str, str]:
    return run(
        capsys, "new", rules, str(PROJECTS / rules), "--players", str(players), "--seed", "3",
        *extra,
    )  # fmt: skip


def one_line_usage_error(rc: int, err: str) -> str:
    assert rc == 2, err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err, err
    return err


def test_variant_sets_the_games_declared_variant_option(capsys):
    rc, out, err = new(capsys, "mount-doom", 3, "--variant", "both")
    assert rc == 0, err
    assert json.loads(out)["state"]["options"]["variant"] == "both"
    rc, out, err = new(capsys, "ringgeister", 3, "--variant", "B")
    assert rc == 0, err
    assert json.loads(out)["state"]["options"]["variant"] == "B"


def test_a_misspelt_variant_names_the_games_variants_and_the_nearest(capsys):
    err = one_line_usage_error(*new(capsys, "mount-doom", 3, "--variant", "bth")[::2])
    assert "mount-doom has variants standard, friends-in-need, without-protection, both" in err
    assert "did you mean 'both'" in err


def test_a_game_without_variants_refuses_the_flag(capsys):
    err = one_line_usage_error(*new(capsys, "lotr-coop", 2, "--variant", "A")[::2])
    assert "lotr-coop has no variant option" in err
    rc, _, err = run(
        capsys, "selfplay", "lotr-coop", str(PROJECTS / "lotr-coop"), "--games", "1",
        "--variant", "A",
    )  # fmt: skip
    assert "lotr-coop has no variant option" in one_line_usage_error(rc, err)


def test_the_variant_given_twice_is_refused(capsys):
    err = one_line_usage_error(
        *new(capsys, "ringgeister", 2, "--variant", "B", "--option", "variant=A")[::2]
    )
    assert "twice" in err


def test_colours_seat_the_players_in_the_order_given(capsys):
    rc, out, err = new(capsys, "ringgeister", 2, "--option", "colours=purple,green")
    assert rc == 0, err
    state = json.loads(out)["state"]
    assert state["players"] == ["purple", "green"]
    assert state["options"]["colours"] == ["purple", "green"]


@pytest.mark.parametrize(
    ("colours", "players", "words"),
    [
        ("orange,gren", 2, ("'colours'", "yellow, orange, purple, green", "did you mean 'green'")),
        ("orange,orange", 2, ("'colours'", "'orange' twice")),
        ("orange,green", 3, ("'colours'", "2 colours for 3 players")),
    ],
)
def test_bad_colours_are_refused_in_one_line(capsys, colours, players, words):
    err = one_line_usage_error(
        *new(capsys, "ringgeister", players, "--option", f"colours={colours}")[::2]
    )
    for w in words:
        assert w in err


def test_a_state_file_storing_colours_as_text_still_loads(capsys, tmp_path):
    state = tmp_path / "g.json"
    rc, _, err = new(capsys, "ringgeister", 2, "--option", "colours=orange,green", "-o", str(state))
    assert rc == 0, err
    env = json.loads(state.read_text())
    env["state"]["options"]["colours"] = "orange,green"  # as files written before this
    state.write_text(json.dumps(env))
    rc, out, err = run(capsys, "moves", str(state))
    assert rc == 0, err
    assert out.strip()
