"""Riddle of the Ring moves: a verb and its arguments, written as words.

Every decision in a game is one small move, made by the player :attr:`to_move`
names (the player on turn, or the defender of a battle, or the target of
clairvoyance who may resist). Text forms::

    roll                          start a turn (or a turn in Limbo) by rolling the die
    reroll gimli                  roll again with a card that allows it
    move s1>s2>s3                 move along a path with the counts of the die
    move s1>s2 +cloak             ... using a Cloak (+rope: a Rope) from the hand
    ride horse4 s3>s4             an extra move with a card that gives counts
    fly eagles.1 s40              fly (Eagles / Dragon Birds)
    hop tom_bombadil s9           Tom Bombadil: any space within 6
    exchange sam                  a Friendly Exchange with a player beside you
    offer boat.1 | pick rope.2    Variation 2a/2c exchanges between partners
    ask boat | noask              Variation 2b: ask your partner for a title (or not) ...
    grant boat.2 | decline        ... and he gives a card of it, or declines (then 2a)
    look elf_ring.2 sam           clairvoyance (Wizard, Elf Ring, Palantir)
    clair sam                     clairvoyance from a "C" space
    peek gandalf s17              see the cards hidden at a Secret Spot with a Wizard
    resist the_ring | show        the target of clairvoyance answers
    share elf_ring.3              ... or, Variation 4, a partner shows his own Elf Ring/Palantir
    riddle riddle.3 sam horse     riddle a player and guess the title of the drawn card
    interrogate sam horse         a captor riddles his captive (no card, no Power Play)
    guess boat | stop             go on guessing after a right guess, or stop
    gollum gollum sam             take The Ring from a player
    draw frodo rider2             draw a card at random with a Hobbit/Black Rider card
    give frodo                    give a player his own card, see his hand ...
    take boat.2                   ... and take the card of your choice
    battle sam                    attack a player you had a Friendly Exchange with
    commit good_army2.1 | commit city:s12 | settle      the attacker's rounds
    match evil_army2.3 | match city:s12 | surrender     the defender's answers
    capture                       take the loser of a battle captive (Recommended Game)
    release sam                   let a captive go
    hide cloak.2 | retrieve cloak.2 | find sam          Secret Spots ("S" spaces)
    ring                          show The Ring and win
    pickup city | pickup bill_ferny | pass              end the turn
    discard boat.1                the discard after picking up / down to 10
    escape gandalf                leave Limbo or captivity with a Wizard
    place s20                     put your marker back on the board
    use sam | bring merry         Variation 14: the character to play this turn

Paths join node ids with ``>``. ``move``, ``ride``, ``fly`` and ``hop`` may end with
``+cloak`` and/or ``+rope``: the player uses that card from his hand ("may use the
Cloak"; rulings § Riddle movement). Without it, entering a forest (mountain) ends movement as usual.
A Boat is used when the move needs one; cards already on the table are in use anyway.
"""

from __future__ import annotations

from typing import ClassVar

from ...errors import IllegalMoveError
from ..moves import Move as KitMove

#: verb -> number of words after it (without the ``+cloak``/``+rope`` flags)
ARITY: dict[str, int] = {
    "roll": 0,
    "reroll": 1,
    "move": 1,
    "ride": 2,
    "fly": 2,
    "hop": 2,
    "exchange": 1,
    "look": 2,
    "clair": 1,
    "peek": 2,
    "resist": 1,
    "show": 0,
    "share": 1,
    "riddle": 3,
    "interrogate": 2,
    "guess": 1,
    "stop": 0,
    "gollum": 2,
    "draw": 2,
    "give": 1,
    "take": 1,
    "use": 1,
    "bring": 1,
    "offer": 1,
    "pick": 1,
    "battle": 1,
    "ask": 1,
    "noask": 0,
    "grant": 1,
    "decline": 0,
    "commit": 1,
    "settle": 0,
    "match": 1,
    "surrender": 0,
    "capture": 0,
    "release": 1,
    "hide": 1,
    "retrieve": 1,
    "find": 1,
    "ring": 0,
    "pickup": 1,
    "pass": 0,
    "discard": 1,
    "escape": 1,
    "place": 1,
}


#: verbs that may end with ``+cloak`` / ``+rope``
FLAGGED = frozenset({"move", "ride", "fly", "hop"})
#: the flags, in the order a move's text lists them
FLAGS = ("+cloak", "+rope")


class Move(KitMove):
    """A Riddle of the Ring move: the kit's :class:`~referee.games.moves.Move` with the
    game's verbs. ``str`` is the move's text; ``Move.parse(str(m)) == m``."""

    __slots__ = ()

    VERBS: ClassVar[dict[str, int | tuple[int, int]]] = {
        v: ((n, n + len(FLAGS)) if v in FLAGGED else n) for v, n in ARITY.items()
    }

    @classmethod
    def of(cls, verb: str, *args: str) -> Move:
        """The move ``verb args`` — the same value as ``Move(verb, *args)``, shared
        between listings (moves are immutable; listing builds many per second)."""
        key = (verb, args)
        m = _INTERNED.get(key)
        if m is None:
            if len(_INTERNED) > 100_000:
                _INTERNED.clear()
            m = _INTERNED[key] = cls(verb, *args)
        return m

    @classmethod
    def parse(cls, text: str) -> Move:
        """Parse a move's text; raise :class:`IllegalMoveError` (code ``bad_move``).

        Flags (``+cloak``, ``+rope``) are read in any order and written in one."""
        m = super().parse(text)
        verb, args = m.verb, m.args
        if verb not in FLAGGED:
            return cls(verb, *args)
        flags = tuple(a.lower() for a in args if a.startswith("+"))
        words = tuple(a for a in args if not a.startswith("+"))
        bad = [f for f in flags if f not in FLAGS]
        if bad or len(set(flags)) != len(flags) or len(words) != ARITY[verb]:
            raise IllegalMoveError(
                f"cannot read move {text!r}: {verb!r} takes {ARITY[verb]} word(s) and the "
                f"flags {' and '.join(FLAGS)} (each at most once)",
                code="bad_move",
                details={"move": text},
            )
        return cls(verb, *words, *(f for f in FLAGS if f in flags))

    @property
    def path(self) -> tuple[str, ...]:
        """The path of a ``move``/``ride`` (node ids)."""
        return tuple(self.args[0 if self.verb == "move" else 1].split(">"))

    @property
    def uses(self) -> tuple[str, ...]:
        """The movement cards (``cloak``, ``rope``) a move says it uses from the hand."""
        return tuple(a[1:] for a in self.args if a.startswith("+"))


_INTERNED: dict[tuple[str, tuple[str, ...]], Move] = {}


def path_text(path: tuple[str, ...] | list[str]) -> str:
    return ">".join(path)
