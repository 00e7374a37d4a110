"""Riddle of the Ring movement and the turn around it, one rule per test, on small
hand-made maps (docs/rulings.md is binding; the rulebook is quoted in each docstring).

The maps are "brick" rows of 10 mm spaces: odd rows are shifted by half a space, so
every corner inside the map is a triple point (a place for a river dot). Spaces are
``r<row>c<col>``; row strings use ``.`` open, ``F`` forest, ``M`` mountain, ``O``
ocean, ``L`` lake.
"""

from __future__ import annotations

import random

import pytest
import shapely

from referee.compiler import compile_board
from referee.errors import IllegalMoveError, UnknownNodeError, UsageError
from referee.games.riddle import turn as T
from referee.games.riddle.movement import Movement, reference_destinations
from referee.model import Board, Feature

TERRAIN = {".": "open", "F": "forest", "M": "mountain", "O": "ocean", "L": "lake"}
ALL = ("boat", "cloak", "rope")


def _x0(r: int, c: int) -> float:
    return c * 10.0 + (5.0 if r % 2 else 0.0)


def centre(cid: str) -> tuple[float, float]:
    r, c = (int(v) for v in cid[1:].split("c"))
    return (_x0(r, c) + 5.0, r * 10.0 + 5.0)


def brick(rows: list[str], *, roads=(), rivers=(), dots=(), bridges=(), props=None) -> Movement:
    """Compile a brick map and return its movement referee (asserting no errors)."""
    b = Board(meta={"name": "test", "rules": "riddle"})
    for r, row in enumerate(rows):
        for c, ch in enumerate(row):
            x0, y0 = _x0(r, c), r * 10.0
            poly = shapely.Polygon(
                [
                    (x0, y0),
                    (x0 + 5, y0),
                    (x0 + 10, y0),
                    (x0 + 10, y0 + 10),
                    (x0 + 5, y0 + 10),
                    (x0, y0 + 10),
                ]
            )
            p = {"terrain": TERRAIN[ch], "name": f"Space {r}-{c}"}
            p.update((props or {}).get(f"r{r}c{c}", {}))
            b.features.append(Feature(f"r{r}c{c}", "space", poly, p))
    for k, cells in enumerate(roads):
        b.features.append(
            Feature(f"road{k}", "road", shapely.LineString([centre(x) for x in cells]))
        )
    for k, pts in enumerate(rivers):
        b.features.append(Feature(f"river{k}", "river", shapely.LineString(pts)))
    for did, xy, p in dots:
        b.features.append(Feature(did, "river_dot", shapely.Point(xy), dict(p)))
    for k, xy in enumerate(bridges):
        b.features.append(Feature(f"bridge{k}", "bridge", shapely.Point(xy)))
    cb = compile_board(b)
    assert not cb.errors(), cb.errors()
    return Movement(cb)


def costs(mv: Movement, start: str, roll: int, cards=()) -> dict[str, int]:
    got = mv.destinations(start, roll, cards)
    want = reference_destinations(mv.compiled, start, roll, cards)
    assert {k: (r.cost, r.stops_turn) for k, r in got.items()} == want  # oracle agrees
    for r in got.values():  # every path given is legal and costs what it says
        assert mv.validate(r.path, roll, cards).cost == r.cost
    return {k: r.cost for k, r in got.items()}


def code_of(fn, *args, **kw) -> str:
    with pytest.raises(IllegalMoveError) as exc:
        fn(*args, **kw)
    return exc.value.code


ROW = [f"r0c{i}" for i in range(9)]


# ------------------------------------------------------------------ open country and roads
def test_open_country_one_space_per_count():
    """ "In open Country, players move 1 space per count on the die." """
    mv = brick(["......"])
    assert costs(mv, "r0c0", 3) == {"r0c1": 1, "r0c2": 2, "r0c3": 3}


def test_road_one_or_two_spaces_per_count():
    """ "Players may move 1 or 2 spaces per count on the die along roads. To move 2 spaces,
    both spaces must be connected by road." A run of k road steps costs ceil(k/2)."""
    mv = brick(["......"], roads=[ROW[:6]])
    assert costs(mv, "r0c0", 1) == {"r0c1": 1, "r0c2": 1}
    assert costs(mv, "r0c0", 3) == {"r0c1": 1, "r0c2": 1, "r0c3": 2, "r0c4": 2, "r0c5": 3}
    assert mv.validate(ROW[:6], 3).cost == 3
    assert code_of(mv.validate, ROW[:6], 2) == "too_far"


def test_getting_on_and_off_a_road_costs_one_count():
    """ "It takes 1 count of the die to get on, or off, a Road." """
    mv = brick(
        [
            ".......",
        ],
        roads=[ROW[1:5]],
    )
    c = costs(mv, "r0c0", 4)
    assert c["r0c1"] == 1  # on: an ordinary land step
    assert c["r0c2"] == c["r0c3"] == 2  # then two road spaces for one count
    assert c["r0c4"] == 3
    assert c["r0c5"] == 4  # off: an ordinary land step again
    assert "r0c6" not in c


def test_road_steps_pair_only_along_the_road():
    """Two road spaces next to each other but not consecutive on a road are ordinary
    land: "both spaces must be connected by road"."""
    mv = brick(["....", "...."], roads=[["r0c0", "r0c1"], ["r1c0", "r1c1"]])
    # r0c1 and r1c1 touch but no road joins them: the second step is ordinary land
    assert mv.validate(["r0c0", "r0c1", "r1c1"], 2).cost == 2
    assert code_of(mv.validate, ["r0c0", "r0c1", "r1c1"], 1) == "too_far"


def test_road_steps_pair_only_along_one_road():
    """Key to the Board: "Move 1 or 2 spaces per die count along spaces connected by the
    *same* road." Two roads meeting in r0c2: a step on each does not share a count
    (rulings § Riddle movement), while two steps along one road do (issue 15, item 4)."""
    mv = brick(["......"], roads=[ROW[0:3], ROW[2:5]])
    # along road 0 only: one count for two steps
    assert mv.validate(ROW[0:3], 1).cost == 1
    # r0c1 -> r0c2 on road 0, r0c2 -> r0c3 on road 1: two counts
    assert mv.validate(ROW[1:4], 2).cost == 2
    assert code_of(mv.validate, ROW[1:4], 1) == "too_far"
    # changing roads is no on/off step: r0c0..r0c4 is 2 + 1 = ... road0 pair, road1 pair
    assert mv.validate(ROW[0:5], 2).cost == 2
    c = costs(mv, "r0c1", 1)
    assert "r0c3" not in c and c["r0c2"] == 1
    assert costs(mv, "r0c1", 2)["r0c3"] == 2


# ------------------------------------------------------------------ forests and mountains
def test_forest_stops_without_cloak():
    """ "When a player moves into any Forest space, he must stop if he does not have a
    Cloak card. He must stop on the first Forest space he enters" — and the rest of the
    roll is lost."""
    mv = brick(["..F.."])
    got = mv.destinations("r0c0", 6)
    assert got["r0c2"].stops_turn and got["r0c2"].cost == 2
    assert "r0c3" not in got
    assert code_of(mv.validate, ["r0c0", "r0c1", "r0c2", "r0c3"], 6) == "must_stop_in_forest"
    assert costs(mv, "r0c0", 6, ["cloak"]) == {"r0c1": 1, "r0c2": 2, "r0c3": 3, "r0c4": 4}
    assert not mv.destinations("r0c0", 6, ["cloak"])["r0c2"].stops_turn


def test_leaving_a_forest_one_space_per_turn():
    """ "Players may go through Forests or Mountains without a Cloak or Rope card, but
    only at the rate of 1 space per turn": starting on a forest space does not stop
    you, entering the next one does."""
    mv = brick(["FFF."])
    got = mv.destinations("r0c0", 6)
    assert set(got) == {"r0c1"} and got["r0c1"].stops_turn


def test_no_stop_on_a_forest_road_space():
    """ "ROADS in Forests & Mountains: Treat roads through Forests & Mountains like roads
    through Open Country ... You do not need a Rope or Cloak." A space with a road counts
    as road in every direction (docs/rulings.md), even when entered off the road."""
    mv = brick(["..F..", "....."], roads=[["r0c1", "r0c2", "r0c3"]])
    c = costs(mv, "r0c0", 3)
    assert not mv.destinations("r0c0", 3)["r0c2"].stops_turn
    assert c["r0c4"] == 3  # on (1), two road spaces (1), off (1)
    assert not mv.destinations("r1c1", 1)["r0c2"].stops_turn  # entered from off the road


def test_mountain_stops_without_rope():
    """ "When a player moves into any Mountain space, he must stop if he does not have a
    Rope card." With a Rope he moves "as in Open Country"."""
    mv = brick([".M..."])
    got = mv.destinations("r0c0", 6)
    assert got["r0c1"].stops_turn and set(got) == {"r0c1"}
    assert code_of(mv.validate, ["r0c0", "r0c1", "r0c2"], 6) == "must_stop_in_mountain"
    assert costs(mv, "r0c0", 6, ["rope"]) == {"r0c1": 1, "r0c2": 2, "r0c3": 3, "r0c4": 4}
    assert mv.destinations("r0c0", 6, ["cloak"])["r0c1"].stops_turn  # a Cloak is no Rope


def test_no_stop_on_a_mountain_road_space():
    """ "How do I move on a space with a Road and a Mountain on it? A. Move on the space as
    though the entire space were road in every direction." """
    mv = brick([".M..."], roads=[["r0c1", "r0c2"]])
    assert costs(mv, "r0c0", 3) == {"r0c1": 1, "r0c2": 2, "r0c3": 3}
    assert not mv.destinations("r0c0", 3)["r0c1"].stops_turn


# ------------------------------------------------------------------ rivers and bridges
RIVER_12 = [(20.0, 0.0), (20.0, 10.0)]  # the border between r0c1 and r0c2


def test_river_blocks_without_bridge_or_boat():
    """ "To move across a River, a player must use a Boat card, or he must cross at a
    bridge. Otherwise, he cannot cross." """
    mv = brick(["...."], rivers=[RIVER_12])
    assert costs(mv, "r0c0", 6) == {"r0c1": 1}
    assert code_of(mv.validate, ["r0c1", "r0c2"], 6) == "river_without_bridge"


def test_bridge_crossing_as_land():
    """ "At a Bridge, he simply ignores the River and moves across, using the Open Country
    or Road rules that apply." """
    mv = brick(["...."], rivers=[RIVER_12], bridges=[(20.0, 5.0)])
    assert costs(mv, "r0c0", 3) == {"r0c1": 1, "r0c2": 2, "r0c3": 3}


def test_bridge_crossing_on_a_road():
    """A road over a bridge keeps its road runs: three road steps for two counts."""
    mv = brick(["...."], rivers=[RIVER_12], bridges=[(20.0, 5.0)], roads=[ROW[:4]])
    assert costs(mv, "r0c0", 2) == {"r0c1": 1, "r0c2": 1, "r0c3": 2}


def test_boat_crossing_costs_one_count():
    """ "With a Boat card, a player may cross a River at any point to an adjacent space on
    the other side. This takes 1 count of the die. If he then enters a Forest or Mountain
    space, he must follow the Forest or Mountain rules that apply." """
    mv = brick(["..F."], rivers=[RIVER_12])
    got = mv.destinations("r0c1", 6, ["boat"])
    assert got["r0c2"].cost == 1 and got["r0c2"].stops_turn
    assert "r0c3" not in got
    assert costs(mv, "r0c1", 6, ["boat", "cloak"])["r0c3"] == 2


def test_road_without_bridge_is_no_crossing():
    """A road drawn across a river with no bridge gives no way over (and the compiler
    warns); a Boat crosses it as an ordinary step."""
    mv = brick(["...."], rivers=[RIVER_12], roads=[ROW[:4]])
    assert "road_crosses_river" in {p.code for p in mv.compiled.problems}
    assert code_of(mv.validate, ROW[:4], 6) == "river_without_bridge"
    assert mv.validate(ROW[:4], 6, ["boat"]).cost == 3  # road, Boat crossing, road again


# ------------------------------------------------------------------ river dots
# A river along the border of rows 0 and 1 from (10,10) to (30,10); every vertex on it
# is a triple point with a river dot.
DOTS = [(f"d{x}", (float(x), 10.0), {}) for x in (10, 15, 20, 25, 30)]
RIVER_ROW = [[(10.0, 10.0), (30.0, 10.0)]]


def river_map(row0: str = "....", row1: str = "....", **kw) -> Movement:
    return brick([row0, row1], rivers=kw.pop("rivers", RIVER_ROW), dots=kw.pop("dots", DOTS), **kw)


def test_river_dots_need_a_boat():
    """ "To move in a River, a player must use a Boat card." """
    mv = river_map()
    assert not any(n.startswith("d") for n in mv.destinations("r0c1", 6))
    assert code_of(mv.validate, ["r0c1", "d20"], 6) == "needs_boat"
    assert mv.validate(["r0c1", "d20"], 1, ["boat"]).cost == 1


def test_river_dot_only_from_its_three_spaces():
    """ "Get on or off a River Dot only at one of the 3 spaces which come together at the
    River Dot. Getting on or off a River Dot takes 1 count of the die." """
    mv = river_map()
    assert mv.beside("d20") == {"r0c1", "r0c2", "r1c1"}
    for s in ("r0c1", "r0c2", "r1c1"):
        assert mv.validate([s, "d20"], 1, ["boat"]).cost == 1
    assert code_of(mv.validate, ["r0c3", "d20"], 6, ["boat"]) == "not_adjacent"
    assert code_of(mv.validate, ["d20", "r1c2"], 6, ["boat"]) == "not_adjacent"


def test_dot_to_next_dot_one_count():
    """"Once in a River, move from one River Dot to the next with 1 count on the die.""" ""
    mv = river_map()
    assert mv.validate(["r0c0", "d10", "d15", "d20", "d25", "d30"], 5, ["boat"]).cost == 5
    assert code_of(mv.validate, ["d10", "d20"], 6, ["boat"]) == "not_adjacent"  # no skipping


def test_river_through_forest_needs_no_cloak():
    """ "RIVERS in Forests & Mountains: When a player is using a Boat card to move from
    one River Dot to the next in a River through Forests or Mountains, he does not need a
    Cloak or Rope card." """
    mv = river_map("FFFF", "FFFF")
    got = mv.destinations("d10", 4, ["boat"])
    assert got["d30"].cost == 4 and not got["d30"].stops_turn
    assert got["r0c2"].cost == 3 and got["r0c2"].stops_turn  # leaving into the forest


def test_city_dot_is_land_and_dot():
    """ "Cities with a River Dot ... are both land spaces and River Dot spaces at the same
    time. Players do not need a Boat card to stop on them ... With a Boat card, a player on
    such a space is both on the City and already on the River Dot." """
    dots = [("dcity", (5.0, 5.0), {"city": "r0c0"})] + DOTS
    mv = river_map(
        ".FFF",
        "FFFF",
        rivers=[[(5.0, 5.0), (10.0, 10.0), (30.0, 10.0)]],
        dots=dots,
        props={"r0c0": {"city": "good"}},
    )
    assert mv.resolve("dcity") == "r0c0"
    assert costs(mv, "r0c1", 1, ["cloak"])["r0c0"] == 1  # no Boat needed to stop on it
    got = mv.destinations("r0c0", 4, ["boat"])  # already on the dot
    assert got["d25"].cost == 4 and got["d25"].path == ("r0c0", "d10", "d15", "d20", "d25")
    assert mv.validate(["dcity", "d10"], 1, ["boat"]).cost == 1
    assert code_of(mv.validate, ["r0c0", "d10"], 6) == "needs_boat"


# ------------------------------------------------------------------ oceans and lakes
def test_ocean_one_or_two_per_count_land_to_water_one():
    """ "It takes 1 count of the die to go from land to an adjacent water space ... With a
    Boat card, move 1 or 2 spaces per count of the die once in the Ocean or a Lake." """
    mv = brick(["..OOOO"])
    assert costs(mv, "r0c1", 3, ["boat"]) == {"r0c0": 1, "r0c2": 1, "r0c3": 2, "r0c4": 2, "r0c5": 3}
    assert mv.validate(["r0c5", "r0c4", "r0c3", "r0c2", "r0c1"], 3, ["boat"]).cost == 3
    assert code_of(mv.validate, ["r0c1", "r0c2"], 6) == "needs_boat"
    assert costs(mv, "r0c1", 6) == {"r0c0": 1}


def test_lake_is_water_too():
    """ "To move into any Ocean or Lake space, a player must have a Boat card." """
    mv = brick([".LL"])
    assert costs(mv, "r0c0", 2, ["boat"]) == {"r0c1": 1, "r0c2": 2}
    assert code_of(mv.validate, ["r0c0", "r0c1"], 2) == "needs_boat"


def test_ocean_to_river_with_the_same_boat():
    """ "A player may use the same Boat card to move from the Ocean or Lake to a River,
    and vice-versa. Getting on or off the River Dot takes 1 count of the die." """
    mv = river_map("...O")
    assert mv.beside("d30") == {"r0c2", "r0c3", "r1c2"}
    assert mv.validate(["r0c3", "d30", "d25", "d20"], 3, ["boat"]).cost == 3
    assert code_of(mv.validate, ["r0c3", "d30"], 6) == "needs_boat"
    assert costs(mv, "d25", 2, ["boat"])["r0c3"] == 2
    assert mv.validate(["d25", "d30", "r0c3"], 2, ["boat"]).cost == 2


# ------------------------------------------------------------------ moving at all
def test_must_move_and_end_elsewhere():
    """ "must move at least one space per turn ... Each move must end on a different
    space." """
    mv = brick(["...."])
    assert code_of(mv.validate, ["r0c0"], 6) == "same_space"
    assert code_of(mv.validate, ["r0c0", "r0c1", "r0c0"], 6) == "same_space"
    assert "r0c0" not in mv.destinations("r0c0", 6)
    assert mv.destinations("r0c0", 0) == {}
    assert code_of(mv.validate, ["r0c0", "r0c2"], 6) == "not_adjacent"


def test_unknown_names_get_the_closest():
    mv = brick(["...."])
    assert mv.resolve("space 0-1") == "r0c1"
    with pytest.raises(UnknownNodeError) as exc:
        mv.resolve("Spase 0-1")
    assert "Space 0-1" in str(exc.value)
    with pytest.raises(UsageError):
        mv.destinations("r0c0", 2, ["horse"])
    with pytest.raises(UsageError):
        mv.destinations("r0c0", -1)


def test_within_counts_touch_ignoring_terrain_rivers_water():
    """docs/rulings.md: "Within N spaces" counts touch steps, ignoring terrain, rivers and
    water."""
    mv = brick([".MOF.F..."], rivers=[[(20.0, 0.0), (20.0, 10.0)]])
    d = mv.distances("r0c0", 6)
    assert d == {f"r0c{i}": i for i in range(7)}
    assert mv.within("r0c0", 1) == {"r0c0", "r0c1"}


def test_beside_across_rivers():
    """ "Friendly Exchanges & Battles may take place across Rivers ... if both players are on
    the same, or adjacent spaces. When a player is on a River Dot, only the 3 spaces which
    come together at that River Dot are adjacent to him." """
    mv = river_map()
    assert "r1c1" in mv.beside("r0c1")  # across the river
    assert mv.beside("d15") == {"r0c1", "r1c0", "r1c1"}
    assert "d15" in mv.beside("r1c0") and "d15" not in mv.beside("r0c2")


# ------------------------------------------------------------------ flights
FLY = ["..F.OO....", "..M.......", ".........."]


def test_eagles_fly_anywhere_landing_rules():
    """ "Eagles and Dragon Birds ... allow players to move to any space on the board at any
    distance ... When a player flies to a Forest or Mountain space, he must stop on that
    space ... To land on a water space, a Boat is also needed." """
    mv = brick(FLY, props={"r2c9": {"role": "exit_limbo"}})
    got = mv.flight_targets("r0c0")
    assert "r2c8" in got and "r0c0" not in got
    assert "r0c4" not in got and "r0c4" in mv.flight_targets("r0c0", ["boat"])
    assert got["r0c2"].stops_turn and got["r1c2"].stops_turn and not got["r2c8"].stops_turn
    assert not mv.flight_targets("r0c0", ["cloak"])["r0c2"].stops_turn
    assert "r2c9" not in got  # the Exit Limbo space is not part of the board
    assert code_of(mv.validate_flight, "r0c0", "r0c4") == "needs_boat"
    assert code_of(mv.validate_flight, "r0c0", "r2c9") == "off_board"


def test_bombadil_within_six():
    """ "Tom Bombadil allows a player to pick up his marker and place it on any space within
    6 spaces of his position ... to land on a water space, a boat is also needed." """
    mv = brick(["..F.OO...."])
    got = mv.flight_targets("r0c0", bombadil=True)
    assert set(got) == {"r0c1", "r0c2", "r0c3", "r0c6"}
    assert set(mv.flight_targets("r0c0", ["boat"], bombadil=True)) == {
        "r0c1",
        "r0c2",
        "r0c3",
        "r0c4",
        "r0c5",
        "r0c6",
    }
    assert code_of(mv.validate_flight, "r0c0", "r0c7", bombadil=True) == "too_far"


# ------------------------------------------------------------------ the turn around the move
def test_friendly_exchange_partners():
    """ "When a player stops on, or beside, the space occupied by another player, he must
    immediately have a Friendly Exchange with that player." Nobody exchanges with a
    player in LIMBO."""
    mv = river_map()
    others = {"Sam": "r0c1", "Merry": "r1c1", "Pippin": "r0c3", "BR1": "d15", "BR2": None}
    assert T.exchange_partners(mv, "r0c1", others) == ["BR1", "Merry", "Sam"]
    assert T.exchange_partners(mv, "d15", {k: v for k, v in others.items() if k != "BR1"}) == [
        "Merry",
        "Sam",
    ]
    assert T.exchange_partners(mv, "r0c3", {"Pippin": "r0c3"}) == ["Pippin"]


def test_city_pick_up_rotation():
    """ "A player may not go back and forth between two Cities picking up cards. He must
    pick up cards from at least 2 other Cities before returning to pick up again from a
    City he has already used." """
    assert T.may_pick_up("A", [])
    assert not T.may_pick_up("A", ["A"])
    assert not T.may_pick_up("A", ["A", "B"])
    assert not T.may_pick_up("A", ["A", "B", "B"])
    assert T.may_pick_up("A", ["A", "B", "C"])
    assert not T.may_pick_up("A", ["A", "B", "C", "A", "D"])


def test_ten_card_limit():
    """ "Every time a player picks up any cards from the deck, he must discard 1 card ...
    If he has over 10 cards, he must discard ... exactly 10 cards at the end of his turn.
    ... Cards taken after an incorrect Riddle do not count against the 10 card limit." """
    assert T.discards_at_end_of_turn(9, picked_up=True) == 1
    assert T.discards_at_end_of_turn(13, picked_up=True) == 3
    assert T.discards_at_end_of_turn(11, picked_up=False) == 1
    assert T.discards_at_end_of_turn(1, picked_up=True) == 1  # Bill Ferny: left with none
    assert T.discards_at_end_of_turn(10, picked_up=True, in_limbo=True) == 0
    assert T.over_hand_limit(11) and not T.over_hand_limit(10)
    assert not T.over_hand_limit(12, riddle_cards=2)


def test_leaving_limbo_within_six_of_exit_limbo():
    """ "When leaving or escaping from LIMBO, place your marker on any space within 6
    spaces of the Exit LIMBO space" — "LIMBO and the Exit Limbo space are not considered
    part of the board"; from captivity, within 6 of the captor."""
    mv = brick(["...O......"], props={"r0c0": {"role": "exit_limbo"}})
    assert T.limbo_exit_spaces(mv) == {"r0c1", "r0c2", "r0c4", "r0c5", "r0c6"}
    assert T.limbo_exit_spaces(mv, captor="r0c9") == {
        "r0c4",
        "r0c5",
        "r0c6",
        "r0c7",
        "r0c8",
        "r0c9",
    }


def test_c_space_sees_within_six():
    """ "Any player whose marker is stopped on any such "C" space may see the entire hands
    of 1 or 2 players within 6 spaces of that particular "C" space." """
    mv = brick([".........", "........."], props={"r0c0": {"letters": ["C"]}})
    pos = {"me": "r0c0", "near": "r0c6", "far": "r0c7", "row1": "r1c5", "limbo": None}
    assert T.c_space_sees(mv, "r0c0", pos, viewer="me") == ["near", "row1"]
    assert code_of(T.c_space_sees, mv, "r0c1", pos) == "not_a_c_space"


def test_search_matches_the_networkx_oracle_on_random_maps():
    """Property: on random brick maps with roads, rivers, water and all card sets, the
    fast search finds exactly the costs of the expanded-state-graph Dijkstra."""
    rng = random.Random(7)
    for _ in range(6):
        rows = ["".join(rng.choice("....FMO") for _ in range(8)) for _ in range(4)]
        road = [
            f"r{r}c{c}"
            for r, c in ((0, 0), (0, 1), (1, 1), (1, 2), (2, 2), (2, 3), (2, 4), (3, 4), (3, 5))
        ]
        for r, c in ((0, 0), (0, 1), (1, 1), (1, 2), (2, 2), (2, 3), (2, 4), (3, 4), (3, 5)):
            rows[r] = rows[r][:c] + rng.choice(".FM") + rows[r][c + 1 :]
        rows[0], rows[1] = "...." + rows[0][4:], "..." + rows[1][3:]  # land at the dots
        mv = brick(rows, roads=[road], rivers=RIVER_ROW, dots=DOTS, bridges=[(17.5, 10.0)])
        for _ in range(8):
            start = rng.choice(mv.ids)
            cards = [c for c in ALL if rng.random() < 0.5]
            costs(mv, start, rng.randint(1, 6), cards)


def test_within_and_c_spaces_from_a_river_dot():
    """Counting "within N spaces" from a river dot starts at its three spaces; a player on
    a dot is seen by a C space when one of the dot's spaces is within 5 of it."""
    mv = river_map("....", "....", props={"r0c3": {"letters": ["C"]}})
    d = mv.distances("d15", 1)
    assert d == {"r0c1": 1, "r1c0": 1, "r1c1": 1}
    assert T.c_space_sees(mv, "r0c3", {"a": "d10", "b": None}) == ["a"]
    far = brick([".........."], props={"r0c9": {"letters": ["C"]}})
    assert T.c_space_sees(far, "r0c9", {"x": "r0c2", "y": "r0c3"}) == ["y"]


def test_validated_moves_are_kept_and_refusals_are_not(monkeypatch):
    """A move is validated when it is checked and again when it is applied: the second
    time gives the same answer from the movement referee's memo, which keeps at most
    ``VALIDATED_KEPT`` moves and never a refusal (the same path with a higher roll is
    still allowed after a ``too_far``)."""
    from referee.games.riddle import movement

    monkeypatch.setattr(movement, "VALIDATED_KEPT", 3)
    mv = brick(["......"], roads=[ROW[:6]])
    assert code_of(mv.validate, ROW[:6], 2) == "too_far"
    assert code_of(mv.validate, ROW[:6], 2) == "too_far"
    first = mv.validate(ROW[:6], 3)
    assert mv.validate(tuple(ROW[:6]), 3) is first
    assert (first.node, first.cost, first.stops_turn) == ("r0c5", 3, False)
    for n in range(2, 6):  # more moves than it keeps: forgotten at once, then kept again
        assert mv.validate(ROW[:n], 3).node == ROW[n - 1]
        assert len(mv._validated) <= 3
    assert mv.validate(ROW[:6], 3) == first
