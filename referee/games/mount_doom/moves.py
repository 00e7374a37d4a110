"""The moves of Adventure to Mount Doom (see :mod:`.game` for the phases)."""

from __future__ import annotations

from ..moves import Move as KitMove

#: verb -> number of words after it (see :class:`referee.games.moves.Move`)
VERBS: dict[str, int | tuple[int, int]] = {
    "roll": (0, 2),
    "place": (1, 2),
    "go": 0,
    "use": (1, 3),
    "advance": 2,
    "army": 1,
    "reroll": 1,
    "fight": 0,
    "save": 1,
    "accept": 0,
    "vision": 1,
    "pass": 0,
    "count": 1,
    "done": 0,
}
#: cards used "at any time" are offered at every decision (DESIGN §6)
_ANY = frozenset({"use"})
#: phase -> the verbs a move may have in it (the kit's table; ``over``: none)
PHASES: dict[str, frozenset[str]] = {
    "start": _ANY | {"roll"},
    "place1": _ANY | {"place"},
    "roll2": _ANY | {"roll"},
    "place2": _ANY | {"place"},
    "resolve": _ANY | {"go"},
    "turned": _ANY | {"go"},
    "advance": _ANY | {"advance"},
    "army": _ANY | {"army"},
    "denethor": _ANY | {"reroll"},
    "battle": _ANY | {"fight"},
    "gandalf": _ANY | {"save", "accept"},
    "boromir": _ANY | {"accept"},
    "vision": _ANY | {"vision", "pass"},
    "friends": _ANY | {"count", "done"},
    "over": frozenset(),
}
#: variant name -> (friends in need, without protection)
VARIANTS = {
    "standard": (False, False),
    "friends-in-need": (True, False),
    "without-protection": (False, True),
    "both": (True, True),
}


class Move(KitMove):
    """A decision, e.g. ``Move("roll", "aragorn", "ringbearer")``; ``str`` is its text."""

    VERBS = VERBS


#: event type -> the template of its ``text`` (the kit's :meth:`~referee.games.base.Game.event`)
EVENTS: dict[str, str] = {
    "army_moved": "The Army of the Dead moves from position {from} to {to} and covers {covers}",
    "army_stays": "The Army of the Dead has no card beside it and stays",
    "battle": "A battle: supported by {support}",
    "battle_result": "Battle won: {won}",
    "battle_saved_by_gandalf": "{card} is discarded: the battle is won after all",
    "battle_won_by_card": "{card} wins the battle",
    "boromir": "Boromir: the battle die shows {face}; won: {won}",
    "card_received": "{player} receives {card}",
    "card_removed": "{card} leaves the game",
    "card_turned": "The card at {position} is turned face up: {card}",
    "card_used": "{card} is used and goes back in the box",
    "cocooned": "Shelob: the Ring-bearer is cocooned and does not move",
    "companion_die": "The {who} die shows {value}",
    "denethor": "Denethor: a companion die is rolled again",
    "duel_witch_king": "Éowyn fights the Witch-king: the battle die shows {face}; won: {won}",
    "encounter": "Encounter at {position}: {card}",
    "event_space": "{space} is an event space: {event}",
    "friend_counted": "Friends in Need: {card} counts, one space toward the bright heart",
    "game_over": "The game is over: {result} ({reason})",
    "gandalf_card_lost": "The top Gandalf card goes back in the box unseen",
    "gandalf_token": "The Gandalf token is placed at Helm's Deep: {placed}",
    "gandalf_token_removed": "The Gandalf token is removed: Gandalf cards can be used again",
    "isengard_free": "Isengard is free of the Uruk-hai",
    "minas_morgul": "Minas Morgul: helpers standing there {helpers}",
    "move": "{who} moves from {from} to {to}",
    "nazgul": "A Nazgûl is placed at Minas Morgul ({count} there)",
    "nazgul_no_threat": "The Witch-king is defeated: no Nazgûl is placed",
    "placed": "Side {side}: encounter die {encounter} and the {companion} die",
    "protected": "{space} is covered: the Fellowship is protected",
    "rally": "{who} moves past Minas Morgul to the rally space",
    "resolve": "The One Ring moves {change} toward the bright heart, to {ring}",
    "roll": "The {die} die shows {face}",
    "row_symbol": "Position {position} is empty: its symbol is {symbol}",
    "saruman": "Saruman: {added} Uruk-hai warriors come to Isengard",
    "sauron_eye": "Sauron's Eye: the One Ring moves to {ring}",
    "stage": "Stage {stage} begins: the goal is {goal}",
    "stage_goal": "{who} reaches {goal} (exactly: {exact})",
    "stage_over": "The Ring-bearer reached {goal}: stage {stage} ends after this turn",
    "stays": "{who} cannot move",
    "treebeard_token": "The Treebeard token is placed at Isengard",
    "turn": "{player} begins turn {turn}",
    "uruk_hai_removed": "An Uruk-hai leaves Isengard ({left} left)",
}
