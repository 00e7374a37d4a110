"""The Riddle of the Ring deck as data (``assets/riddle/pack.json``, deck ``cards``).

A card *type* (``boat``, ``good_army2``, ``frodo`` ...) has a title (``name``), a
kind, a side (good/evil/neutral), battle points, what happens to it after a battle
(``battle_after``: retain/discard), its uses and how many copies the deck holds.
Card *instances* are named ``<type>`` when the type has one copy and
``<type>.<k>`` (k = 1..count) otherwise, so ``boat.3`` is the third Boat.

A board may embed its own copy of the deck (``board.decks["riddle/cards"]``, edited in
the editor); otherwise the pack's deck is used.

Values the rulebook does not print (battle points, Horse counts, the uses of some
characters) are ours; each card lists them in ``ours`` (field names) and each use
we wrote carries ``"ours": true``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from ...assets import default_assets_dir, load_pack
from ...errors import AssetError
from ..cards import CardFace

DECK_KEY = "riddle/cards"
KINDS = ("travel", "army", "player", "wizard", "character", "special")
SIDES = ("good", "evil", "neutral")
USES = (
    "boat",
    "rope",
    "cloak",
    "extra_move",
    "fly",
    "hop",
    "battle",
    "draw",
    "give_take",
    "clairvoyance",
    "escape",
    "see_hidden",
    "pickup",
    "reroll",
    "gollum",
    "win",
    "riddle",
)
WHO = ("any", "hobbit", "rider")

#: what each use lets its holder do, in the rulebook's words (shortened), for the face
USE_TEXT: dict[str, str] = {
    "boat": "Cross a river, or move on rivers, lakes and the ocean.",
    "rope": "Move through mountains as in open country.",
    "cloak": "Move through forests as in open country.",
    "extra_move": "Move up to {n} more spaces this turn.",
    "fly": "Fly to any space on the board.",
    "hop": "Move to any space within 6 spaces.",
    "battle": "Adds its points in a battle.",
    "draw": "Draw {n} cards.",
    "give_take": "Give or take a card.",
    "clairvoyance": "See another player's hand.",
    "escape": "Escape from Limbo or capture.",
    "see_hidden": "See the hidden cards of a city.",
    "pickup": "Pick up cards again.",
    "reroll": "Roll the die again.",
    "gollum": "Take The Ring from any player.",
    "win": "Carry it to the Cracks of Doom or Barad-Dur to win.",
    "riddle": "Ask a Riddle.",
}
_WHO_TEXT = {"hobbit": "Hobbits: ", "rider": "Riders: ", "any": ""}


def slug(title: str) -> str:
    """A card title as a move word, spelt as card ids are: ``"Mouth of Sauron"`` ->
    ``mouth_of_sauron`` (lower case, every run of other characters one ``_``)."""
    return re.sub(r"[^a-z0-9]+", "_", title.lower()).strip("_")


@dataclass(frozen=True)
class CardType:
    id: str
    name: str
    kind: str
    side: str
    points: int
    battle_after: str
    uses: tuple[dict[str, Any], ...]
    count: int
    player_kind: str | None = None
    ours: tuple[str, ...] = ()

    @property
    def title(self) -> str:
        """The title as guessed in a Riddle (a slug of the printed title)."""
        return slug(self.name)

    def face(self) -> CardFace:
        """The card as it lies face up: its title, kind, side, battle points and what
        its uses let a player do (:data:`USE_TEXT`)."""
        lines = []
        for u in self.uses:
            text = USE_TEXT.get(u["use"], u["use"]).format(n=u.get("n", 1))
            lines.append(_WHO_TEXT.get(u.get("who", "any"), "") + text)
        return CardFace(
            title=self.name,
            kind=self.kind,
            colour=self.side,
            value=str(self.points) if self.points else "",
            text=" ".join(lines),
        )

    def use(self, name: str) -> dict[str, Any] | None:
        for u in self.uses:
            if u["use"] == name:
                return u
        return None


@dataclass
class Deck:
    """The card types and the instance ids of one deck (80 cards for the printed deck)."""

    types: dict[str, CardType]
    instances: list[str]
    type_of: dict[str, CardType] = field(default_factory=dict)
    titles: set[str] = field(default_factory=set)

    def __post_init__(self) -> None:
        for t in self.types.values():
            for iid in instance_ids(t):
                self.type_of[iid] = t
        self.titles = {t.title for t in self.types.values()}

    def card(self, iid: str) -> CardType:
        return self.type_of[iid]

    def title_word(self, word: str) -> str | None:
        """The title (as :attr:`CardType.title` writes it) a guess ``word`` names: a
        title as a move word (``the_ring``, ``Mouth_of_Sauron``: case ignored) or a
        card's id, instance or type (``boat.3``, ``good_army2``: its title, Good
        Army); ``None`` for anything else (``the-ring`` too: one spelling, ids')."""
        w = word.casefold()
        if w in self.titles:
            return w
        t = self.type_of.get(word) or self.types.get(word)
        return t.title if t is not None else None


def instance_ids(t: CardType) -> list[str]:
    return [t.id] if t.count == 1 else [f"{t.id}.{k}" for k in range(1, t.count + 1)]


def parse_deck(data: Any, where: str) -> Deck:
    """Check and read a deck's JSON (``{"cards": [...]}``); raise :class:`AssetError`."""
    if not isinstance(data, dict) or not isinstance(data.get("cards"), list):
        raise AssetError("a deck needs a list of cards", location=where)
    types: dict[str, CardType] = {}
    instances: list[str] = []
    for i, c in enumerate(data["cards"]):
        at = f"{where} cards[{i}]"
        if not isinstance(c, dict):
            raise AssetError("a card must be an object", location=at)
        cid = c.get("id")
        if not isinstance(cid, str) or not re.fullmatch(r"[a-z0-9_]+", cid):
            raise AssetError(
                f"card id {cid!r} must be lower-case letters, digits and _", location=at
            )
        if cid in types:
            raise AssetError(f"duplicate card id {cid!r}", location=at)
        kind, side = c.get("kind"), c.get("side")
        if kind not in KINDS:
            raise AssetError(f"card {cid}: kind {kind!r} is not one of {KINDS}", location=at)
        if side not in SIDES:
            raise AssetError(f"card {cid}: side {side!r} is not one of {SIDES}", location=at)
        points, count = c.get("points", 0), c.get("count", 1)
        if not isinstance(points, int) or not 0 <= points <= 5:
            raise AssetError(f"card {cid}: points must be an integer 0..5", location=at)
        if not isinstance(count, int) or count < 1:
            raise AssetError(f"card {cid}: count must be a positive integer", location=at)
        uses = c.get("uses", [])
        if not isinstance(uses, list):
            raise AssetError(f"card {cid}: uses must be a list", location=at)
        for u in uses:
            if (
                not isinstance(u, dict)
                or u.get("use") not in USES
                or u.get("who", "any") not in WHO
            ):
                raise AssetError(
                    f"card {cid}: bad use {u!r} (uses: {', '.join(USES)})", location=at
                )
        after = c.get("battle_after", "discard")
        if after not in ("retain", "discard"):
            raise AssetError(f"card {cid}: battle_after must be retain or discard", location=at)
        ours = c.get("ours", ())
        t = CardType(
            cid,
            str(c.get("name", cid)),
            kind,
            side,
            points,
            after,
            tuple(dict(u) for u in uses),
            count,
            c.get("player_kind"),
            tuple(ours) if isinstance(ours, list) else (),
        )
        types[cid] = t
        instances.extend(instance_ids(t))
    return Deck(types, instances)


@lru_cache(maxsize=4)
def _pack_deck() -> Deck:
    pack = load_pack(default_assets_dir() / "riddle")
    data = pack.decks.get(DECK_KEY)
    if data is None:
        raise AssetError("asset pack riddle has no deck 'cards'", location=str(pack.path))
    return parse_deck(data, f"{pack.path}/pack.json")


_board_decks: dict[int, tuple[Any, Deck]] = {}


def deck_for(board: Any) -> Deck:
    """The deck a board embeds (``decks["riddle/cards"]``), else the asset pack's."""
    data = getattr(board, "decks", {}).get(DECK_KEY)
    if data is None:
        return _pack_deck()
    cached = _board_decks.get(id(board))
    if cached is not None and cached[0] is data:
        return cached[1]
    deck = parse_deck(data, f"board deck {DECK_KEY}")
    _board_decks[id(board)] = (data, deck)
    return deck
