"""Positions of the cooperative Lord of the Rings: a situation written by hand.

A position names Hobbits, Sauron and markers by the board's node ids, players by
their Hobbit's name, and piles top card first; what it leaves out is filled in (see
:class:`LotrCoopPosition`). ``referee schema position lotr-coop`` prints its JSON
Schema; an example is ``docs/positions/lotr-coop-moria.json``.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Literal

from ..names import CardTitles, resolve, unknown
from ..outcome import Outcome
from ..tracks import refuse_position
from .layout import LIFE
from .names import place_names
from .position_queue import DIE_PHASES, EVENT_PHASES, LotrCoopPositionQueue


@dataclass
class Shield:
    """A shield lying before a player."""

    value: int = field(metadata={"help": "its value", "low": 1})
    face_down: bool = field(
        default=False, metadata={"help": "drawn from the face-down shields (not a 1 taken)"}
    )


@dataclass
class LotrCoopPosition:
    """A situation of the cooperative Lord of the Rings.

    Hobbits, Sauron and markers stand on node ids of the board; piles are listed
    **top card first**. ``deck``, ``tiles`` and ``shield_pool`` may list only their
    top: what is placed nowhere else is dealt under it from the position's seed (the
    one convention of ``docs/reference/positions.md``). Left out: ``gandalf_cards`` (those neither in the discard pile nor in
    the box), ``features_on_board``
    (the Scenario's Feature cards not elsewhere), ``shield_pool`` (the face-down shields not held or spent),
    ``last_number`` (the number under the main marker), ``phase`` (the start of
    ``active``'s turn: an Event tile to reveal; at Mount Doom, ``location``
    ``mount_doom``, his roll of the die, which goes from the Ring-bearer clockwise),
    ``queue`` (the rest of the turn, from ``phase``).

    An Event's decision is a ``phase`` too, with no queue: ``each_pay`` (an EACH
    PLAYER event, ``answering`` the Hobbits still to answer), ``group_pay`` (a GROUP
    event, ``owed`` what is still to pay) and ``volunteer``; ``event`` names the Event
    being carried out — the Event tile last revealed (the default) or ``box``, the
    Scenario's event at ``event_pos`` (a sundial revealed it, or a refused tile).
    What follows is derived: the rest of that Event, then the next Event tile. The
    die an Event rolls is placed the same way: ``roll`` (the pause before it) and
    ``discard`` (``owed``: the cards still to discard), ``answering`` naming the
    Hobbit who rolls first (an Activity space's die: ``more_dice`` those the same
    advance reached still to roll after it); ``ring_line`` makes it the die of the
    Ring-bearer who put on the Ring, the Activity line he advances after it
    (``ring_then``: the decision awaited again after it, ``ring_then_owed`` a group
    payment's rest).
    """

    corruption: dict[str, str] = field(
        metadata={
            "help": "Hobbit -> his space on the Corruption line: a node id or a name of "
            "referee board-names (corruption space 3, counted from the Hobbits' start)"
        }
    )
    sauron: str = field(
        metadata={"help": "Sauron's space on the Corruption line (an id or a name)"}
    )
    location: str = field(
        metadata={"help": "the Fellowship's place on the Master board (an id or a name: Moria)"}
    )
    hands: dict[str, list[str]] = field(
        default_factory=dict,
        metadata={
            "help": "Hobbit -> his cards: Hobbit card ids (w-hiding, g-star), Feature cards "
            "by id or title (gimli, Book of Mazarbul)"
        },
    )
    active: str = field(default="", metadata={"help": "the active player (default: the first)"})
    ringbearer: str = field(default="", metadata={"help": "the Ring-bearer (default: the first)"})
    scenario: str | None = field(
        default=None,
        metadata={
            "help": "the Scenario being played (default: the one of location, a Scenario "
            "board's place; none elsewhere)"
        },
    )
    markers: dict[str, str] = field(
        default_factory=dict,
        metadata={
            "help": "activity -> its marker's space: an id or a name (Moria fighting 11, "
            "the number printed on the main line; Moria hiding space 2, from the start)"
        },
    )
    event_pos: int = field(
        default=0, metadata={"help": "0 the start space, 1-6 the boxes", "low": 0, "high": 6}
    )
    eliminated: list[str] = field(
        default_factory=list, metadata={"help": "Hobbits out of the game"}
    )
    shields: dict[str, list[Shield]] = field(
        default_factory=dict, metadata={"help": "Hobbit -> the shields lying before him"}
    )
    life: dict[str, dict[str, int]] = field(
        default_factory=dict, metadata={"help": "Hobbit -> Life tokens by kind"}
    )
    deck: list[str] | None = field(default=None, metadata={"help": "the Hobbit deck, top first"})
    discard: list[str] = field(
        default_factory=list, metadata={"help": "the discard pile, top first"}
    )
    box: list[str] = field(default_factory=list, metadata={"help": "cards out of the game"})
    features_on_board: list[str] | None = field(
        default=None,
        metadata={
            "help": "Feature cards still on the Scenario board (default: those not elsewhere)"
        },
    )
    gandalf_cards: list[str] | None = field(
        default=None, metadata={"help": "Gandalf cards not yet called"}
    )
    shield_pool: list[int] | None = field(
        default=None,
        metadata={"help": "face-down shields left, the next drawn first (the rest from the seed)"},
    )
    spent_random: list[int] = field(
        default_factory=list, metadata={"help": "face-down shields paid out of the game"}
    )
    tiles: list[str] | None = field(
        default=None, metadata={"help": "face-down Event tiles, top first"}
    )
    tile_discard: list[str] = field(
        default_factory=list, metadata={"help": "the Event tiles revealed, top first"}
    )
    played: dict[str, Any] = field(
        default_factory=dict, metadata={"help": "cards played this turn"}
    )
    revealed: int = field(
        default=0, metadata={"help": "Event tiles the active player revealed this turn", "low": 0}
    )
    ring_used: bool = field(
        default=False, metadata={"help": "the Ring was put on in this Scenario"}
    )
    ring_on: str | None = field(
        default=None, metadata={"help": "the Hobbit wearing the Ring (this Scenario)"}
    )
    scenario_over: bool = field(
        default=False, metadata={"help": "the Scenario ends after the decision awaited"}
    )
    last_number: int | None = field(
        default=None, metadata={"help": "the number under the main marker (default: read)"}
    )
    phase: (
        Literal["reveal", "play", "each_pay", "group_pay", "volunteer", "line", "discard", "roll"]
        | None
    ) = field(
        default=None,
        metadata={
            "help": "the decision awaited: reveal (an Event tile; the default), play (cards, "
            "the tile done), line (which line an Activity tile advances, its own being "
            "full), roll (at Mount Doom: the die, the default there; elsewhere an Event's "
            "die), each_pay, group_pay, volunteer, discard (an Event's decisions, see "
            "event; after an Activity tile, its die space's die; with ring_line, the die "
            "of the Ring-bearer who put on the Ring)"
        },
    )
    event: str | None = field(
        default=None,
        metadata={
            "help": "phases each_pay, group_pay, volunteer (roll, discard: its die): the "
            "Event being carried out, an "
            "Event tile id (volunteer, discard-three, card-life-shield; default: the tile "
            "last revealed, when it asks for this decision) or box (the Scenario's event at "
            "event_pos, revealed by a sundial or a refused tile)"
        },
    )
    answering: list[str] | None = field(
        default=None,
        metadata={
            "help": "phase each_pay: the Hobbits still to answer the EACH PLAYER event, the "
            "one asked now first (default: every Hobbit in the game, from active "
            "clockwise); roll, discard: the Hobbit whose die it is first"
        },
    )
    owed: int | list[Literal["card", "life", "shield"]] | None = field(
        default=None,
        metadata={
            "help": "phase group_pay: what the group still owes, a number of cards (or "
            "symbols), or for the card-life-shield tile the things still to give "
            "(default: the whole payment); discard: the cards still to discard"
        },
    )
    more_dice: int = field(
        default=0,
        metadata={
            "help": "phases roll, discard of an Activity space's die (the first of "
            "tile_discard an Activity tile): the die spaces the same advance reached still "
            'to roll after this die ("every space moved over or landed on must be carried '
            'out. If this includes an instruction to roll the die, this is done last")',
            "low": 0,
        },
    )
    ring_line: str | None = field(
        default=None,
        metadata={
            "help": "phase discard of the die the Ring-bearer rolled as he put on the Ring: "
            'the Activity line he then advances ("Thereafter the Ring-bearer advances the '
            "marker on any one Activity line by a number of spaces\", 4 less the die's "
            "circles: 4 for discard two cards); then the active player's turn goes on (his "
            "cards after an Activity tile, else the next Event tile)"
        },
    )
    ring_then: Literal["play", "reveal", "line", "each_pay", "group_pay", "volunteer"] | None = (
        field(
            default=None,
            metadata={
                "help": "with ring_line: the decision the Ring was put on at, awaited again "
                "after the Ring's line advances (default: play after an Activity tile, else "
                "reveal); line, or an Event's each_pay, group_pay, volunteer (placed by "
                "event and answering, ring_then_owed what is still owed)"
            },
        )
    )
    ring_then_owed: int | list[Literal["card", "life", "shield"]] | None = field(
        default=None,
        metadata={
            "help": "ring_then group_pay: what the group still owes of the payment the Ring "
            "was put on at, as owed writes it for phase group_pay (default: the whole)"
        },
    )
    queue: list[dict[str, Any]] | None = field(
        default=None,
        metadata={"help": "operations and decisions pending (advanced: default from phase)"},
    )
    result: Outcome | None = field(default=None, metadata={"help": "the outcome, if over"})


class LotrCoopPositions(LotrCoopPositionQueue):
    """:meth:`dump_position` and :meth:`load_position` (the kit does the rest)."""

    def _check_mount_doom(self, p: LotrCoopPosition) -> None:
        """At Mount Doom: no Scenario, and the die came to ``active`` from the Ring-bearer."""
        if not self._at_mount_doom():
            return
        if self.scenario is not None:
            raise refuse_position(
                "scenario", f"{self.scenario!r}, but the Fellowship is at Mount Doom"
            )
        for q in self._tried_at_mount_doom():
            if self.alive[q]:
                raise refuse_position(
                    "active",
                    f"{p.active or self.players[0]!r} rolls at Mount Doom, but the die comes "
                    f"from the Ring-bearer clockwise and {self.players[q]} is still in the game",
                )
        if not self.alive[self.active]:
            raise refuse_position("active", f"{self.players[self.active]} is out of the game")

    def _check_cards(self, p: LotrCoopPosition) -> None:
        """Refuse a card the pack lacks where the position writes it (the field as
        written, the nearest card suggested), and a Hobbit on or past Sauron's space
        who is not listed as eliminated."""
        lay = self.lay
        titles = self.card_titles()

        def read(pile: list[str], where: str) -> list[str]:
            return [titles.read(c, f"{where}[{i}]") for i, c in enumerate(pile)]

        # cards by id or by title (Feature and Gandalf cards): read as ids from here on
        p.hands = {n: read(h, f"position.hands.{n}") for n, h in p.hands.items()}
        p.deck = None if p.deck is None else read(p.deck, "position.deck")
        p.discard, p.box = read(p.discard, "position.discard"), read(p.box, "position.box")
        if p.features_on_board is not None:
            p.features_on_board = read(p.features_on_board, "position.features_on_board")
        gandalf = CardTitles({g: str(d.get("name") or g) for g, d in lay.gandalf.items()})
        if p.gandalf_cards is not None:
            p.gandalf_cards = [
                gandalf.read(c, f"position.gandalf_cards[{i}]", "Gandalf card")
                for i, c in enumerate(p.gandalf_cards)
            ]
        for name, k in zip(self.players, self.corruption, strict=True):
            if name not in p.eliminated and k >= self.sauron:
                raise refuse_position(
                    f"corruption.{name}",
                    f"{lay.corruption[k]} is Sauron's space or beyond ({lay.corruption[self.sauron]}"
                    "): a Hobbit there is out of the game (list him in eliminated)",
                )

    def card_titles(self) -> CardTitles:
        """The pack's cards by id and by title: the Feature cards (``Book of
        Mazarbul``) and the Gandalf cards (``Magic``); the Hobbit cards, which print
        no title (a white Hiding card), by id (``w-hiding``)."""
        lay = self.lay
        return CardTitles(
            {
                **{c: str(d.get("name") or c) for c, d in lay.cards.items()},
                **{g: str(d.get("name") or g) for g, d in lay.gandalf.items()},
            }
        )

    def with_card_titles(self, position: dict[str, Any]) -> dict[str, Any]:
        """``position`` with each Feature and Gandalf card written by its title (each
        is one card, so its title always reads back as it)."""
        titles = self.card_titles()
        out = dict(position)

        def each(v: Any) -> Any:
            return [titles.write(c) if isinstance(c, str) else c for c in v]

        if isinstance(out.get("hands"), dict):
            out["hands"] = {n: each(h) for n, h in out["hands"].items()}
        for key in ("deck", "discard", "box", "features_on_board", "gandalf_cards"):
            if isinstance(out.get(key), list):
                out[key] = each(out[key])
        return out

    def dump_position(self) -> LotrCoopPosition:
        lay = self.lay
        sc = self.sc
        over = self.result is not None
        derived = not over and self.queue == self._default_queue(self.phase)
        written = None
        if (
            not over
            and not derived
            and (
                self.phase in EVENT_PHASES
                or (self.phase in DIE_PHASES and not self._at_mount_doom())
            )
        ):
            written = self._written_event()
            derived = written is not None
        event, answering, owed, more_dice = written or (None, None, None, 0)
        ring_line = ring_then = ring_then_owed = None
        if not over and not derived and self.phase == "discard" and len(self.queue) > 1:
            found = self._written_ring()
            if found is not None:
                derived = True
                ring_line, owed, ring_then, event, answering, ring_then_owed = found
        return LotrCoopPosition(
            corruption={n: lay.corruption[self.corruption[p]] for p, n in enumerate(self.players)},
            sauron=lay.corruption[self.sauron],
            location=str(lay.master[self.location]["id"]),
            hands={n: list(self.hands[p]) for p, n in enumerate(self.players)},
            active=self.players[self.active],
            ringbearer=self.players[self.ringbearer],
            scenario=self.scenario,
            markers={a: sc.lines[a].points[k] for a, k in self.markers.items()} if sc else {},
            event_pos=self.event_pos,
            eliminated=[n for p, n in enumerate(self.players) if not self.alive[p]],
            shields={
                n: [Shield(s["v"], bool(s.get("r"))) for s in self.shields[p]]
                for p, n in enumerate(self.players)
            },
            life={n: dict(self.life[p]) for p, n in enumerate(self.players)},
            deck=self.deck[::-1],
            discard=self.discard[::-1],
            box=list(self.box),
            features_on_board=list(self.features_on_board),
            gandalf_cards=list(self.gandalf_cards),
            shield_pool=self.shield_pool[::-1],
            spent_random=list(self.spent_random),
            tiles=self.tiles[::-1],
            tile_discard=self.tile_discard[::-1],
            played=dict(self.played),
            revealed=self.revealed,
            ring_used=self.ring_used,
            ring_on=None if self.ring_on is None else self.players[self.ring_on],
            scenario_over=self.scenario_over,
            last_number=self.last_number,
            phase=None if over else self.phase,  # type: ignore[arg-type]
            event=event,
            answering=answering,
            owed=owed,
            more_dice=more_dice,
            ring_line=ring_line,
            ring_then=ring_then,  # type: ignore[arg-type]
            ring_then_owed=ring_then_owed,
            queue=None if derived or over else [dict(o) for o in self.queue],
            result=self.result,
        )

    def load_position(self, p: LotrCoopPosition) -> None:
        lay = self.lay
        dark = place_names(self.compiled, "Corruption")
        for name, written in p.corruption.items():
            where = f"position.corruption.{name}"
            node = resolve(written, lay.corruption, dark, where, "space of the Corruption line")
            self.corruption[self._pid_of(name, f"corruption.{name}")] = lay.corruption.index(node)
        where = "position.sauron"
        node = resolve(p.sauron, lay.corruption, dark, where, "space of the Corruption line")
        self.sauron = lay.corruption.index(node)
        master = [str(loc["id"]) for loc in lay.master]
        places = place_names(self.compiled, "Master")
        where = "position.location"
        self.location = master.index(
            resolve(p.location, master, places, where, "place of the Master board")
        )
        self._check_cards(p)
        for name, cards in p.hands.items():
            self.hands[self._pid_of(name, f"hands.{name}")] = list(cards)
        self.active = self._pid_of(p.active, "active") if p.active else 0
        self.ringbearer = self._pid_of(p.ringbearer, "ringbearer") if p.ringbearer else 0
        here = lay.master[self.location].get("scenario")
        if p.scenario is None and p.result is None:
            p.scenario = here  # a Scenario place's Scenario is the one played there
        if p.scenario and p.scenario not in lay.scenarios:
            raise unknown("position.scenario", "Scenario", p.scenario, sorted(lay.scenarios))
        if p.result is None and p.scenario != here and (here or not self._at_mount_doom()):
            where = lay.master[self.location].get("name", lay.master[self.location]["id"])
            raise refuse_position(
                "scenario",
                f"{p.scenario!r}, but the Fellowship is at {where}, "
                + (f"where the Scenario is {here}" if here else "which is no Scenario's place"),
            )
        self.scenario = p.scenario
        sc = lay.scenarios.get(p.scenario) if p.scenario else None
        self.markers = {}
        if sc is not None:
            self.markers = dict.fromkeys(sc.lines, 0)
            for act, written in p.markers.items():
                if act not in sc.lines:
                    raise unknown(
                        f"position.markers.{act}", f"Activity line of {sc.name}", act, sc.lines
                    )
                pts = sc.lines[act].points
                spaces = place_names(self.compiled, f"{sc.name} {act} ")
                where = f"position.markers.{act}"
                node = resolve(written, pts, spaces, where, f"space of the {act} line of {sc.id}")
                self.markers[act] = pts.index(node)
        self.event_pos = p.event_pos
        for name in p.eliminated:
            self.alive[self._pid_of(name, "eliminated")] = False
        for name, shields in p.shields.items():
            q = self._pid_of(name, f"shields.{name}")
            self.shields[q] = [
                {"v": s.value, "r": True} if s.face_down else {"v": s.value} for s in shields
            ]
        for name, tokens in p.life.items():
            q = self._pid_of(name, f"life.{name}")
            for kind, k in tokens.items():
                if kind not in LIFE:
                    raise refuse_position(f"life.{name}", f"no Life token {kind!r}")
                if k < 0:
                    raise refuse_position(
                        f"life.{name}.{kind}", f"{k} is a negative number of tokens"
                    )
                self.life[q][kind] = k
        self.discard = p.discard[::-1]
        self.box = list(p.box)
        held = Counter(c for pile in [self.discard, self.box, *self.hands] for c in pile)
        top = list(p.deck or [])
        left = Counter(lay.hobbit_deck) - held - Counter(top)
        rest = [c for c in dict.fromkeys(lay.hobbit_deck) for _ in range(left[c])]
        self.rng.shuffle(rest)  # the rest is dealt from the position's seed, under the top
        self.deck = (top + rest)[::-1]
        if p.features_on_board is not None:
            self.features_on_board = list(p.features_on_board)
        else:
            self.features_on_board = [
                s[8:]
                for ln in (sc.lines.values() if sc else [])
                for s in ln.spaces[self.markers[ln.activity] + 1 :]
                if s.startswith("feature:") and s[8:] not in held
            ]
        if p.gandalf_cards is not None:
            self.gandalf_cards = list(p.gandalf_cards)
        else:
            used = set(self.box) | set(self.discard)  # a called card is discarded, later boxed
            self.gandalf_cards = [c for c in lay.gandalf if c not in used]
        self.spent_random = list(p.spent_random)
        top_shields = list(p.shield_pool or [])
        out = Counter(int(s["v"]) for hs in self.shields for s in hs if s.get("r"))
        out += Counter(self.spent_random) + Counter(top_shields)
        rest_shields = sorted((Counter(lay.shields) - out).elements(), reverse=True)
        self.rng.shuffle(rest_shields)
        self.shield_pool = (top_shields + rest_shields)[::-1]
        for key in ("tiles", "tile_discard"):
            for i, t in enumerate(getattr(p, key) or []):
                if t not in lay.tiles:
                    raise unknown(f"position.{key}[{i}]", "Event tile", t, sorted(lay.tiles))
        self.tile_discard = p.tile_discard[::-1]
        if sc is not None or p.tiles:
            top = list(p.tiles or [])
            left = Counter(lay.tile_deck) - Counter(self.tile_discard) - Counter(top)
            rest = sorted(left.elements())
            self.rng.shuffle(rest)
            self.tiles = (top + rest)[::-1]
        self.played = {"white": False, "grey": False, "cards": 0, **p.played}
        self.revealed = p.revealed
        self.ring_used = p.ring_used
        self.ring_on = None if p.ring_on is None else self._pid_of(p.ring_on, "ring_on")
        self.scenario_over = p.scenario_over
        if p.last_number is not None:
            self.last_number = p.last_number
        elif sc is not None:
            self.last_number = int(sc.main.numbers[self.markers[sc.main.activity]] or 0)
        self.result = p.result
        phases: dict[str, Any] = {
            "event": (*EVENT_PHASES, *DIE_PHASES),
            "answering": ("each_pay", *DIE_PHASES),
            "owed": ("group_pay", "discard"),
            "ring_line": ("discard",),
            "more_dice": DIE_PHASES,
            "ring_then": ("discard",),
        }
        for key, given in (
            ("event", p.event),
            ("answering", p.answering),
            ("owed", p.owed),
            ("ring_line", p.ring_line),
            ("more_dice", p.more_dice or None),
            ("ring_then", p.ring_then),
        ):
            if given is not None and (p.queue is not None or p.phase not in phases[key]):
                raise refuse_position(
                    key,
                    f"belongs to phase {' or '.join(phases[key])} written without a queue, "
                    f"not to {'a written queue' if p.queue is not None else repr(p.phase)}",
                )
        if p.ring_then is not None and p.ring_line is None:
            raise refuse_position(
                "ring_then", "the decision the Ring's die comes back to: give ring_line"
            )
        if p.ring_then_owed is not None and p.ring_then != "group_pay":
            raise refuse_position(
                "ring_then_owed", "what the group payment of ring_then group_pay owes"
            )
        if p.queue is not None:
            self.queue = [dict(o) for o in p.queue]
            first = self.queue[0] if self.queue else {}
            awaited = first.get("phase") if first.get("op") == "ask" else None
            if p.phase is not None and p.phase != awaited:
                raise refuse_position("phase", f"{p.phase!r}, but the queue awaits {awaited!r}")
        elif p.result is not None:
            self.queue = []
        else:
            self._check_mount_doom(p)
            queue = self._default_queue(p.phase)
            if p.phase in EVENT_PHASES and not self._at_mount_doom():
                queue = self._event_queue(p.phase, p.event, p.answering, p.owed)
            elif p.ring_line is not None and not self._at_mount_doom():
                if p.phase != "discard" or p.more_dice:
                    raise refuse_position(
                        "ring_line",
                        "belongs to phase discard (the Ring-bearer's die; no more_dice), "
                        f"not to {p.phase!r}",
                    )
                queue = self._ring_queue(
                    p.ring_line, p.owed, p.ring_then, p.event, p.answering, p.ring_then_owed
                )
            elif p.phase in DIE_PHASES and not self._at_mount_doom():
                queue = self._die_queue(p.phase, p.event, p.answering, p.owed, p.more_dice)
            if queue is None:
                where = "at Mount Doom" if self._at_mount_doom() else "here"
                raise refuse_position(
                    "phase", f"{p.phase!r} {where} needs the queue position() writes for it"
                )
            self.queue = queue
        if self.result is not None:
            self.phase = "over"
        elif self.queue and self.queue[0].get("op") == "ask":
            self.phase = str(self.queue[0].get("phase"))
