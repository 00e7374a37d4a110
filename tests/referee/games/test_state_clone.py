"""The kit's clone of a declared state (``referee.games.state.clone``): what
``decode(encode(x))`` builds, sharing nothing mutable, following the declaration."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from referee.games.outcome import Outcome, won
from referee.games.state import clone, decode, encode


@dataclass(slots=True)
class Inner:
    name: str
    cards: list[str] = field(default_factory=list)
    where: str | None = None


@dataclass
class Outer:
    seats: list[Inner]
    piles: dict[str, list[str]]
    by: dict[str, Inner]
    extra: dict[str, Any] | None
    phase: Literal["a", "b"] = "a"
    pair: tuple[int, ...] = (1, 2)
    result: Any = None
    outcome: Outcome | None = None


def sample() -> Outer:
    return Outer(
        seats=[Inner("a", ["x", "y"], "s1"), Inner("b")],
        piles={"draw": ["p", "q"]},
        by={"a": Inner("a", ["z"])},
        extra={"att": ["c1"], "n": {"deep": [1, 2]}},
        phase="b",
        result=[{"k": [1]}],
        outcome=won(["a"], how="ring"),
    )


def test_clone_equals_a_json_round_trip_and_shares_nothing_mutable():
    x = sample()
    y = clone(x)
    assert y == x == decode(Outer, encode(x))
    assert y.outcome is x.outcome  # frozen: shared
    y.seats[0].cards.append("w")
    y.piles["draw"].pop()
    y.by["a"].cards.clear()
    assert y.extra is not None
    y.extra["att"].append("c2")
    y.extra["n"]["deep"].append(3)
    y.result[0]["k"].append(2)
    assert x == sample()


def test_a_field_added_to_a_declaration_is_cloned_too():
    @dataclass
    class Grown:
        seats: list[Inner]
        added: list[str] = field(default_factory=list)

    g = Grown([Inner("a")], ["new"])
    h = clone(g)
    h.added.append("more")
    assert g.added == ["new"] and h.added == ["new", "more"]
