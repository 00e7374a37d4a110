"""Riddle of the Ring, movement during a turn: the die move, Horse rides, flights
(Eagles, Dragon Birds) and Tom Bombadil's hop, through the movement referee
(:mod:`.movement`); the Cloak/Rope a move names (``+cloak``/``+rope``, "may use"),
a Boat when needed; the obligatory Friendly Exchanges a stop makes due; and the legal
move listing (cached per board).

Notes
-----
Listing is dominated by :meth:`.movement.Movement.destinations`; its results are cached
per (start, counts, table cards, hand cards, card) on the compiled board.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from ...errors import IllegalMoveError
from . import turn
from .common import board_cache, illegal
from .events import told
from .movement import FOREST, MOUNTAIN
from .moves import Move, path_text
from .protocol import Riddle
from .state import Player


def movable(g: Riddle) -> None:
    p = g.me
    if p.status != "board" or p.pos is None:
        raise illegal("not_on_board", f"{p.name} is not on the board")
    if g.t.stopped:
        raise illegal(
            "stopped",
            "you entered a forest or mountain without a Cloak or Rope: no more movement this turn",
        )


def fit_cards(
    g: Riddle, try_: Callable[[tuple[str, ...]], Any], uses: tuple[str, ...]
) -> tuple[Any, tuple[str, ...]]:
    """The :class:`Reach` of a move using the Cloak/Rope the move names (``uses``),
    the cards on the table, and a Boat from the hand when the move needs one.

    ``try_(cards)`` returns a :class:`Reach` or raises. Returns the reach and the
    card kinds that go from the hand to the table. A named card that changes
    nothing is refused (``card_not_needed``): one text per way of moving.
    """
    p = g.me
    table = g._kinds_on_table(p)
    hand = g._hand_kinds(p)
    for k in uses:
        if k in table:
            raise illegal(
                "on_table",
                f"your {k.capitalize()} is already on the table and in use: leave out +{k}",
                card=k,
            )
        if k not in hand:
            raise illegal("no_card", f"you hold no {k.capitalize()} card", card=k)
    chosen = table | set(uses)
    used = tuple(uses)
    try:
        reach = try_(tuple(sorted(chosen)))
    except IllegalMoveError as exc:
        if "boat" not in hand or "boat" in chosen:
            raise with_hint(exc, hand, table) from None
        try:
            reach = try_(tuple(sorted(chosen | {"boat"})))
        except IllegalMoveError as exc2:
            raise with_hint(exc2, hand, table) from None
        chosen = chosen | {"boat"}
        used = (*uses, "boat")
    for k in uses:
        try:
            r2 = try_(tuple(sorted(chosen - {k})))
        except IllegalMoveError:
            continue
        if r2.stops_turn and not reach.stops_turn:
            continue
        raise illegal(
            "card_not_needed",
            f"this move neither needs your {k.capitalize()} nor stops without it: leave out +{k}",
            card=k,
        )
    return reach, used


def with_hint(exc: IllegalMoveError, hand: dict[str, str], table: set[str]) -> IllegalMoveError:
    """``exc`` with a hint when a Cloak/Rope in the hand would have kept the player going."""
    k = {"must_stop_in_forest": "cloak", "must_stop_in_mountain": "rope"}.get(exc.code or "")
    if k is None or k not in hand or k in table:
        return exc
    return IllegalMoveError(
        f"{exc} (add +{k} to use your {k.capitalize()})",
        code=exc.code,
        location=exc.location,
        details=exc.details,
    )


def fit_path(
    g: Riddle, path: tuple[str, ...], counts: int, uses: tuple[str, ...]
) -> tuple[Any, tuple[str, ...]]:
    p = g.me
    path = tuple(g._node(x) for x in path)
    if not path or path[0] != p.pos:
        raise illegal(
            "bad_path",
            f"a path starts where you stand ({p.pos}), not at {path[0] if path else 'nothing'}",
            path=list(path),
        )
    if len(path) < 2:
        raise illegal("no_move", "a move must go at least one space")
    reach, used = fit_cards(g, lambda cards: g.mv.validate(path, counts, cards), uses)
    if reach.node == p.pos:
        raise illegal("same_space", "a move must end on a different space than it began")
    return reach, used


def fit_flight(
    g: Riddle, space: str, bombadil: bool, uses: tuple[str, ...]
) -> tuple[Any, tuple[str, ...]]:
    p = g.me
    space = g._node(space)

    def attempt(cards: tuple[str, ...]) -> Any:
        r = g.mv.flight_targets(p.pos, cards, bombadil=bombadil).get(space)
        if r is None or space == p.pos:
            raise illegal(
                "cannot_land",
                f"cannot {'hop' if bombadil else 'fly'} to {space}"
                + (" (a Boat is needed to land on water)" if g.info.is_water(space) else ""),
                space=space,
            )
        return r

    return fit_cards(g, attempt, uses)


def flag_cards(flags: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(f[1:] for f in flags)


def check_move(g: Riddle, path: str, *flags: str) -> None:
    movable(g)
    if g.t.die_used:
        raise illegal("die_used", "you have already moved with the die this turn")
    reach, _ = fit_path(g, tuple(path.split(">")), g.t.roll, flag_cards(flags))
    not_back_for_good(g, reach, Move.of("move", path, *flags))


def apply_move(g: Riddle, ev: list[dict[str, Any]], path: str, *flags: str) -> None:
    reach, used = fit_path(g, tuple(path.split(">")), g.t.roll, flag_cards(flags))
    g.t.die_used = True
    do_move(g, ev, reach, used, "die")


def check_ride(g: Riddle, card: str, path: str, *flags: str) -> None:
    movable(g)
    u = g._usable(g.me, card, "extra_move")
    reach, _ = fit_path(g, tuple(path.split(">")), int(u["n"]), flag_cards(flags))
    not_back_for_good(g, reach, Move.of("ride", card, path, *flags))


def apply_ride(g: Riddle, ev: list[dict[str, Any]], card: str, path: str, *flags: str) -> None:
    u = g.ctype(card).use("extra_move")
    reach, used = fit_path(g, tuple(path.split(">")), int(u["n"]), flag_cards(flags))
    g._after(g.me, card, u.get("after", "discard"))
    do_move(g, ev, reach, used, card)


def check_fly(g: Riddle, card: str, space: str, *flags: str) -> None:
    movable(g)
    g._usable(g.me, card, "fly")
    reach, _ = fit_flight(g, space, False, flag_cards(flags))
    not_back_for_good(g, reach, Move.of("fly", card, space, *flags))


def apply_fly(g: Riddle, ev: list[dict[str, Any]], card: str, space: str, *flags: str) -> None:
    reach, used = fit_flight(g, space, False, flag_cards(flags))
    g._after(g.me, card, g.ctype(card).use("fly").get("after", "discard"))
    do_move(g, ev, reach, used, card)


def check_hop(g: Riddle, card: str, space: str, *flags: str) -> None:
    movable(g)
    g._usable(g.me, card, "hop")
    reach, _ = fit_flight(g, space, True, flag_cards(flags))
    not_back_for_good(g, reach, Move.of("hop", card, space, *flags))


def apply_hop(g: Riddle, ev: list[dict[str, Any]], card: str, space: str, *flags: str) -> None:
    reach, used = fit_flight(g, space, True, flag_cards(flags))
    g._after(g.me, card, g.ctype(card).use("hop").get("after", "discard"))
    do_move(g, ev, reach, used, card)


def not_back_for_good(g: Riddle, reach: Any, move: Move) -> None:
    """Refuse a move back to the turn's starting space after which the player could
    neither move on nor win: "No player may begin and end a turn on the same space,
    unless he ... wins the game on that turn" (rulings § Riddle movement)."""
    if reach.node != g.t.start or can_leave_after(g, move):
        return
    raise illegal(
        "same_space",
        f"back on {reach.node}, where your turn began, you could not move on: "
        "no player may begin and end a turn on the same space",
        space=reach.node,
    )


def can_leave_after(g: Riddle, move: Move) -> bool:
    """After ``move`` (which ends where the turn began) a move on, or a win, is legal."""
    after = g.copy()
    after._apply(move)
    return has_any_move(after) or after._ok(Move.of("ring"))


def do_move(
    g: Riddle, ev: list[dict[str, Any]], reach: Any, used: tuple[str, ...], how: str
) -> None:
    p = g.me
    hk = g._hand_kinds(p)
    for k in used:
        c = hk[k]
        p.hand.remove(c)
        p.table.append(c)
    frm = p.pos
    p.pos = reach.node
    g.t.moved = True
    if reach.stops_turn:
        g.t.stopped = True
    g.t.exchanged = []
    ev.append(
        g.event(
            "move",
            player=p.name,
            from_=frm,
            to=p.pos,
            by=how,
            path=list(reach.path),
            cards_to_table=list(used),
            stopped=bool(reach.stops_turn),
        )
    )
    for q in g.seats:
        if q.status == "captive" and q.captor == p.name:
            q.pos = p.pos
            got = g.hidden.get(p.pos, {}).pop(q.name, None) if g.opts["secret_spots"] else None
            if got:
                p.hand.extend(got)
                ev.append(
                    told(
                        g,
                        "captive_hidden_cards",
                        [p.name],
                        {"got": list(got)},
                        player=p.name,
                        captive=q.name,
                        count=len(got),
                    )
                )
    # "If a player has no cards, there is no exchange": nobody is owed one by or with
    # a player who holds no cards when the mover stops (rulings § Riddle, no cards)
    others = {
        q.name: q.pos if q.status == "board" and not q.out and q.hand else None
        for q in g.seats
        if q is not p
    }
    near = set(turn.exchange_partners(g.mv, reach.node, others)) if p.hand else set()
    pending = [q.name for q in seated(g) if q.name in near]  # in seating order
    g.t.pending = pending
    if pending:
        g.phase = "exchange"
        ev.append(g.event("exchanges_due", player=p.name, with_=list(pending)))


def seated(g: Riddle) -> list[Player]:
    """Players in turn order starting after the player on turn."""
    n = len(g.seats)
    return [g.seats[(g.cur + k) % n] for k in range(1, n + 1)]


def move_groups(g: Riddle) -> Iterator[Iterable[Move]]:
    """The legal ``move``/``ride``/``fly``/``hop`` moves of the player on turn, in groups
    (the die's paths, each Horse's paths, each flight), in listing order.

    Groups, not single moves, so that a listing copies the cached lists of paths at C
    speed (:func:`move_list`) while :func:`has_any_move` still stops at the first."""
    p = g.me
    if p.status != "board" or p.pos is None or g.t.stopped:
        return
    uses = g._hand_uses(p)
    table = g._kinds_on_table(p)
    held = g._hand_kinds(p)
    # cards in use anyway: those on the table, and a Boat of the hand (used when needed)
    auto = tuple(sorted(table | ({"boat"} & held.keys())))
    optional = tuple(k for k in ("cloak", "rope") if k in held and k not in table)
    back = g.t.start if p.pos != g.t.start else None
    if not g.t.die_used and g.t.roll:
        found = paths(g, p.pos, g.t.roll, auto, optional, None)
        yield _unless_back_for_good(g, found, back)
    for c in uses.get("extra_move", ()):
        n = int(g.ctype(c).use("extra_move")["n"])
        yield _unless_back_for_good(g, paths(g, p.pos, n, auto, optional, c), back)
    for verb, use, bomb in (("fly", "fly", False), ("hop", "hop", True)):
        cards = uses.get(use, ())
        if cards:
            yield _flights(g, p.pos, verb, cards, bomb, auto, optional, back)


def _flights(
    g: Riddle,
    pos: str,
    verb: str,
    cards: list[str],
    bomb: bool,
    auto: tuple[str, ...],
    optional: tuple[str, ...],
    back: str | None,
) -> Iterator[Move]:
    for node, r in sorted(g.mv.flight_targets(pos, auto, bombadil=bomb).items()):
        if node == pos:
            continue
        k = "cloak" if g.info.terrain.get(node) == "forest" else "rope"
        flags = [()] + ([(f"+{k}",)] if r.stops_turn and k in optional else [])
        for c in cards:
            for f in flags:
                m = Move.of(verb, c, node, *f)
                if node != back or can_leave_after(g, m):
                    yield m


def move_list(g: Riddle) -> list[Move]:
    """Every legal ``move``/``ride``/``fly``/``hop`` of the player on turn, in order."""
    return list(itertools.chain.from_iterable(move_groups(g)))


def _unless_back_for_good(
    g: Riddle, found: tuple[list[Move], list[str]], back: str | None
) -> Iterator[Move]:
    """The moves of ``found`` but those back to the turn's start for good."""
    moves, dests = found
    if back is None or back not in dests:
        return iter(moves)  # the common case: no move ends where the turn began
    return (m for m, d in zip(moves, dests, strict=True) if d != back or can_leave_after(g, m))


def paths(
    g: Riddle,
    start: str,
    counts: int,
    auto: tuple[str, ...],
    optional: tuple[str, ...],
    card: str | None,
) -> tuple[list[Move], list[str]]:
    """``move PATH`` (or ``ride CARD PATH``) to every destination, with and without each
    Cloak/Rope of the hand (``optional``) where using it makes a difference, and the
    destination of each.

    Cached per board in two levels: the ways to move by (start, counts, cards in use
    anyway, optional cards) — shared by the die and a Horse of the same counts — and
    the moves by that and the card. (One deeper search serving every smaller count was
    tried: a breadth-first search to depth k finds exactly the paths of cost <= k of a
    deeper one, but searching 6 deep and filtering cost more than it saved.)
    """
    span = counts
    if not g.cache_paths:
        return _moves_of(_reach(g, start, span, auto, optional), card)
    move_cache = board_cache(g.compiled, "riddle.paths")
    key = (start, span, auto, optional)
    got = move_cache.get((key, counts, card))
    if got is None:
        reach_cache = board_cache(g.compiled, "riddle.reach")
        found = reach_cache.get(key)
        if found is None:
            found = reach_cache[key] = _reach(g, start, span, auto, optional)
        got = move_cache[(key, counts, card)] = _moves_of(found, card)
    return got


def _moves_of(
    found: list[tuple[str, str, tuple[str, ...], int]], card: str | None
) -> tuple[list[Move], list[str]]:
    """The moves (``move``, or ``ride CARD`` for a Horse) of ``found`` (searched to the
    counts of the move, so every entry is within them) and their destinations.

    The moves are :meth:`Move.of` values, shared with every other listing of the same
    text: the cached listings of one board hold each move once, not once per (start,
    counts, cards) they were listed for (fewer objects for each full collection to walk).
    """
    of = Move.of
    if card is None:
        moves = [of("move", text, *flags) for _, text, flags, _ in found]
    else:
        moves = [of("ride", card, text, *flags) for _, text, flags, _ in found]
    return moves, [x[0] for x in found]


Found = list[tuple[str, str, tuple[str, ...], int]]


def _reach(
    g: Riddle, start: str, counts: int, auto: tuple[str, ...], optional: tuple[str, ...]
) -> Found:
    """``(destination, path text, flags, cost)`` of every way to move, by destination:
    without the optional cards, then with each set of them that makes a difference.

    The search without the optional cards, and each search with a set of them, are
    cached per board on their own (:func:`_base_reach`, :func:`_card_reach`): players
    holding different Cloaks/Ropes on the same space share the search without them."""
    base, stopped_in = _base_reach(g, start, counts, auto)
    # a card can matter only if its terrain is reached without it: a path that gains by
    # a Cloak enters a forest, and the path up to the first forest is a move without
    # the Cloak (no dearer), which stops there
    useful = [k for k in optional if STOP_TERRAIN[k] in stopped_in]
    found = list(base)
    for size in range(1, len(useful) + 1):
        for combo in itertools.combinations(useful, size):
            found.extend(_card_reach(g, start, counts, auto, combo))
    found.sort(key=_by_node_then_flags)  # stable: the order above within a destination
    return found


def _sub_cache(g: Riddle, name: str) -> dict[Any, Any] | None:
    """The per-board cache ``name`` (:func:`.common.board_cache`), or ``None`` when
    paths are not cached."""
    return board_cache(g.compiled, name) if g.cache_paths else None


def _base_reach(
    g: Riddle, start: str, counts: int, auto: tuple[str, ...]
) -> tuple[Found, frozenset[int]]:
    """The ways to move without the optional cards, in search order, and the terrain
    codes of the destinations where they stop the turn."""
    cache = _sub_cache(g, "riddle.reach_base")
    key = (start, counts, auto)
    got = None if cache is None else cache.get(key)
    if got is None:
        stop, index = g.mv.terrain_stop, g.mv.index
        found: Found = []
        stopped_in: set[int] = set()  # terrains entered (and stopped in) without the cards
        for node, r in g.mv.destinations(start, counts, set(auto)).items():
            if node != start:
                found.append((node, path_text(r.path), (), r.cost))
                if r.stops_turn:
                    stopped_in.add(stop[index[node]])
        got = (found, frozenset(stopped_in))
        if cache is not None:
            cache[key] = got
    return got


def _card_reach(
    g: Riddle, start: str, counts: int, auto: tuple[str, ...], combo: tuple[str, ...]
) -> Found:
    """The ways to move using the Cloak/Rope of ``combo`` besides ``auto`` where each
    card of ``combo`` makes a difference, in search order."""
    cache = _sub_cache(g, "riddle.reach_cards")
    key = (start, counts, auto, combo)
    got = None if cache is None else cache.get(key)
    if got is None:
        cards = set(auto) | set(combo)
        flags = tuple(f"+{k}" for k in combo)
        got = [
            (node, path_text(r.path), flags, r.cost)
            for node, r in g.mv.destinations(start, counts, cards).items()
            if node != start and makes_difference(g, r, counts, cards, combo)
        ]
        if cache is not None:
            cache[key] = got
    return got


def _by_node_then_flags(
    x: tuple[str, str, tuple[str, ...], int],
) -> tuple[str, tuple[str, ...]]:
    return x[0], x[2]


#: the card -> the movement referee's code of the terrain it lets a player go on in
STOP_TERRAIN = {"cloak": FOREST, "rope": MOUNTAIN}


def makes_difference(
    g: Riddle, reach: Any, counts: int, cards: set[str], combo: tuple[str, ...]
) -> bool:
    """Each Cloak/Rope of ``combo`` is needed on ``reach.path`` or keeps it going.

    Without the card, its terrain (forest for the Cloak, mountain for the Rope, without
    a road) entered on the way ends the move there (the path is refused), and entered
    last stops the turn; the card changes no cost. So: needed when its terrain is
    passed through, useful when it is the end and the move goes on; else neither.
    """
    stop, index = g.mv.terrain_stop, g.mv.index
    path = reach.path
    for k in combo:
        terrain = STOP_TERRAIN[k]
        if any(stop[index[n]] == terrain for n in path[1:-1]):
            continue  # needed to pass through
        if stop[index[path[-1]]] == terrain and not reach.stops_turn:
            continue  # keeps the player going where he would have stopped
        return False
    return True


def has_any_move(g: Riddle) -> bool:
    return any(any(True for _ in group) for group in move_groups(g))
