"""``referee position``, ``referee schema`` and ``referee new --position``, for every
game that has adopted the kit (the checks of issue 14)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from referee.cli import main
from referee.games import get_module, modules

ROOT = Path(__file__).resolve().parents[3]
KIT_GAMES = sorted(n for n, rm in modules().items() if rm.game.POSITION is not None)
BOARDS = {"ringgeister": ROOT / "projects" / "ringgeister"}


def board_of(name: str) -> Path:
    return get_module(name).sample_path() or BOARDS[name]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    rc = main(list(argv))
    out = capsys.readouterr()
    return rc, out.out, out.err


def moves(capsys: pytest.CaptureFixture[str], state: Path) -> Any:
    rc, out, err = run(capsys, "moves", str(state), "--json")
    assert rc == 0, err
    return json.loads(out)


@pytest.mark.parametrize("name", KIT_GAMES)
def test_new_position_new_gives_the_same_legal_moves(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, name: str
) -> None:
    lo = get_module(name).game.PLAYERS[0]
    a, pos, b = tmp_path / "a.json", tmp_path / "pos.json", tmp_path / "b.json"
    board = str(board_of(name))
    assert (
        run(capsys, "new", name, board, "--players", str(max(lo, 2)), "--seed", "3", "-o", str(a))[
            0
        ]
        == 0
    )
    legal = moves(capsys, a)
    assert legal["moves"]
    assert run(capsys, "play", str(a), legal["moves"][0], "-o", str(a))[0] == 0
    assert run(capsys, "position", str(a), "-o", str(pos))[0] == 0
    assert run(capsys, "new", name, board, "--position", str(pos), "-o", str(b))[0] == 0
    assert moves(capsys, b) == moves(capsys, a)
    rc, _, err = run(capsys, "replay", str(b))
    assert rc == 0, err


@pytest.mark.parametrize("name", KIT_GAMES)
def test_an_invalid_position_is_refused_in_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, name: str
) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"players": ["nobody-at-all"], "bogus": 1}))
    rc, out, err = run(capsys, "new", name, str(board_of(name)), "--position", str(bad))
    assert rc == 1 and out == ""
    assert err.count("\n") == 1 and str(bad) in err


@pytest.mark.parametrize("name", KIT_GAMES)
def test_schema_position_validates_the_shipped_positions(
    capsys: pytest.CaptureFixture[str], name: str
) -> None:
    jsonschema = pytest.importorskip("jsonschema")
    rc, out, _ = run(capsys, "schema", "position", name)
    assert rc == 0
    schema = json.loads(out)
    jsonschema.Draft202012Validator.check_schema(schema)
    shipped = [
        *get_module(name).position_paths(),
        *(ROOT / "docs/positions").glob(f"{name}-*.json"),
    ]
    assert shipped
    for p in shipped:
        jsonschema.validate(json.loads(p.read_text()), schema)


def test_new_needs_players_or_a_position(capsys: pytest.CaptureFixture[str]) -> None:
    rc, _, err = run(capsys, "new", "ringgeister", str(BOARDS["ringgeister"]))
    assert rc == 2 and "--players is required" in err


SHIPPED = {
    "lotr-coop": "lotr-coop-moria.json",
    "mount-doom": "mount-doom-start.json",
    "riddle": "riddle-of-the-ring.json",
    "ringgeister": "ringgeister-start.json",
}
#: a name each game's --names position writes (the shipped position's places)
A_NAME = {
    "lotr-coop": ("corruption", "frodo", "corruption space 0"),
    "mount-doom": ("companions", "ringbearer", "Rivendell"),
    "riddle": ("places", "frodo", "Elderhaven"),
    "ringgeister": ("figures", "hobbit-yellow", "white starting point 3"),
}


#: a card each game's --names position writes by its title (games whose positions read
#: titles): the field, the key, the id written without --names and the title with it
A_CARD = {
    "riddle": ("hands", "frodo", "the_ring", "The Ring"),
    "mount-doom": ("gandalf_stack", 0, "flame-of-anor", "Flame of Anor"),
    "lotr-coop": ("features_on_board", 0, "book", "Book of Mazarbul"),
}


def _state(path: Path) -> Any:
    return json.loads(path.read_text())["state"]


@pytest.mark.parametrize("name", sorted(SHIPPED))
def test_position_with_and_without_names_sets_up_the_same_game(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, name: str
) -> None:
    """``referee position`` then ``referee new --position`` is the identity, for the
    position written with ids and for the one written with the rulebook's names."""
    board = str(board_of(name))
    shipped = ROOT / "docs" / "positions" / SHIPPED[name]
    a, ids, named = tmp_path / "a.json", tmp_path / "ids.json", tmp_path / "named.json"
    b, c, d = tmp_path / "b.json", tmp_path / "c.json", tmp_path / "d.json"
    assert run(capsys, "new", name, board, "--position", str(shipped), "-o", str(a))[0] == 0
    assert run(capsys, "position", str(a), "-o", str(ids))[0] == 0
    assert run(capsys, "position", str(a), "--names", "-o", str(named))[0] == 0
    field, key, expected = A_NAME[name]
    assert json.loads(ids.read_text())[field][key] != expected
    assert json.loads(named.read_text())[field][key] == expected
    if name in A_CARD:  # cards by the titles the rulebook prints
        field, key, card, title = A_CARD[name]
        assert card in json.loads(ids.read_text())[field][key]
        assert title in json.loads(named.read_text())[field][key]
        assert card not in json.loads(named.read_text())[field][key]
    assert run(capsys, "new", name, board, "--position", str(ids), "-o", str(b))[0] == 0
    assert run(capsys, "new", name, board, "--position", str(named), "-o", str(c))[0] == 0
    assert _state(b) == _state(a) == _state(c)
    # and once more from the named game: the names survive the round trip
    assert run(capsys, "position", str(c), "--names", "-o", str(d))[0] == 0
    assert json.loads(d.read_text()) == json.loads(named.read_text())


def test_a_name_several_places_share_stays_an_id() -> None:
    from referee.games.names import with_names

    pos = {"rules": "x", "a": "n1", "b": ["n2", "n3"]}
    names = [("Hill", "n1"), ("Ford", "n2"), ("ford", "n3"), ("n1 again", "n1")]
    out = with_names(pos, names, lambda trial: True, keep=("rules",))
    assert out == {"rules": "x", "a": "Hill", "b": ["n2", "n3"]}
    # a field the game would not read back the same keeps its ids
    assert with_names(pos, names, lambda trial: trial["a"] != "Hill") == pos


def test_names_write_cards_by_title_only_where_they_read_back_the_same(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A title reads as the first free copy of its card, so of the copies of one card
    only those that rise in the deck's order along the reading are written by title
    (``boat.2`` in a hand before ``boat.1`` on the pile: one stays an id); a title
    several cards share (Horse) is written by none; fixed draws of a kind are written
    by title. The named position sets up the same game."""
    import jsonschema

    from referee.games.riddle import RiddleGame

    board = str(board_of("riddle"))
    shipped = json.loads((ROOT / "docs" / "positions" / SHIPPED["riddle"]).read_text())
    pos = {k: v for k, v in shipped.items() if k not in ("hands", "draw", "discard")}
    pos |= {
        "hands": {"frodo": ["boat.2", "horse3"], "rider1": ["boat.3"], "sam": ["the_ring"]},
        "draw": ["boat.1"],
        "draw_rest": True,
        "draws": ["boat", "horse3"],
    }
    src, a, named, b = (tmp_path / f"{n}.json" for n in ("src", "a", "named", "b"))
    src.write_text(json.dumps(pos))
    assert run(capsys, "new", "riddle", board, "--position", str(src), "-o", str(a))[0] == 0
    assert run(capsys, "position", str(a), "--names", "-o", str(named))[0] == 0
    out = json.loads(named.read_text())
    hands = out["hands"]
    assert hands["sam"] == ["The Ring"] and hands["frodo"][1] == "horse3"
    boats = [hands["frodo"][0], hands["rider1"][0], out["draw"][0]]
    assert boats.count("Boat") == 2 and sorted(set(boats) - {"Boat"}) == ["boat.1"]
    assert out["draws"] == ["Boat", "horse3"]
    jsonschema.validate(out, RiddleGame.position_schema())
    assert run(capsys, "new", "riddle", board, "--position", str(named), "-o", str(b))[0] == 0
    assert _state(b) == _state(a)
