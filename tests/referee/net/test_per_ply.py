"""What the server computes once per ply and shares (issue 30): a snapshot is made
once per ply and viewer, never handed to another viewer; the pieces drawn from
the stack cache are exactly :func:`referee.render.figures_svg`; a project found by
its name is the one the folder's listing gives that name."""

from __future__ import annotations

import dataclasses
import json
import random
from pathlib import Path
from typing import Any

import pytest

from referee.envelopes import new_game
from referee.net.limits import Limits
from referee.net.store import GameStore
from referee.net.tables import Hall
from referee.pieces import figure_dict, pieces_svg
from referee.render import figures_svg
from referee.session import Caller

from .conftest import ADMIN, PROJECTS

GAMES = [
    ("ringgeister", "ringgeister", 2),
    ("riddle", "riddle-sample", 3),
    ("mount-doom", "mount-doom", 2),
    ("lotr-coop", "lotr-coop", 2),
]


@pytest.mark.parametrize(("rules", "project", "players"), GAMES)
def test_pieces_from_the_stack_cache_are_exactly_figures_svg(rules, project, players):
    rnd = random.Random(7)
    for seed in range(3):
        game, _ = new_game(rules, str(PROJECTS / project), players, seed, {})
        for _ in range(40):
            views = list(game.figures().values())
            assert pieces_svg(game, views) == figures_svg(game)
            assert [figure_dict(v) for v in views] == [dataclasses.asdict(v) for v in views]
            if game.outcome is not None:
                break
            game.push(game.parse_move(rnd.choice([str(m) for m in game.legal_moves])))


def _hall(tmp_path: Path) -> Hall:
    return Hall(PROJECTS, GameStore(tmp_path / "g.sqlite"), Limits(), admin_token=ADMIN)


@pytest.mark.parametrize(("rules", "project", "players"), GAMES)
def test_a_snapshot_made_for_one_viewer_is_never_shown_to_another(
    tmp_path, rules, project, players
):
    hall = _hall(tmp_path)
    g = hall.dispatch(
        "new",
        {"rules": rules, "project": project, "players": players, "seed": 11},
        Caller(token=ADMIN),
    )
    gid = g["game"]
    seats = {s["player"]: Caller(token=s["token"]) for s in g["seats"]}
    rnd = random.Random(3)
    for _ in range(12):
        held = hall.games[gid]
        to_move = hall.dispatch("view", {"game": gid}, Caller())["to_move"]
        if to_move is None:
            break
        # the seat to move first (its snapshot, with its moves, is cached), then the rest
        order = [to_move, *(p for p in seats if p != to_move)]
        for _ in range(2):  # the second round comes from the cache
            for p in order:
                snap = hall.dispatch("view", {"game": gid}, seats[p])
                assert snap["you"] == p
                assert snap["view"] == held.game.view(p)
                assert ("moves" in snap) == (p == to_move)
            public = hall.dispatch("view", {"game": gid}, Caller())
            assert public["you"] is None and "moves" not in public and "targets" not in public
            assert public["view"] == held.game.view(None)
            moves = hall.dispatch("moves", {"game": gid}, seats[order[-1]])
            assert moves["moves"] == [] or order[-1] == to_move
        mine = hall.dispatch("view", {"game": gid}, seats[to_move])
        assert mine["moves"] == [str(m) for m in held.game.legal_moves]
        out = hall.dispatch(
            "play",
            {"game": gid, "move": rnd.choice(mine["moves"]), "expect_ply": mine["ply"]},
            seats[to_move],
        )
        assert out["verdict"] == "accepted"
        # the next ply's snapshot is the game as it stands now, not the cached one
        after = hall.dispatch("view", {"game": gid}, Caller())
        assert after["ply"] == mine["ply"] + 1 and after["view"] == held.game.view(None)
    hall.store.close()


def test_an_answer_from_the_cache_is_a_copy_a_caller_may_change(tmp_path):
    hall = _hall(tmp_path)
    g = hall.dispatch(
        "new",
        {"rules": "ringgeister", "project": "ringgeister", "players": 2, "seed": 1},
        Caller(token=ADMIN),
    )
    first = hall.dispatch("view", {"game": g["game"]}, Caller())
    first["ply"] = 99
    first["extra"] = True
    again = hall.dispatch("view", {"game": g["game"]}, Caller())
    assert again["ply"] == 0 and "extra" not in again
    hall.store.close()


def test_a_project_found_by_name_is_the_one_the_listing_names(tmp_path):
    root = tmp_path / "projects"
    root.mkdir()
    src = (PROJECTS / "ringgeister").iterdir()
    board = next(p for p in src if p.suffix == ".bwproj").read_bytes()
    (root / "a").mkdir()
    (root / "a" / "board.bwproj").write_bytes(board)
    (root / "a.bwproj").write_bytes(board)  # the folder a comes first
    (root / "b.bwproj").write_bytes(board)
    (root / "b.json").write_bytes(board)  # b.bwproj comes first
    (root / "c.json").write_bytes(board)
    (root / "d.bwproj").mkdir()  # a folder named d.bwproj is "d.bwproj", not "d"
    (root / "d.bwproj" / "x.bwproj").write_bytes(board)
    (root / "e").mkdir()  # a folder with no project file: skipped, e.json names e
    (root / "e.json").write_bytes(board)
    (root / "f").write_bytes(board)  # no suffix: not a project
    (root / "g.bwproj").symlink_to(tmp_path / "outside.bwproj")  # outside: refused
    (tmp_path / "outside.bwproj").write_bytes(board)
    (root / ".hidden.bwproj").write_bytes(board)
    hall = Hall(root, GameStore(":memory:"), Limits(), admin_token=ADMIN)
    listing = hall.project_paths()
    assert set(listing) == {"a", "b", "c", "d.bwproj", "e"}
    for name in [*listing, "d", "f", "g", "hidden", ".hidden", "x", "a.bwproj"]:
        got: Any = hall._named(name)
        assert got == listing.get(name), name
    hall.store.close()


def test_a_shared_snapshot_is_encoded_once_for_every_reader_and_afresh_when_changed(tmp_path):
    from referee.net.app import answer

    hall = _hall(tmp_path)
    g = hall.dispatch(
        "new",
        {"rules": "mount-doom", "project": "mount-doom", "players": 2, "seed": 2},
        Caller(token=ADMIN),
    )
    first = hall.dispatch("view", {"game": g["game"]}, Caller())
    body = answer(first).body
    assert json.loads(body) == first
    second = hall.dispatch("view", {"game": g["game"]}, Caller())
    assert second.memo is not None and second.memo["json"] is body  # not encoded again
    assert answer(second).body is body
    seat = hall.dispatch("view", {"game": g["game"]}, Caller(token=g["seats"][0]["token"]))
    assert answer(seat).body != body  # another viewer, another answer
    second["ply"] = 42  # a caller that changes its copy gets its copy encoded
    assert second.memo is None and json.loads(answer(second).body)["ply"] == 42
    third = hall.dispatch("view", {"game": g["game"]}, Caller())
    assert answer(third).body is body and json.loads(body)["ply"] == 0
    hall.store.close()


def test_what_a_snapshot_omits_is_not_made_and_what_it_carries_is_made_once_a_ply(
    tmp_path, monkeypatch
):
    import referee.shown as shown_mod
    from referee.errors import RequestError

    made: list[str] = []
    drawn = shown_mod.pieces_svg
    monkeypatch.setattr(shown_mod, "pieces_svg", lambda *a: made.append("pieces") or drawn(*a))
    hall = _hall(tmp_path)
    g = hall.dispatch(
        "new",
        {"rules": "ringgeister", "project": "ringgeister", "players": 2, "seed": 3},
        Caller(token=ADMIN),
    )
    held = hall.lookup(g["game"])
    targets = type(held.game).move_targets
    monkeypatch.setattr(
        type(held.game), "move_targets", lambda self: made.append("targets") or targets(self)
    )
    seat = Caller(token=g["seats"][0]["token"])
    everything = ["figures", "pieces", "targets"]
    bare = hall.dispatch("view", {"game": g["game"], "omit": everything}, seat)
    assert not {"figures", "pieces", "targets"} & set(bare) and bare["moves"]
    assert made == [] and "figures" not in shown_mod.per_ply(held)
    whole = hall.dispatch("view", {"game": g["game"]}, seat)
    assert whole["pieces"] and whole["targets"] and made == ["pieces", "targets"]
    hall.dispatch("view", {"game": g["game"]}, Caller())  # another reader, same ply
    hall.dispatch("view", {"game": g["game"], "omit": ["figures"]}, seat)
    assert made == ["pieces", "targets"]
    for wrong, says in (("pieces", "a list"), ([1], "a list"), (["moves"], "not 'moves'")):
        with pytest.raises(RequestError, match=says):
            hall.dispatch("view", {"game": g["game"], "omit": wrong}, seat)
    hall.store.close()
