"""Adventure to Mount Doom: self-play invariants, serialisation, replays, the move text."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from referee.cli.cmd_game import selfplay
from referee.compiler import compile_board
from referee.errors import IllegalMoveError, StateError
from referee.games import available, get_game
from referee.games.mount_doom.game import MountDoom, Move
from referee.store import load_project

ROOT = Path(__file__).resolve().parents[4]


def play_random(game_cls, compiled, seed: int, players: int = 3) -> tuple[Any, list[str]]:  # type: ignore[no-untyped-def]
    """One seeded game of uniformly random legal moves: the game and its move texts."""
    game = game_cls.new(compiled, players=players, seed=seed)
    policy = random.Random(seed ^ 0x5EED)
    log: list[str] = []
    while game.outcome is None:
        moves = list(game.legal_moves)
        move = moves[policy.randrange(len(moves))]
        game.push(move)
        log.append(str(move))
    return game, log


@pytest.fixture(scope="module")
def compiled():  # type: ignore[no-untyped-def]
    return compile_board(load_project(ROOT / "projects" / "mount-doom"))


def test_registered() -> None:
    assert "mount-doom" in available() and get_game("mount-doom") is MountDoom


def test_board_checks_clean(compiled) -> None:  # type: ignore[no-untyped-def]
    """The generated board has no problems (no isolated spaces, every track point on it)."""
    from referee.checks import rules_problems

    assert compiled.problems == []
    assert rules_problems("mount-doom", compiled) == []
    assert compiled.counts()["edges"]["next"] == sum(
        len(t) - 1
        for t in (
            compiled.board.feature(f).props["points"]
            for f in ("route", "to_rally", "resolve", "isengard", "nazgul_spaces", "encounter_row")
        )
    )


def invariants(g: MountDoom) -> None:
    """Tokens and cards are accounted for."""
    locs = g.card_locations()
    assert sorted(locs) == sorted(g.lay.cards), "a card vanished or appeared"
    assert all(
        v in ("deck", "gandalf_stack", "row", "held", "box", "unseen") for v in locs.values()
    ), "a card is in two places"
    assert 1 <= g.nazgul <= 9 and 0 <= g.uruk <= 5
    assert 0 <= g.ring <= g.lay.dark_end
    assert all(p == -1 or 0 <= p <= g.lay.mount_doom for p in g.pos.values())
    assert g.pos["ringbearer"] >= 0
    if g.outcome is None:
        assert g.queue and g.queue[0]["op"] == "ask" and g.phase == g.queue[0]["phase"]
        assert any(True for _ in g.generate_legal_moves())


@pytest.mark.parametrize("seed", range(12))
def test_selfplay_invariants_and_rejections(compiled, seed: int) -> None:  # type: ignore[no-untyped-def]
    """Random games keep every card in exactly one place, and a rejected move changes
    nothing (the state's JSON is byte-identical before and after)."""
    variant = ["standard", "friends-in-need", "without-protection", "both"][seed % 4]
    g = MountDoom.new(compiled, players=1 + seed % 5, seed=seed, options={"variant": variant})
    pol = random.Random(seed)
    bogus = [
        Move("roll", "gimli", "gimli"),
        Move("go"),
        Move("use", "elrond"),
        Move("place", "9", "aragorn"),
        Move("army", "up"),
        Move("accept"),
    ]
    n = 0
    while g.outcome is None and n < 3000:
        invariants(g)
        legal = list(g.legal_moves)
        before = json.dumps(g.to_json(), sort_keys=True)
        for b in bogus:
            if b not in legal:
                with pytest.raises(IllegalMoveError):
                    g.push(b)
        assert json.dumps(g.to_json(), sort_keys=True) == before
        g.push(legal[pol.randrange(len(legal))])
        n += 1
    invariants(g)
    assert g.outcome is not None


def test_replay_reproduces_game(compiled) -> None:  # type: ignore[no-untyped-def]
    """A game replays bit for bit from seed and move log, also through JSON mid-game."""
    g, log = play_random(MountDoom, compiled, 99)
    r = MountDoom.new(compiled, players=3, seed=99)
    for k, text in enumerate(log):
        if k == len(log) // 2:
            r = MountDoom.from_json(json.loads(json.dumps(r.to_json())), compiled)
        r.push(r.parse_move(text))
    assert r.to_json() == g.to_json() and r.outcome == g.outcome


def test_other_seed_differs(compiled) -> None:  # type: ignore[no-untyped-def]
    a = MountDoom.new(compiled, players=3, seed=1).to_json()["state"]
    b = MountDoom.new(compiled, players=3, seed=2).to_json()["state"]
    assert a["row"] != b["row"] or a["gandalf_stack"] != b["gandalf_stack"]


def test_state_for_other_board_rejected(compiled) -> None:  # type: ignore[no-untyped-def]
    data = MountDoom.new(compiled, players=2, seed=1).to_json()
    data["board_hash"] = "0" * 16
    with pytest.raises(StateError):
        MountDoom.from_json(data, compiled)
    with pytest.raises(StateError):
        MountDoom.from_json({"rules": "mount-doom", "board_hash": compiled.hash}, compiled)


def test_move_text_round_trip(compiled) -> None:  # type: ignore[no-untyped-def]
    g = MountDoom.new(compiled, players=2, seed=5)
    pol = random.Random(1)
    for _ in range(60):
        if g.outcome:
            break
        for m in g.legal_moves:
            assert g.parse_move(str(m)) == m and hash(m) == hash(Move.parse(str(m)))
        ms = list(g.legal_moves)
        g.push(ms[pol.randrange(len(ms))])
    with pytest.raises(IllegalMoveError) as exc:
        g.parse_move("jump over the moon")
    assert exc.value.code == "bad_move"


def test_selfplay_reports_win_rate() -> None:
    """``referee selfplay`` plays seeded games to the end and reports results that add up
    (and the same results again from the same seed)."""

    def run() -> dict[str, Any]:
        return selfplay(
            "mount-doom",
            str(ROOT / "projects" / "mount-doom"),
            games=20,
            seed=3,
            players=3,
            max_moves=20000,
            options={},
        )

    rep = run()
    assert rep["games"] == 20 and "unfinished" not in rep["outcomes"]
    assert sum(rep["outcomes"].values()) == 20 and rep["invariant_violations"] == 0
    assert rep["wins"] == rep["outcomes"].get("won", 0) * 3  # every player wins together
    assert run()["outcomes"] == rep["outcomes"]


def greedy_move(game: MountDoom, policy: random.Random) -> Move:
    """One-ply lookahead on ``game.value()``. The copy carries the seeded generator, so
    the lookahead sees the very roll the move would get: a yardstick showing the game
    can be won, not a fair player."""
    moves = list(game.legal_moves)
    best: list[Move] = []
    best_v = float("-inf")
    for mv in moves:
        g = game.copy()
        g.push(mv)
        v = g.value()
        if v > best_v + 1e-9:
            best, best_v = [mv], v
        elif abs(v - best_v) <= 1e-9:
            best.append(mv)
    return best[policy.randrange(len(best))]


def test_greedy_policy_wins_sometimes(compiled) -> None:  # type: ignore[no-untyped-def]
    """The game is winnable: a one-ply greedy policy brings the Ring to Mount Doom."""
    won = 0
    for seed in range(25):
        g = MountDoom.new(compiled, players=3, seed=seed)
        policy = random.Random(seed ^ 0x5EED)
        while g.outcome is None:
            g.push(greedy_move(g, policy))
        won += g.outcome.result == "won"
    assert won >= 1


def test_board_check_reports_missing_track() -> None:
    """``referee check`` names what a Mount Doom board lacks, and the game refuses it with
    one clear error instead of a traceback."""
    from referee.checks import rules_problems
    from referee.errors import BoardError

    b = load_project(ROOT / "projects" / "mount-doom")
    b.features = [f for f in b.features if f.id != "encounter_row"]
    c = compile_board(b)
    probs = rules_problems("mount-doom", c)
    assert [p.node for p in probs] == ["encounter_row"] and probs[0].severity == "error"
    with pytest.raises(BoardError):
        MountDoom.new(c, players=2, seed=0)
