"""The cooperative Lord of the Rings game: one test per rule (quoted in each docstring).

:class:`Loaded` makes the die show chosen faces (indices: blank 0, one 1, two 2,
three 3, discard 4, sauron 5); event tiles are drawn from the end of ``g.tiles``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from referee.compiler import compile_board
from referee.errors import IllegalMoveError, StateError, UsageError
from referee.games.lotr_coop.game import LotrCoop, Move
from referee.games.rng import Rng
from referee.games.tracks import ask as _ask
from referee.store import load_project

ROOT = Path(__file__).resolve().parents[4]
BLANK, ONE, TWO, THREE, DISCARD, SAURON = range(6)


class Loaded(Rng):
    """A generator whose next dice are fixed (face indices, 0-based, in the pack's order):
    the kit's fixed dice (``rng.fixed``), which positions use too."""

    def __init__(self, *indices: int) -> None:
        super().__init__(3, [i + 1 for i in indices])


@pytest.fixture(scope="module")
def compiled():  # type: ignore[no-untyped-def]
    return compile_board(load_project(ROOT / "projects" / "lotr-coop"))


def new(compiled, players: int = 3, seed: int = 1, **options) -> LotrCoop:  # type: ignore[no-untyped-def]
    return LotrCoop.new(compiled, players=players, seed=seed, options=options)


def play(g: LotrCoop, text: str) -> list[dict]:  # type: ignore[type-arg]
    return g.push(g.parse_move(text))


def at_play(g: LotrCoop) -> None:
    """Skip the tile phase: the active player is about to play cards."""
    g.queue = [_ask("play")]
    g.phase = "play"


def no_yellow(g: LotrCoop) -> None:
    """Put the yellow Feature cards in the box: no card can change a die, so dice are rolled
    at once (see test_die_waits_for_any_time_cards)."""
    for hand in g.hands:
        yellow = [c for c in hand if g.lay.cards[c].get("colour") == "yellow"]
        for c in yellow:
            hand.remove(c)
            g.box.append(c)


def types(ev: list[dict]) -> list[str]:  # type: ignore[type-arg]
    return [e["type"] for e in ev]


# ---------------------------------------------------------------------- set-up
@pytest.mark.parametrize(
    "players,names",
    [
        (2, ["frodo", "sam"]),
        (3, ["frodo", "sam", "pippin"]),
        (4, ["frodo", "sam", "pippin", "merry"]),
        (5, ["frodo", "sam", "pippin", "merry", "fatty"]),
    ],
)
def test_characters_by_player_count(compiled, players: int, names: list[str]) -> None:  # type: ignore[no-untyped-def]
    """ "2 - player game: Frodo and Sam. 3 - player game: Frodo, Sam, Pippin ... 5 - player
    game: Frodo, Sam, Pippin, Merry, Fatty. Frodo always begins the game.\""""
    g = new(compiled, players)
    assert g.players == names and g.to_move == "frodo" and g.ringbearer == 0
    assert g.scenario == "moria" and g.phase == "reveal"


def test_bad_player_count(compiled) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(UsageError):
        new(compiled, 1)
    with pytest.raises(UsageError):
        new(compiled, 3, sauron=99)


def test_rivendell_two_players(compiled) -> None:  # type: ignore[no-untyped-def]
    """ "Elrond: Shuffle the 12 Rivendell Feature cards and deal them to the players. With two
    players, discard four cards face down from the game." (Bag End, ours: 6 Hobbit cards.)"""
    g = new(compiled, 2)
    feats = [[c for c in h if g.lay.cards[c]["kind"] == "feature"] for h in g.hands]
    assert [len(f) for f in feats] == [4, 4]
    assert sum(1 for c in g.box if g.lay.cards.get(c, {}).get("kind") == "feature") == 4
    assert [len(h) - len(f) for h, f in zip(g.hands, feats)] == [6, 6]


def test_rivendell_five_players(compiled) -> None:  # type: ignore[no-untyped-def]
    """ "With five players the Ring-bearer and the player to their left both receive one card
    more than the others.\""""
    g = new(compiled, 5)
    feats = [sum(1 for c in h if g.lay.cards[c]["kind"] == "feature") for h in g.hands]
    assert feats == [3, 3, 2, 2, 2]


def test_scenario_setup(compiled) -> None:  # type: ignore[no-untyped-def]
    """ "place one marker on the first space above the Event boxes and on the first spaces of
    each Activity line ... Shuffle all the Event tiles"; Moria has no Friendship line."""
    g = new(compiled)
    assert g.markers == {"fighting": 0, "hiding": 0, "travelling": 0}
    assert g.event_pos == 0 and len(g.tiles) == len(g.lay.tile_deck)


# ---------------------------------------------------------------------- event tiles
def test_evil_tile_ringbearer_then_next_tile(compiled) -> None:  # type: ignore[no-untyped-def]
    """ "The Ring-bearer's Hobbit must move one step towards the darkness on the Corruption
    line. Then reveal the next Event tile.\""""
    g = new(compiled)
    g.tiles.append("ringbearer-dark")
    play(g, "reveal")
    assert g.corruption[0] == 1 and g.phase == "reveal"


def test_volunteer_or_sauron(compiled) -> None:  # type: ignore[no-untyped-def]
    """ "One player must volunteer to advance their Hobbit by two steps into the darkness ...
    or else Sauron moves one step towards the Hobbits.\""""
    g = new(compiled)
    g.tiles += ["volunteer", "volunteer"]
    play(g, "reveal")
    assert g.phase == "volunteer"
    play(g, "volunteer pippin")
    assert g.corruption == [0, 0, 2]
    play(g, "reveal")
    s = g.sauron
    play(g, "refuse")
    assert g.sauron == s - 1


def test_sundial_next_event(compiled) -> None:  # type: ignore[no-untyped-def]
    """ "The next Event on the Scenario board now occurs. Progress the Event marker to the next
    Event box down and perform the stated action." (Moria box 2, from the Example of Play:
    "Each Hobbit must discard one Hiding card or roll the die" — an EACH PLAYER prompt,
    active player first.)"""
    g = new(compiled)
    no_yellow(g)
    g.event_pos = 1
    g.tiles.append("sundial")
    play(g, "reveal")
    assert g.event_pos == 2 and g.phase == "each_pay" and g.to_move == "frodo"
    g.hands[1] = ["w-hiding", "w-fighting"]
    play(g, "decline frodo")
    g.rng = Loaded(BLANK)  # Frodo's die: nothing happens
    assert g.to_move == "sam"
    with pytest.raises(IllegalMoveError):
        play(g, "pay sam w-fighting")
    play(g, "pay sam w-hiding")
    assert g.hands[1] == ["w-fighting"] and g.to_move == "pippin"


def test_group_discards_three_or_event(compiled) -> None:  # type: ignore[no-untyped-def]
    """ "If you join together with the other players to discard 3 cards of any type between
    you, then nothing happens. If not, the next Event occurs.\""""
    g = new(compiled)
    g.tiles += ["discard-three", "discard-three"]
    play(g, "reveal")
    a, b = g.hands[0][0], g.hands[1][0]
    play(g, f"give frodo {a}")
    play(g, f"give sam {b}")
    play(g, f"give frodo {g.hands[0][0]}")
    assert g.event_pos == 0 and g.phase == "reveal"
    play(g, "reveal")
    play(g, "refuse")
    assert g.event_pos == 1


def test_card_life_shield(compiled) -> None:  # type: ignore[no-untyped-def]
    """ "If you join together ... to discard 1 card, 1 Life token and 1 shield between you,
    nothing happens. Otherwise, the next Event occurs.\""""
    g = new(compiled)
    g.life[1]["sun"] = 1
    g.shields[2] = [{"v": 1}]
    g.tiles.append("card-life-shield")
    play(g, "reveal")
    moves = {str(m) for m in g.legal_moves}
    assert {"give sam life:sun", "give pippin shield:1", "refuse"} <= moves
    play(g, "give sam life:sun")
    play(g, "give pippin shield:1")
    play(g, f"give frodo {g.hands[0][0]}")
    assert g.life[1]["sun"] == 0 and g.shields[2] == [] and g.event_pos == 0
    assert g.phase == "reveal"


def test_activity_tile_advances_and_ends_reveals(compiled) -> None:  # type: ignore[no-untyped-def]
    """ "advance the corresponding Activity marker by one space ... and carry out the Activity
    space you landed on ... After revealing an Activity tile, no further Event tile is
    revealed.\""""
    g = new(compiled)
    g.tiles.append("fighting")
    ev = play(g, "reveal")
    assert g.markers["fighting"] == 1 and g.phase == "play"
    assert g.lay.scenarios["moria"].lines["fighting"].spaces[1] == "shield"
    assert g.shields[0] == [{"v": 1}] and "shield" in types(ev)


def test_activity_tile_without_line(compiled) -> None:  # type: ignore[no-untyped-def]
    """ "If there is no such Activity line on the game board (Moria for example does not have a
    Friendship Activity line) ... advance the marker on another Activity line of your
    choice by one space.\""""
    g = new(compiled)
    g.tiles.append("friendship")
    play(g, "reveal")
    assert g.phase == "line"
    assert {str(m) for m in g.legal_moves} >= {"line fighting", "line hiding", "line travelling"}
    play(g, "line hiding")
    assert g.markers["hiding"] == 1 and "book" in g.hands[0]


# ---------------------------------------------------------------------- card play
def test_one_white_and_one_grey(compiled) -> None:  # type: ignore[no-untyped-def]
    """ "Play one or two cards (one white and one grey) from your hand to advance the markers
    on the Activity lines.\""""
    g = new(compiled)
    at_play(g)
    g.hands[0] = ["w-travelling", "w-hiding", "g-fighting"]
    play(g, "play w-travelling")
    assert g.markers["travelling"] == 1
    with pytest.raises(IllegalMoveError) as exc:
        play(g, "play w-hiding")
    assert exc.value.code == "colour_already_played"
    play(g, "play g-fighting")
    play(g, "end")
    assert g.to_move == "sam" and g.phase == "reveal"


def test_each_space_moved_over_is_carried_out(compiled) -> None:  # type: ignore[no-untyped-def]
    """ "If a card played permits a marker to be advanced by more than one space, every space
    moved over or landed on must be carried out." (Rulebook example: Gimli's two Fighting
    symbols.)"""
    g = new(compiled)
    at_play(g)
    g.hands[0] = ["gimli"]
    g.markers["fighting"] = 2  # next spaces: life:ring, shield
    play(g, "play gimli")
    assert g.markers["fighting"] == 4 and g.life[0]["ring"] == 1 and len(g.shields[0]) == 1


def test_die_space_rolled_last(compiled) -> None:  # type: ignore[no-untyped-def]
    """ "If this includes an instruction to roll the die, this is done last, but before
    playing the next card.\""""
    g = new(compiled)
    no_yellow(g)
    at_play(g)
    g.hands[0] = ["g-star2"]
    g.markers["fighting"] = 4  # next: die, shield_random
    g.rng = Loaded(ONE)
    ev = play(g, "play g-star2 fighting")
    t = types(ev)
    assert t.index("shield") < t.index("die") and g.corruption[0] == 1


def test_joker_stars_on_one_line(compiled) -> None:  # type: ignore[no-untyped-def]
    """ "When you play a Joker card with more than one star symbol, you must apply all stars to
    the same Activity line.\""""
    g = new(compiled)
    at_play(g)
    g.hands[0] = ["g-star2"]
    plays = {str(m) for m in g.legal_moves if m.verb == "play"}
    assert plays == {"play g-star2 fighting", "play g-star2 hiding", "play g-star2 travelling"}
    play(g, "play g-star2 travelling")
    assert g.markers == {"fighting": 0, "hiding": 0, "travelling": 2}


def test_symbol_not_on_board_no_effect(compiled) -> None:  # type: ignore[no-untyped-def]
    """ "Cards with a symbol not shown on the Scenario board have no effect in that particular
    Scenario.\""""
    g = new(compiled)
    at_play(g)
    g.hands[0] = ["w-friendship"]
    before = dict(g.markers)
    ev = play(g, "play w-friendship")
    assert g.markers == before and "no_effect" in types(ev)


def test_draw_two_or_step_back(compiled) -> None:  # type: ignore[no-untyped-def]
    """ "Draw two Hobbit cards into your hand or move your Hobbit back one step towards the
    light on the Corruption line.\""""
    g = new(compiled)
    at_play(g)
    n = len(g.hands[0])
    play(g, "draw")
    assert len(g.hands[0]) == n + 2 and g.to_move == "sam"
    at_play(g)
    g.corruption[1] = 3
    play(g, "heal")
    assert g.corruption[1] == 2 and g.to_move == "pippin"


def test_pippin_draws_three(compiled) -> None:  # type: ignore[no-untyped-def]
    """Pippin's character skill (ours): 2b draws three Hobbit cards."""
    g = new(compiled)
    g.active = 2
    at_play(g)
    n = len(g.hands[2])
    play(g, "draw")
    assert len(g.hands[2]) == n + 3


def test_frodo_white_card_as_joker(compiled) -> None:  # type: ignore[no-untyped-def]
    """Example of play: "Frodo takes advantage of his special skill on his Character card to
    use any white Hobbit card as a star card, and discards a white Friendship card" (for a
    Hiding card)."""
    g = new(compiled)
    at_play(g)
    g.hands[0] = ["w-friendship"]
    assert Move("play", "w-friendship", "fighting") in g.legal_moves
    g.hands[1] = ["w-friendship"]
    assert g._matches(0, "w-friendship", "hiding") and not g._matches(1, "w-friendship", "hiding")


# ---------------------------------------------------------------------- any time
def test_gandalf_card_for_five_shields(compiled) -> None:  # type: ignore[no-untyped-def]
    """ "Call a Gandalf card: any one player discards 5 shields. The active player then decides
    which of the Gandalf cards to use ... Each Gandalf card can only be used once.\""""
    g = new(compiled)
    g.shields[1] = [{"v": 1}] * 4
    with pytest.raises(IllegalMoveError) as exc:
        play(g, "gandalf sam magic 1+1+1+1")
    assert exc.value.code == "not_enough_shields"
    g.shields[1] = [{"v": 1}] * 6
    s = g.sauron
    g.sauron = s - 3
    play(g, "gandalf sam magic 1+1+1+1+1")
    assert g.shields[1] == [{"v": 1}] and g.sauron == s - 1 and "magic" not in g.gandalf_cards
    g.shields[1] = [{"v": 1}] * 5
    assert Move("gandalf", "sam", "magic", "1+1+1+1+1") not in g.legal_moves


def _gandalf_position(compiled, **fields):  # type: ignore[no-untyped-def]
    """Moria, Frodo to reveal a tile, Sam holding a 5 shield, and ``fields``."""
    position = {
        "players": ["frodo", "sam"],
        "corruption": {"frodo": "corruption00", "sam": "corruption00"},
        "sauron": "corruption12",
        "location": "moria",
        "scenario": "moria",
        "shields": {"sam": [{"value": 5}]},
        **fields,
    }
    return LotrCoop.from_position(compiled, position)


def test_called_gandalf_card_is_discarded(compiled) -> None:  # type: ignore[no-untyped-def]
    """ "Each Gandalf card can only be used once, and must then be discarded." A position with
    a used Gandalf card on the discard pile is a position of the game; a card called goes on
    top of the discard pile, not into the box, and cannot be called again."""
    g = _gandalf_position(compiled, discard=["guidance", "w-star"])
    assert "guidance" not in g.gandalf_cards and "guidance" not in g.box
    assert Move("gandalf", "sam", "guidance", "5") not in g.legal_moves
    s = g.sauron
    play(g, "gandalf sam magic 5")
    assert g.sauron == s + 2  # Magic: Sauron two spaces back
    assert g.discard[-1] == "magic" and "magic" not in g.box and "magic" not in g.gandalf_cards
    assert g.position()["discard"][:2] == ["magic", "guidance"]  # top first
    assert LotrCoop.from_position(compiled, g.position()).to_json() == g.to_json()


def test_used_gandalf_cards_boxed_at_the_reshuffle(compiled) -> None:  # type: ignore[no-untyped-def]
    """ "When the Hobbit deck has been played through, remove the used Feature cards and
    Gandalf cards from the discard pile, and place them into the game box. Reshuffle the
    remaining Hobbit cards to form a new Hobbit draw deck." Every Hobbit card is on the
    discard pile with a used Gandalf card (Guidance); Persistence (the active player draws
    4) is called: it is discarded, the deck runs out, and both Gandalf cards go to the box."""
    hobbit = list(LotrCoop.new(compiled, players=2, seed=1).lay.hobbit_deck)
    g = _gandalf_position(compiled, discard=["guidance", *hobbit])
    assert g.deck == [] and g.gandalf_cards == ["healing", "magic", "persistence", "protection"]
    ev = play(g, "gandalf sam persistence 5")
    assert "deck_reshuffled" in types(ev)
    assert sorted(g.box) == ["guidance", "persistence"] and g.discard == []
    assert sorted(g.deck + g.hands[0]) == sorted(hobbit) and len(g.hands[0]) == 4
    assert g.invariants() == []


def test_gandalf_card_both_to_call_and_used_refused(compiled) -> None:  # type: ignore[no-untyped-def]
    """A Gandalf card listed as still to call and lying on the discard pile is refused,
    naming the field."""
    with pytest.raises(StateError) as exc:
        _gandalf_position(
            compiled,
            discard=["magic"],
            gandalf_cards=["healing", "guidance", "magic", "persistence", "protection"],
        )
    assert "gandalf_cards" in str(exc.value) and "magic" in str(exc.value)


def test_yellow_feature_any_time_not_counted(compiled) -> None:  # type: ignore[no-untyped-def]
    """ "Play Yellow Feature cards: they may be played by any player. Yellow cards do not count
    towards the limit of two playable cards during a turn.\""""
    g = new(compiled)
    at_play(g)
    g.hands[0] = ["w-hiding", "g-hiding"]
    g.hands[2] = ["miruvor"]
    g.corruption[1] = 2
    play(g, "play w-hiding")
    play(g, "yellow pippin miruvor sam")
    assert g.corruption[1] == 1 and g.played["cards"] == 1
    play(g, "play g-hiding")
    assert g.played["white"] and g.played["grey"]


def test_put_on_the_ring(compiled) -> None:  # type: ignore[no-untyped-def]
    """ "Once during each Scenario the Ring-bearer may put on the Ring ... The Ring-bearer rolls
    the die and must bear any negative consequences ... advances the marker on any one
    Activity line ... if the die showed three circles, advance one space ... Spaces moved
    over or landed on in this way are not carried out.\""""
    g = new(compiled)
    assert not any(m.verb == "ring" for m in g.legal_moves)  # no tile revealed yet
    at_play(g)
    g.rng = Loaded(THREE)
    play(g, "ring hiding")
    assert g.corruption[0] == 3 and g.markers["hiding"] == 1 and "book" not in g.hands[0]
    assert g.ring_on == 0
    with pytest.raises(IllegalMoveError) as exc:
        play(g, "ring fighting")
    assert exc.value.code == "ring_used"


def test_ring_blank_advances_four(compiled) -> None:  # type: ignore[no-untyped-def]
    """The formula: 4 minus the circles shown (blank: 4 spaces, none carried out)."""
    g = new(compiled)
    at_play(g)
    g.rng = Loaded(BLANK)
    play(g, "ring travelling")
    assert g.markers["travelling"] == 4 and g.shields[0] == [] and g.life[0]["heart"] == 0


# ---------------------------------------------------------------------- the die
def test_die_faces(compiled) -> None:  # type: ignore[no-untyped-def]
    """ "Sauron moves one step towards the Hobbits. / Place any two of the cards in your hand
    face up onto the discard pile. / Nothing happens." and circles: steps into darkness."""
    g = new(compiled)
    no_yellow(g)
    at_play(g)
    g.rng = Loaded(SAURON, DISCARD, TWO)
    s = g.sauron
    g.queue[0:0] = [
        {"op": "die", "player": 0},
        {"op": "die", "player": 2},
        {"op": "die", "player": 1},
    ]
    g._run([])
    assert g.sauron == s - 1 and g.phase == "discard" and g.to_move == "pippin"
    c = g.hands[2][0]
    n = len(g.hands[2])
    play(g, f"discard pippin {c}")
    play(g, f"discard pippin {g.hands[2][0]}")
    assert len(g.hands[2]) == n - 2
    assert g.corruption[1] == 1  # Sam's skill (ours): one step less
    assert g.phase == "play"


def test_die_discard_without_cards_eliminates(compiled) -> None:  # type: ignore[no-untyped-def]
    """ "If you do not possess required cards ... and there is no alternative outcome offered
    ... you must discard as much as you have and also quit at once.\""""
    g = new(compiled)
    no_yellow(g)
    at_play(g)
    g.hands[2] = ["w-hiding"]
    g.shields[2] = [{"v": 3, "r": True}]
    g.shield_pool.pop()
    g.rng = Loaded(DISCARD)
    g.queue.insert(0, {"op": "die", "player": 2})
    g._run([])
    assert not g.alive[2] and g.hands[2] == [] and g.shields[2] == [{"v": 3, "r": True}]


# ---------------------------------------------------------------------- elimination
def test_hobbit_meeting_sauron_is_eliminated(compiled) -> None:  # type: ignore[no-untyped-def]
    """ "If your Hobbit encounters Sauron (by being on the same space or beyond on the
    Corruption line), you are eliminated ... Discard all your cards, return your Life tokens,
    but keep your shields.\""""
    g = new(compiled)
    g.corruption[1] = g.sauron - 1
    g.shields[1] = [{"v": 1}]
    g.life[1]["sun"] = 1
    g._dark(1, 1, [])
    assert not g.alive[1] and g.hands[1] == [] and g.life[1]["sun"] == 0
    assert g.shields[1] == [{"v": 1}] and g.outcome is None
    at_play(g)
    play(g, "end") if g.played["cards"] else play(g, "draw")
    assert g.to_move == "pippin"  # Sam is skipped


def test_ringbearer_eliminated_ends_game_with_score(compiled) -> None:  # type: ignore[no-untyped-def]
    """ "The Ring-bearer is eliminated from the game ... each player scores the number of points
    indicated by the marker on the main Activity line at that time.\""""
    g = new(compiled)
    at_play(g)
    g.hands[0] = ["gimli"]
    play(g, "play gimli")
    main = g.lay.scenarios["moria"].main
    g._sauron(g.sauron - g.corruption[0], [])
    assert g.outcome and g.outcome.result == "lost"
    assert g.outcome.extra["score"] == main.numbers[2]


# ---------------------------------------------------------------------- scenario end
def test_scenario_end_life_tokens_and_new_ringbearer(compiled) -> None:  # type: ignore[no-untyped-def]
    """ "Each player must have one of each of the three Life tokens. For each token missing ...
    move your Hobbit one step towards the darkness ... The player with the most Ring tokens
    becomes the new Ring-bearer ... draws two Hobbit cards ... Return all Heart, Sun and Ring
    tokens.\""""
    g = new(compiled, 4)
    at_play(g)
    g.life = [
        {"heart": 1, "sun": 1, "ring": 1},
        {"heart": 0, "sun": 1, "ring": 2},
        {"heart": 0, "sun": 0, "ring": 0},
        {"heart": 1, "sun": 1, "ring": 1},
    ]
    main = g.lay.scenarios["moria"].main
    g.markers[main.activity] = main.last - 1
    g.hands[0] = ["g-fighting"]
    n_sam = len(g.hands[1])
    ev = play(g, "play g-fighting")
    assert [(e["player"], e["missing"]) for e in ev if e["type"] == "missing_life"] == [
        ("sam", 1),
        ("pippin", 3),
    ]
    assert g.corruption == [0, 0, 2, 0]  # then Lothlórien (ours): 1 step toward the light
    assert g.ringbearer == 1 and g.scenario == "helms_deep" and g.to_move == "sam"
    assert len(g.hands[1]) == n_sam + 2 + 2  # new Ring-bearer draws 2; Lothlórien 2 more
    assert all(v == 0 for life in g.life for v in life.values())
    assert g.markers == dict.fromkeys(g.lay.scenarios["helms_deep"].lines, 0)


def test_ring_tie_goes_clockwise_from_ringbearer(compiled) -> None:  # type: ignore[no-untyped-def]
    """ "If there is a tie, the Ring goes to the player involved in the tie sitting closest to
    the current Ring-bearer, in clockwise direction.\""""
    g = new(compiled, 4)
    g.ringbearer = 2
    g.life = [
        {"heart": 1, "sun": 1, "ring": 2},
        {"heart": 1, "sun": 1, "ring": 1},
        {"heart": 1, "sun": 1, "ring": 0},
        {"heart": 1, "sun": 1, "ring": 2},
    ]
    g.scenario_over = True
    g.queue = [{"op": "scenario_end"}]
    g._run([])
    assert g.ringbearer == 3


def test_fatty_draws_two(compiled) -> None:  # type: ignore[no-untyped-def]
    """ "Fatty draws 2 Hobbit cards." at the end of a Scenario."""
    g = new(compiled, 5)
    g.life = [{"heart": 1, "sun": 1, "ring": 1} for _ in range(5)]
    n = len(g.hands[4])
    g.queue = [{"op": "scenario_end"}]
    g._run([])
    assert len(g.hands[4]) == n + 2 + 2  # + Lothlórien's 2 (ours)


def test_final_event_ends_scenario(compiled) -> None:  # type: ignore[no-untyped-def]
    """ "A Scenario ends when the main Activity line ... is completed or the final Event has
    been concluded.\""""
    g = new(compiled)
    g.life = [{"heart": 1, "sun": 1, "ring": 1} for _ in range(3)]
    g.event_pos = 5
    g.tiles.append("sundial")
    ev = play(g, "reveal")
    assert "final_event_concluded" in types(ev) and g.scenario == "helms_deep"
    assert g.corruption[0] >= 1  # the Balrog (ours) hit the Ring-bearer first


# ---------------------------------------------------------------------- Mount Doom
def _at_mount_doom(g: LotrCoop, *faces: int) -> None:
    no_yellow(g)  # nothing could change the die: it is rolled at once
    g.rng = Loaded(*faces)
    g.location = len(g.lay.master) - 2
    g.scenario = "mordor"
    g.markers = dict.fromkeys(g.lay.scenarios["mordor"].lines, 0)
    g.life = [{"heart": 1, "sun": 1, "ring": 1} for _ in g.players]
    g.queue = [{"op": "scenario_end"}]


def test_mount_doom_ring_destroyed(compiled) -> None:  # type: ignore[no-untyped-def]
    """ "If the active player remains in the game after the die roll, then the Ring has
    successfully been destroyed and the active player receives one of the face down shields
    ... each player ... scores 60 points plus the total number of shields\""""
    g = new(compiled)
    g.shields = [[{"v": 1}], [{"v": 1}, {"v": 1}], []]
    _at_mount_doom(g, BLANK)
    g._run([])
    assert g.outcome and g.outcome.result == "won"
    assert g.outcome.extra["score"] == 60 + g.shield_total() and g.shield_total() > 3


def test_mount_doom_die_passes_on(compiled) -> None:  # type: ignore[no-untyped-def]
    """ "If the active player is eliminated ... as a consequence of the die roll, then the die is
    passed on to the next player ... until either the Ring is destroyed or all players are
    eliminated ... If the Fellowship reaches Mount Doom, but all players fail ... 60 points.\""""
    g = new(compiled)
    g.corruption = [g.sauron - 1] * 3
    _at_mount_doom(g, TWO, TWO, TWO)  # two circles: one step even for Sam
    g._run([])
    assert g.alive == [False, False, False]
    assert g.outcome.to_json() == {
        "result": "lost",
        "winners": [],
        "score": 60,
        "reason": "the Fellowship reached Mount Doom but every Hobbit failed to destroy the Ring",
    }
    g2 = new(compiled)
    g2.corruption = [g2.sauron - 1] * 3
    _at_mount_doom(g2, ONE, BLANK)
    g2._run([])
    assert g2.outcome and g2.outcome.result == "won" and "sam" in g2.outcome.reason


def test_hobbit_deck_reshuffle_removes_features(compiled) -> None:  # type: ignore[no-untyped-def]
    """ "When the Hobbit deck has been played through, remove the used Feature cards ... from
    the discard pile ... Reshuffle the remaining Hobbit cards to form a new Hobbit draw deck.\""""
    g = new(compiled)
    g.discard = g.deck + ["gimli"]
    g.deck = []
    g._draw(0, 1, [])
    assert "gimli" in g.box and "gimli" not in g.deck and g.discard == []


def test_activity_tile_on_full_line(compiled) -> None:  # type: ignore[no-untyped-def]
    """ "or if the marker already occupies the last Activity space of that line, advance the
    marker on another Activity line of your choice by one space. You must always advance one
    of the markers.\""""
    g = new(compiled)
    hiding = g.lay.scenarios["moria"].lines["hiding"]
    g.markers["hiding"] = hiding.last
    g.tiles.append("hiding")
    play(g, "reveal")
    assert g.phase == "line"
    assert {str(m) for m in g.legal_moves if m.verb == "line"} == {
        "line fighting",
        "line travelling",
    }


def test_card_for_full_line_has_no_effect(compiled) -> None:  # type: ignore[no-untyped-def]
    """ "Equally, cards with a symbol for an Activity line whose marker is already on the last
    space have no effect.\""""
    g = new(compiled)
    at_play(g)
    hiding = g.lay.scenarios["moria"].lines["hiding"]
    g.markers["hiding"] = hiding.last
    g.hands[0] = ["w-hiding"]
    shields = list(g.shields[0])
    play(g, "play w-hiding")
    assert g.markers["hiding"] == hiding.last and g.shields[0] == shields
    assert "w-hiding" in g.discard


# ---------------------------------------------------------------------- rulebook fidelity
def test_moria_example_of_play(compiled) -> None:  # type: ignore[no-untyped-def]
    """The rulebook's "Example of Play" on Moria, move by move (DESIGN §6: where the rulebook
    shows content, our data agrees with it).

    "Frodo ... turns over the top Event tile, which shows a Fighting symbol. He advances the
    marker on the Fighting Activity line onto space 11, and takes 1 shield ... chooses to play
    a white Hiding card ... collects the 'Book' card ... He chooses to play this card
    immediately ... collecting a Ring token. ... Sam ... draws an Event tile. It shows a
    sundial ... The group confer and decide that Sam will discard a Friendship card and Pippin
    a star card. Then Sam turns over another Event tile; ... another sundial ... Each Hobbit
    must discard one Hiding card or roll the die. Sam discards a Hiding card. Frodo ... uses
    any white Hobbit card as a star card, and discards a white Friendship card. Pippin ...
    rolls the die. It shows a single black circle ... Sam then turns over another Event tile,
    which ... shows a Friendship symbol ... He chooses to advance the Hiding marker and
    receives a Heart token. He then continues his turn by playing his Gimli card ...
    allowing him to advance the Fighting marker onto space 13. He receives 1 shield and a
    Ring token. He decides not to play a second card, and it is Pippin's turn."
    """
    # the position of the example (docs/positions/lotr-coop-moria.json): three players,
    # the hands the example names, the Event tiles in its order, Pippin's die fixed
    position = json.loads((ROOT / "docs" / "positions" / "lotr-coop-moria.json").read_text())
    g = LotrCoop.from_position(compiled, position)
    frodo, sam, pippin = 0, 1, 2
    assert g.hands == [
        ["w-hiding", "w-friendship"],
        ["w-friendship", "w-hiding", "gimli"],
        ["g-star", "g-star2"],
    ]
    assert g.tiles[-4:] == ["friendship", "sundial", "sundial", "fighting"]  # drawn from the end
    assert g.ringbearer == frodo and g.to_move == "frodo"

    play(g, "reveal")  # Fighting
    sc = g.sc
    assert sc is not None and sc.main.activity == "fighting"
    assert sc.main.numbers[g.markers["fighting"]] == 11 and g.shields[frodo] == [{"v": 1}]
    play(g, "play w-hiding")
    assert "book" in g.hands[frodo]
    play(g, "play book")
    assert g.life[frodo]["ring"] == 1
    play(g, "end")

    assert g.to_move == "sam"
    play(g, "reveal")  # sundial: the first Event, a group decision
    assert g.event_pos == 1 and g.phase == "group_pay"
    play(g, "give sam w-friendship")
    play(g, "give pippin g-star")
    assert g.phase == "reveal" and g.hands[pippin] == ["g-star2"]
    play(g, "reveal")  # sundial: "Each Hobbit must discard one Hiding card or roll the die"
    assert g.event_pos == 2 and g.phase == "each_pay"
    play(g, "pay sam w-hiding")
    order = []
    while g.phase == "each_pay":
        who = g.to_move
        order.append(who)
        if who == "frodo":
            play(g, "pay frodo w-friendship")  # his skill: a white card as a star
        else:
            play(g, "decline pippin")  # rolls the die: one black circle
    assert sorted(order) == ["frodo", "pippin"]
    assert g.corruption == [0, 0, 1]
    play(g, "reveal")  # Friendship: no Friendship line in Moria
    assert g.phase == "line"
    play(g, "line hiding")
    assert g.life[sam]["heart"] == 1
    play(g, "play gimli")
    assert sc.main.numbers[g.markers["fighting"]] == 13
    assert g.shields[sam] == [{"v": 1}] and g.life[sam]["ring"] == 1
    play(g, "end")
    assert g.to_move == "pippin"


def test_moria_data_marks_what_is_ours(compiled) -> None:  # type: ignore[no-untyped-def]
    """Moria's first two events and the spaces the Example of Play shows are rulebook
    content; what the example does not show (the first event's consequence) is marked ours
    in the data."""
    ev = LotrCoop.new(compiled, players=2, seed=1).lay.events
    assert ev["moria-1"]["source"] == "rulebook" and ev["moria-2"]["source"] == "rulebook"
    assert [o["source"] for o in ev["moria-1"]["effects"][0]["else"]] == ["ours"]
    assert ev["moria-1"]["effects"][0]["pay"] == {"symbol": "friendship", "n": 2}
    assert "source" not in ev["moria-2"]["effects"][0]
    nodes = compiled.graph.nodes
    shown = [n for n in nodes if nodes[n].get("source") == "rulebook"]
    assert sorted(shown) == [
        "moria_fighting01",
        "moria_fighting02",
        "moria_fighting03",
        "moria_hiding01",
        "moria_hiding02",
        "moria_hiding03",
    ]


def test_rivendell_arwen_is_ours_in_the_data(compiled) -> None:  # type: ignore[no-untyped-def]
    """ "Move the marker to Rivendell and perform the stated events. (Elrond: Shuffle the 12
    Rivendell Feature cards and deal them to the players ...)" The rulebook shows only
    Elrond's dealing: the Arwen effect is ours, and marked so in the data itself."""
    riv = LotrCoop.new(compiled, players=2, seed=1).lay.events["rivendell"]
    assert riv["source"] == "rulebook" and "Arwen" not in riv["text"]
    assert "Arwen" in riv["text_ours"]
    ops = riv["effects"]
    assert [o["op"] for o in ops if o.get("source") != "ours"] == ["deal_features"]
    assert [o["op"] for o in ops if o.get("source") == "ours"] == ["each_do"]


def test_calling_gandalf_payer_chooses_shields(compiled) -> None:  # type: ignore[no-untyped-def]
    """ "Call a Gandalf card: any one player discards 5 shields." The payer chooses shields
    worth at least 5 in total (DESIGN §6): with 4, 3 and 1 he may pay 4 + 1 and keep the 3."""
    g = new(compiled)
    at_play(g)
    g.shields[1] = [{"v": 4}, {"v": 3}, {"v": 1}]
    pays = {
        m.args[2] for m in g.legal_moves if (m.verb, *m.args)[:3] == ("gandalf", "sam", "magic")
    }
    assert pays == {"4+1", "4+3"}
    for unpayable in ("3+1", "4+3+1"):  # worth less than 5; a shield to spare
        with pytest.raises(IllegalMoveError) as exc:
            play(g, f"gandalf sam magic {unpayable}")
        assert exc.value.code == "bad_payment"
    play(g, "gandalf sam magic 4+1")
    assert g.shields[1] == [{"v": 3}]
    with pytest.raises(IllegalMoveError):
        play(g, "gandalf sam healing 3")


@pytest.mark.parametrize("pending", ["each_pay", "group_pay", "volunteer", "line", "discard"])
def test_any_time_actions_while_a_decision_is_pending(compiled, pending: str) -> None:  # type: ignore[no-untyped-def]
    """ "Any Time During the Game: Call a Gandalf card ... Play Yellow Feature cards ... You
    may discard unwanted cards from your hand onto the discard pile at any time during the
    game." Offered while an event or a volunteer decision is pending (DESIGN §6)."""
    g = new(compiled)
    g.hands = [["w-hiding", "g-fighting"], ["lembas", "w-star"], ["g-star"]]
    g.shields[2] = [{"v": 5}]
    g.queue = [
        _ask(
            pending,
            player=0,
            symbol="hiding",
            n=2,
            lines=["hiding"],
            **{"else": [{"op": "sauron", "n": 1}]},
        ),
        _ask("play"),
    ]
    g.phase = pending
    legal = {str(m) for m in g.legal_moves}
    assert {"yellow sam lembas frodo", "drop sam w-star", "gandalf pippin magic 5"} <= legal
    play(g, "drop sam w-star")
    assert g.hands[1] == ["lembas"] and g.discard[-1] == "w-star" and g.phase == pending
    play(g, "yellow sam lembas frodo")
    assert len(g.hands[0]) == 4 and g.phase == pending
    if pending == "discard":  # the Hobbit the die makes discard cannot drop instead
        assert not any((m.verb, *m.args)[:2] == ("drop", "frodo") for m in g.legal_moves)


def test_hand_edited_corruption_refused(compiled) -> None:  # type: ignore[no-untyped-def]
    """A hand-edited state with corruption −50 is refused on load with one line naming the
    field (issue 13), never a traceback later."""
    from referee.errors import StateError

    g = new(compiled)
    data = g.to_json()
    data["state"]["corruption"][1] = -50
    with pytest.raises(StateError) as exc:
        LotrCoop.from_json(data, compiled)
    assert exc.value.code == "bad_state" and "corruption" in str(exc.value)
    assert "\n" not in str(exc.value)


def test_rulebook_content_marked_in_the_data(compiled) -> None:  # type: ignore[no-untyped-def]
    """DESIGN §6: what the rulebook shows is rulebook content in the data — the Event tiles
    ("Type 1: The Evil tiles ... Type 2: The Activity tiles"; their counts are ours), the
    Book ("the 'Book' card ... a grey card") and Gimli ("his Gimli card which has two
    Fighting symbols") of the Example of Play."""
    lay = new(compiled).lay
    assert all(t["source"] == "rulebook" and t["ours"] == ["count"] for t in lay.tiles.values())
    assert lay.tiles["volunteer"]["effects"][0] == {
        "op": "volunteer",
        "n": 2,
        "else": [{"op": "sauron", "n": 1}],
    }
    assert lay.cards["book"]["source"] == "rulebook" and lay.cards["book"]["colour"] == "grey"
    assert lay.cards["gimli"]["symbols"] == ["fighting", "fighting"]


def test_die_waits_for_any_time_cards(compiled) -> None:  # type: ignore[no-untyped-def]
    """ "Play Yellow Feature cards: they may be played by any player" at any time: before a
    die is rolled the players may play one that changes what it does (DESIGN §6) — Sam's
    Mithril coat moves Sauron away before Pippin's die could bring him there."""
    g = new(compiled)
    at_play(g)
    g.hands = [["w-hiding"], ["mithril"], ["w-star"]]
    g.sauron = 4
    g.corruption[2] = 1
    g.rng = Loaded(THREE)  # three circles: Pippin to space 4
    g.queue.insert(0, {"op": "die", "player": 2})
    g._run([])
    assert g.phase == "roll" and g.to_move == "pippin"
    assert {"roll", "yellow sam mithril"} <= {str(m) for m in g.legal_moves}
    play(g, "yellow sam mithril")
    assert g.sauron == 5 and g.phase == "roll"
    play(g, "roll")
    assert g.corruption[2] == 4 and g.alive[2] and g.phase == "play"


def test_die_rolled_at_once_when_no_card_could_change_it(compiled) -> None:  # type: ignore[no-untyped-def]
    """Without a yellow card or a Gandalf card someone could call, no pause: the die rolls."""
    g = new(compiled)
    at_play(g)
    g.hands = [["w-hiding"], ["w-star"], []]
    g.rng = Loaded(ONE)
    g.queue.insert(0, {"op": "die", "player": 1})
    g._run([])
    assert g.phase == "play" and g.corruption[1] == 0  # Sam's skill: one circle less


def test_mount_doom_roll_waits_for_any_time_cards(compiled) -> None:  # type: ignore[no-untyped-def]
    """At Mount Doom too the die waits while a yellow card could still be played."""
    g = new(compiled)
    _at_mount_doom(g, BLANK)
    g.hands[1].append("miruvor")
    g._run([])
    assert g.phase == "roll" and g.to_move == "frodo" and g.outcome is None
    play(g, "roll")
    assert g.outcome is not None and g.outcome.result == "won"


def _mount_doom_position(compiled, **fields):  # type: ignore[no-untyped-def]
    """Three Hobbits at Mount Doom, the Master board's last place, and ``fields``."""
    position = {
        "players": ["frodo", "sam", "pippin"],
        "corruption": dict.fromkeys(("frodo", "sam", "pippin"), "corruption05"),
        "sauron": "corruption06",
        "location": "mount_doom",
        "shields": {"sam": [{"value": 2}]},
        **fields,
    }
    return LotrCoop.from_position(compiled, position)


def test_mount_doom_roll_as_a_position(compiled) -> None:  # type: ignore[no-untyped-def]
    """ "If the active player remains in the game after the die roll, then the Ring has
    successfully been destroyed and the active player receives one of the face down
    shields." A position at the Mount Doom roll, written without any queue: the
    Ring-bearer rolls first; the die (fixed: blank) leaves him in the game."""
    g = _mount_doom_position(compiled, dice=[BLANK + 1])
    assert g.phase == "roll" and g.to_move == "frodo" and g.position().get("queue") is None
    play(g, "roll")
    assert g.outcome and g.outcome.result == "won" and "frodo" in g.outcome.reason
    assert len(g.shields[0]) == 1 and g.outcome.extra["score"] == 60 + g.shield_total()


def test_mount_doom_die_passed_on_as_a_position(compiled) -> None:  # type: ignore[no-untyped-def]
    """ "If the active player is eliminated from the game as a consequence of the die roll,
    then the die is passed on to the next player, who progresses accordingly." Frodo's one
    circle takes him to Sauron's space; Sam then rolls a blank and destroys the Ring. A
    position may also start with the die already passed on (Frodo out, Sam to roll)."""
    g = _mount_doom_position(compiled, dice=[ONE + 1, BLANK + 1])
    play(g, "roll")
    assert not g.alive[0] and g.outcome and "sam destroyed the Ring" in g.outcome.reason
    h = _mount_doom_position(compiled, eliminated=["frodo"], active="sam", dice=[BLANK + 1])
    assert h.phase == "roll" and h.to_move == "sam"
    assert LotrCoop.from_position(compiled, h.position()).to_json() == h.to_json()
    with pytest.raises(StateError) as exc:
        _mount_doom_position(compiled, active="sam")
    assert "position.active" in str(exc.value) and "frodo is still in the game" in str(exc.value)
