"""The one move type every game shares: a verb and its words.

A :class:`Move` is a small hashable value, like ``chess.Move``: ``str(move)`` is its
text, ``Move.parse(str(move)) == move`` and ``eval(repr(move)) == move`` (with the
class in scope). A game declares its vocabulary by subclassing::

    class RaceMove(Move):
        VERBS = {"roll": 0, "move": 1, "pass": 0}


    RaceMove.parse("move red-1")  # RaceMove('move', 'red-1')

``VERBS`` maps each verb to the number of words that follow it (an ``int``, or a
``(least, most)`` pair). A game whose commonest move has no verb (Ringgeister's
``hobbit-yellow t3/p2``) names it in ``IMPLIED_VERB``: its text leaves the verb out,
and :meth:`Move.parse` reads a line whose first word is no verb as that verb.
"""

from __future__ import annotations

from typing import Any, ClassVar

from ..errors import IllegalMoveError

__all__ = ["Move"]


class Move:
    """A move: ``verb`` and its ``args`` (words without spaces).

    Parameters
    ----------
    verb : str
        What the move does (``"step"``, ``"roll"``, ``"pass"``...).
    *args : str
        The words that follow the verb (figure ids, node ids, card ids...).

    Notes
    -----
    Equality and hash go by class, verb and words; creating one costs about a
    microsecond, so move generators may build thousands per second.
    """

    __slots__ = ("_hash", "args", "verb")

    #: verb -> number of words after it, or (least, most); empty: any verb is read
    VERBS: ClassVar[dict[str, int | tuple[int, int]]] = {}
    #: the verb left out of the text (``None``: every text starts with its verb)
    IMPLIED_VERB: ClassVar[str | None] = None

    verb: str
    args: tuple[str, ...]
    _hash: int

    def __init__(self, verb: str, *args: str) -> None:
        setattr_ = object.__setattr__
        setattr_(self, "verb", verb)
        setattr_(self, "args", args)
        setattr_(self, "_hash", hash((verb, args)))

    # ------------------------------------------------------------------ value
    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and self.verb == other.verb and self.args == other.args

    def __hash__(self) -> int:
        return self._hash

    def __setattr__(self, name: str, value: Any) -> None:
        if hasattr(self, "_hash"):
            raise AttributeError(f"{type(self).__name__} is immutable")
        object.__setattr__(self, name, value)

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self.verb, *self.args))

    def __str__(self) -> str:
        if self.verb == self.IMPLIED_VERB:
            return " ".join(self.args)
        return " ".join((self.verb, *self.args))

    def __repr__(self) -> str:
        return f"{type(self).__name__}({', '.join(repr(w) for w in (self.verb, *self.args))})"

    @property
    def text(self) -> str:
        """The move's text (same as ``str(move)``)."""
        return str(self)

    # ------------------------------------------------------------------ reading
    @classmethod
    def parse(cls, text: str) -> Move:
        """Read a move from its text (case of the verb ignored, spaces collapsed).

        Raises
        ------
        IllegalMoveError
            Code ``bad_move``, naming the verbs the game knows.
        """
        if not isinstance(text, str):
            raise IllegalMoveError(f"a move must be text, not {text!r}", code="bad_move")
        words = text.split()
        if not words:
            raise IllegalMoveError(f"empty move ({cls._usage()})", code="bad_move")
        verb = words[0].lower()
        if cls.VERBS and verb not in cls.VERBS:
            if cls.IMPLIED_VERB is None:
                raise IllegalMoveError(
                    f"cannot read move {text!r}: unknown verb {words[0]!r} ({cls._usage()})",
                    code="bad_move",
                    details={"move": text},
                )
            verb, args = cls.IMPLIED_VERB, words
        else:
            args = words[1:]
        want = cls.VERBS.get(verb)
        if want is not None:
            least, most = (want, want) if isinstance(want, int) else want
            if not least <= len(args) <= most:
                raise IllegalMoveError(
                    f"cannot read move {text!r}: {verb!r} takes "
                    f"{least if least == most else f'{least} to {most}'} word(s) ({cls._usage()})",
                    code="bad_move",
                    details={"move": text},
                )
        return cls(verb, *args)

    @classmethod
    def _usage(cls) -> str:
        if not cls.VERBS:
            return "a verb and its words"
        return "verbs: " + ", ".join(v for v in cls.VERBS if v != cls.IMPLIED_VERB)
