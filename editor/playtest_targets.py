"""Card, then target: what a card picked in the hand may be played on.

The same reading of the referee's moves as the browser table's (``cardsOf`` and
``cardPlays`` in ``referee/net/static/table.js``): a move uses a held card when one
of its words (after the verb) names it, or a ``+cloak``-style flag names its kind; a
held card named like a seat right after another card is that card's target, not a
card. The target of a move using the card is

- the space it puts a figure on, when the game's ``move_targets()`` lists it;
- else the first seat or figure it names after the card (a player, a figure);
- else none: the move is played from the card alone.

Nothing here decides a rule: the moves are the referee's legal moves, and the one
played is one of them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field


@dataclass
class CardPlays:
    """The legal moves using one card, by the target a click names.

    Attributes
    ----------
    spaces : dict
        Node id -> the moves that put a figure there.
    figures : dict
        Figure id -> the moves naming that figure after the card.
    players : dict
        Seat -> the moves naming that player after the card.
    loose : list
        The moves using the card with no target to click.
    """

    spaces: dict[str, list[str]] = field(default_factory=dict)
    figures: dict[str, list[str]] = field(default_factory=dict)
    players: dict[str, list[str]] = field(default_factory=dict)
    loose: list[str] = field(default_factory=list)

    def __len__(self) -> int:
        return (
            sum(map(len, self.spaces.values()))
            + sum(map(len, self.figures.values()))
            + sum(map(len, self.players.values()))
            + len(self.loose)
        )


def cards_of(move: str, held: Sequence[str], seats: Sequence[str]) -> list[tuple[str, int]]:
    """The held cards ``move`` uses, as ``(card id, word index)`` in word order."""
    out: list[tuple[str, int]] = []
    if not held:
        return out
    for i, w in enumerate(move.split(" ")):
        if i == 0:
            continue
        if w.startswith("+"):
            k = w[1:]
            cid = next((h for h in held if h == k or h.startswith(k + ".")), None)
            if cid is not None:
                out.append((cid, i))
        elif w in held and not (out and w in seats):
            out.append((w, i))
    return out


def card_plays(
    card: str | None,
    moves: Iterable[str],
    *,
    held: Sequence[str],
    seats: Sequence[str],
    figures: Iterable[str],
    targets: Mapping[str, Mapping[str, Sequence[object]]],
) -> CardPlays:
    """What ``card`` may be played on among ``moves`` (texts of legal moves).

    ``targets`` is the game's ``move_targets()`` (figure -> node -> moves), read for
    the spaces the moves go to.
    """
    plays = CardPlays()
    if card is None:
        return plays
    dest = {str(m): node for dests in targets.values() for node, ms in dests.items() for m in ms}
    figs = set(figures)
    for m in moves:
        use = next((at for cid, at in cards_of(m, held, seats) if cid == card), None)
        if use is None:
            continue
        if m in dest:
            plays.spaces.setdefault(dest[m], []).append(m)
            continue
        ws = m.split(" ")
        hit = next((w for w in ws[use + 1 :] if w in seats or w in figs), None)
        if hit is None:
            plays.loose.append(m)
        elif hit in seats:
            plays.players.setdefault(hit, []).append(m)
        else:
            plays.figures.setdefault(hit, []).append(m)
    return plays


__all__ = ["CardPlays", "card_plays", "cards_of"]
