"""The queue of pending decisions a position of Adventure to Mount Doom implies.

A position written without a ``queue`` names the decision awaited (``phase``, else
read from ``tray`` and ``rolled``) and the few fields that place it (``at``,
``turned``, ``battle``, ``uruk_battles``, ``before_roll``, ``left_out``); the rest of
the turn is derived. :class:`MountDoomPositionQueue` checks the dice phase's tray and
roll and rebuilds that queue as play leaves it: the dice phase, a black die's
encounter (a card just turned face up, a battle, the Uruk-hai's battles, a companion
symbol's advance, the Army of the Dead, Denethor) and a stage's end (Gandalf's
Vision, Friends in Need). What a position writes back is found the other way round:
the fields that rebuild the game's queue, or none (and the queue is written out).
The position's declared form, its checks and ``dump_position`` and ``load_position``
are :mod:`.position`'s.
"""

from __future__ import annotations

from typing import Any

from ...errors import StateError
from ..names import unknown
from ..tracks import Op, ask, refuse_position
from .layout import COMPANIONS, RINGBEARER
from .state import MountDoomBase

#: the decisions a position may await without a written queue (see MountDoomPositions)
DICE_PHASES = ("start", "place1", "roll2", "place2", "resolve")
#: the decisions of a battle (``battle`` names its card, ``uruk_battles`` the Uruk-hai's)
BATTLE_PHASES = ("battle", "gandalf", "boromir")


class MountDoomPositionQueue(MountDoomBase):
    """The queue a position implies (:meth:`_dice_queue`, :meth:`_battle_queue`,
    :meth:`_turned_queue`, :meth:`_advance_queue`, :meth:`_card_decision_queue`,
    :meth:`_stage_end_queue`), the dice phase's checks, and the fields that write the
    queue back (:meth:`_written_encounter`, :meth:`_written_card`)."""

    # ------------------------------------------------------------------ the dice phase
    def _phase_of_dice(self) -> str:
        """The decision awaited, read from the dice rolled and placed (no ``phase``)."""
        if len(self.tray) == 4:
            return "resolve"
        if len(self.tray) == 2:
            return "roll2" if "keep" in self.rolled else "place2"
        if self.tray:
            raise refuse_position("tray", f"{len(self.tray)} dice: the tray holds 2 (side 1) or 4")
        return "place1" if self.rolled else "start"

    def _check_dice_phase(self, phase: str, battle: bool = False, shown: str = "") -> None:
        """Refuse dice that do not fit the decision ``phase`` (one line, the field named;
        ``shown``: the phase the position wrote, when it is a decision of resolving)."""
        said = shown or phase
        dice = {"start": 0, "place1": 0, "roll2": 2, "place2": 2, "resolve": 4}[phase]
        if self.final_stage and phase != "start":
            raise refuse_position(
                "phase", f"{phase!r}: the final stage has only the Mount Doom roll (start)"
            )
        if len(self.tray) != dice:
            raise refuse_position(
                "tray", f"{len(self.tray)} dice, but in phase {said} it holds {dice}"
            )
        want = [(1, "encounter"), (1, "companion"), (2, "encounter"), (2, "companion")][:dice]
        got = [(d["side"], d["kind"]) for d in self.tray]
        if got != want:
            order = ", ".join(f"side {s} {k}" for s, k in want)
            raise refuse_position("tray", f"the dice lie {order}, in this order")
        done = [bool(d.get("done")) for d in self.tray]
        if (phase != "resolve" and any(done)) or done != sorted(done, reverse=True):
            raise refuse_position(
                "tray", "dice are resolved in order: only the first ones can be done"
            )
        if phase == "resolve" and all(done) and not battle:
            raise refuse_position(
                "tray", "every die is resolved: the turn is over (no phase resolve)"
            )
        keys = {
            "start": set(),
            "place1": {"black", "dice", "used"},
            "roll2": {"black", "keep", "used"},
            "place2": {"black", "dice", "used"},
            "resolve": set(),
        }[phase]
        if set(self.rolled) != keys:
            need = ", ".join(sorted(keys)) or "nothing"
            raise refuse_position("rolled", f"in phase {said} the roll holds {need}")
        if keys:
            self._check_roll(phase)

    def _check_roll(self, phase: str) -> None:
        """Refuse a dice phase's roll the rules cannot have left (one line)."""
        r = self.rolled
        black, used = r["black"], r["used"]
        dice = r.get("dice", {})
        placed = self.tray[1]["who"] if self.tray else None
        ok_dice = isinstance(dice, dict) and all(
            c in COMPANIONS and isinstance(v, int) and 1 <= v <= 6 for c, v in dice.items()
        )
        if not ok_dice or len(dice) != (0 if phase == "roll2" else 2):
            raise refuse_position("rolled.dice", "two companion dice, companion -> value 1 to 6")
        if not (isinstance(black, list) and all(isinstance(v, int) and 1 <= v <= 6 for v in black)):
            raise refuse_position("rolled.black", "the black dice's values, 1 to 6")
        if len(black) != (2 if phase == "place1" else 1):
            raise refuse_position(
                "rolled.black", f"{len(black)} black dice, not {2 if phase == 'place1' else 1}"
            )
        n_used = {"place1": 2, "roll2": 2, "place2": 3}[phase]
        ok_used = isinstance(used, list) and all(isinstance(c, str) for c in used)
        if not (ok_used and len(set(used)) == len(used) == n_used):
            raise refuse_position(
                "rolled.used", f"the {n_used} companions whose dice were rolled this turn"
            )
        if not set(dice) <= set(used) or (placed is not None and placed not in used):
            raise refuse_position("rolled.used", "every companion die rolled or placed this turn")
        if phase == "roll2" and (r["keep"] not in used or r["keep"] == placed):
            raise refuse_position("rolled.keep", "the companion die of the first roll not placed")
        if placed in dice:
            raise refuse_position("rolled.dice", f"the {placed} die lies on the tray already")

    def _encounter_at(self, at: int | None, what: str, phase: str) -> tuple[int, list[Op]]:
        """The encounter position a black die being carried out points to, and the
        rest of the turn after its card: the tray's last resolved die a black one
        (``at`` must agree), the dice after it still to come; in the final stage
        ``at`` itself (the Mount Doom roll), then the Ring-bearer's step."""
        if self.final_stage:
            if self.tray or self.rolled:
                raise refuse_position("tray", "the final stage uses no dice tray (one black die)")
            if at is None:
                raise refuse_position(
                    "at", f"{what} in the final stage: give the Mount Doom roll's black die"
                )
            return at, [{"op": "final_step"}, {"op": "end_turn"}]
        self._check_dice_phase("resolve", battle=True, shown=phase)
        done = [i for i, d in enumerate(self.tray) if d.get("done")]
        if not done or self.tray[done[-1]]["kind"] != "encounter":
            raise refuse_position("tray", f"{what} comes from a black die already resolved (done)")
        value = int(self.tray[done[-1]]["value"])
        if at is not None and at != value:
            raise refuse_position(
                "at", f"{at}, but the tray's last resolved black die shows {value}"
            )
        return value, self._dice_queue("resolve")

    def _turned_queue(self, at: int | None, turned: str | None = None) -> list[Op]:
        """The queue paused after the card at ``at`` (``turned``, or the one face up
        there) was turned face up: the players may use "any time" cards, then its
        effects, then the rest of the turn."""
        value, rest = self._encounter_at(at, "a card turned face up", "turned")
        card = self._card_met(value, turned, "turned")
        if card["kind"] == "friend" or not card.get("effects"):
            raise refuse_position(
                "phase",
                f"turned: {card['id']} at position {value} has nothing to carry out (a friend "
                "is taken at once)",
            )
        effects: list[Op] = [
            {"op": "effect", "effect": dict(e, position=value)} for e in card["effects"]
        ]
        return [ask("turned", position=value, card=card["id"]), *effects, *rest]

    def _battle_queue(
        self,
        card: str | None,
        at: int | None = None,
        phase: str = "battle",
        uruk_battles: int | None = None,
    ) -> list[Op]:
        """The queue of a battle about to be fought (``battle``) or whose battle die
        showed Gandalf (``gandalf``: a Gandalf card may save it): the tray's last
        resolved die a black one whose Encounter card (``card``, or the one lying face
        up at its position) calls for a battle, the dice after it still to come; an
        Uruk-hai card's (``uruk_battles`` of them still to fight) also ``boromir``."""
        value, rest = self._encounter_at(at, "a battle", phase)
        card = self._card_met(value, card, "battle")["id"]
        effects = self.lay.cards[card].get("effects", [])
        uruk = next((k for k, e in enumerate(effects) if e["op"] == "uruk_hai"), None)
        if uruk_battles is not None or uruk is not None:
            return self._uruk_queue(card, value, uruk, uruk_battles, phase, rest)
        if phase == "boromir":
            raise refuse_position(
                "uruk_battles",
                "phase boromir comes after a lost battle against one Uruk-hai: an Uruk-hai "
                "card's battles still to fight, this one included",
            )
        fight = next((e for e in effects if e["op"] == "battle"), None)
        if fight is None or int(fight.get("count", 1)) != 1:
            raise refuse_position(
                "battle", f"{card!r} is no Encounter card of one battle (name it here)"
            )
        b = {"hearts": int(fight.get("hearts", 1)), "on_loss": fight.get("on_loss", [])}
        return [ask(phase, battle=b | {"uruk": False}), *rest]

    def _uruk_queue(
        self,
        card: str,
        value: int,
        uruk: int | None,
        battles: int | None,
        phase: str,
        rest: list[Op],
    ) -> list[Op]:
        """The queue in the middle of an Uruk-hai card's battles ("You must carry out,
        one after another, as many battles as there are Uruk-hai (including their
        leader) at Isengard"): ``battles`` still to fight, this one (awaiting ``phase``)
        included, then the warrior removed for a battle won, the card's other effects
        and the rest of the turn."""
        if uruk is None:
            raise refuse_position(
                "uruk_battles", f"{card} at encounter position {value} is no Uruk-hai card"
            )
        if battles is None:
            raise refuse_position(
                "uruk_battles",
                f"{card} is an Uruk-hai card: give the battles still to fight, this one "
                "included (1 to the Uruk-hai at Isengard, leader included)",
            )
        figures = self.uruk + int(self.leader)
        # with Treebeard's token each battle won removed its figure already
        most = figures if self.treebeard_token else figures - self.uruk_wins
        if battles > most:
            why = (
                "one per figure left at Isengard (Treebeard's token: each won removed its own)"
                if self.treebeard_token
                else f"the {figures} at Isengard (leader included) less the {self.uruk_wins} "
                "won (uruk_wins)"
            )
            raise refuse_position(
                "uruk_battles", f"{battles}, but at most {max(most, 0)} are left: {why}"
            )
        effects = self.lay.cards[card]["effects"]
        b: dict[str, Any] = {"hearts": int(effects[uruk].get("hearts", 1)), "on_loss": []}
        b["uruk"] = True
        if phase == "boromir":
            if not self._usable_cards(("lost_uruk_battle",)):
                raise refuse_position("held", "phase boromir: nobody holds Boromir's card unused")
            first = ask("boromir", battle=dict(b, boromir_asked=True))
        else:
            first = ask(phase, battle=b)
        later: list[Op] = [{"op": "battle", "battle": dict(b)} for _ in range(battles - 1)]
        after: list[Op] = [
            {"op": "effect", "effect": dict(e, position=value)} for e in effects[uruk + 1 :]
        ]
        return [first, *later, {"op": "uruk_cleanup"}, *after, *rest]

    def _stage_end_queue(
        self, phase: str, before_roll: bool = False, left_out: str | None = None
    ) -> list[Op]:
        """The queue at the end of a stage: ``vision`` (Gandalf's Vision may send a card
        of the next stage back to the box before it is laid out) or, the Ring-bearer
        at Minas Morgul, ``friends`` (Friends in Need: which unused cards count), then
        the next player's turn; ``before_roll``: a card ended the stage at the start of
        a turn (Faramir), and that turn's roll follows; ``left_out`` (friends): the card
        Gandalf's Vision sends back as the final stage is laid out."""
        then: Op = ask("start") if before_roll else {"op": "next_player"}
        if self.tray or self.rolled:
            raise refuse_position(
                "tray", f"phase {phase} comes after the turn's dice (tray and rolled empty)"
            )
        if phase == "vision":
            if not self.stage_over or self.stage >= 6:
                raise refuse_position(
                    "stage_over", "phase vision comes at a stage's end (stage_over true)"
                )
            return [ask("vision"), then]
        if self.stage != 6 or any(self.row) or self.stage_over:
            raise refuse_position(
                "stage",
                "phase friends comes as the final stage begins (stage 6, its row not laid "
                "out yet, stage_over false)",
            )
        mm = self.lay.minas_morgul
        helpers = [c for c in COMPANIONS if c != RINGBEARER and self.pos[c] == mm]
        if left_out is not None and left_out not in self.decks["6"]:
            raise refuse_position(
                "left_out", f"{left_out} is no card of the final stage's deck (decks.6)"
            )
        setup = {"op": "final_setup", "leave_out": left_out, "helpers": helpers}
        return [ask("friends"), setup, then]

    def _written_encounter(self) -> tuple[int | None, str | None, str | None, int | None, bool]:
        """``at``, ``turned``, ``battle`` and ``uruk_battles`` that rebuild the queue of
        the card being carried out (phase turned or battle), and whether any do."""
        at, turned, battle, derived = self._written_card()
        if derived or self.phase not in BATTLE_PHASES or not self.queue:
            return at, turned, battle, None, derived
        if not self.queue[0].get("battle", {}).get("uruk"):
            return at, turned, battle, None, derived
        ops = [o.get("op") for o in self.queue]
        end = ops.index("uruk_cleanup") if "uruk_cleanup" in ops else 0
        battles = 1 + ops[:end].count("battle")
        try:
            if self._battle_queue(None, None, self.phase, battles) == self.queue:
                return None, None, None, battles, True
        except StateError:
            pass
        return None, None, None, None, False

    def _written_card(self) -> tuple[int | None, str | None, str | None, bool]:
        """``at``, ``turned`` and ``battle`` that rebuild the queue of the card being
        carried out (phase turned or battle), and whether any do."""
        first = self.queue[0] if self.queue else {}
        if self.phase == "turned":
            at = first.get("position")
            for named in (None, first.get("card")):
                try:
                    if self._turned_queue(at, named) == self.queue:
                        return at, named, None, True
                except StateError:
                    continue
            return None, None, None, False
        if self.phase in ("vision", "friends"):
            try:
                derived = self._stage_end_queue(self.phase) == self.queue
            except StateError:
                derived = False
            return None, None, None, derived
        if self.phase in ("advance", "army", "denethor"):
            for at in dict.fromkeys((first.get("position"), None)):
                try:
                    queue = (
                        self._advance_queue(at)
                        if self.phase == "advance"
                        else self._card_decision_queue(self.phase, at)
                    )
                except StateError:
                    continue
                if queue == self.queue:
                    return at, None, None, True
            return None, None, None, False
        once = [c for c in self.box if self.lay.cards.get(c, {}).get("once")]
        for card in (None, *once):
            try:
                if self._battle_queue(card, None, self.phase) == self.queue:
                    return None, None, card, True
            except StateError:
                continue
        return None, None, None, False

    def _advance_queue(self, at: int | None) -> list[Op]:
        """The queue awaiting ``advance``: the black die at ``at`` found no card, and
        the companion symbol printed there may move 0, 1 or 2 spaces."""
        value, rest = self._encounter_at(at, "a companion symbol", "advance")
        if self.row[value - 1]:
            raise refuse_position(
                "row", f"phase advance: encounter position {value} holds a card, no symbol"
            )
        sym = self.lay.row_symbols[value - 1]
        if sym not in COMPANIONS:
            raise refuse_position(
                "at", f"encounter position {value} shows {sym}, no companion's symbol"
            )
        return [ask("advance", who=sym), *rest]

    def _card_decision_queue(self, phase: str, at: int | None) -> list[Op]:
        """The queue awaiting ``army`` (where the Army of the Dead goes) or ``denethor``
        (which companion die Denethor rolls again): the card face up at ``at`` asks it,
        its other effects and the rest of the turn follow."""
        value, rest = self._encounter_at(at, f"phase {phase}", phase)
        card = self._card_met(value, None, "at")
        op = {"army": "army_of_the_dead", "denethor": "reroll_companion_die"}[phase]
        effects = [dict(e, position=value) for e in card.get("effects", [])]
        k = next((i for i, e in enumerate(effects) if e["op"] == op), None)
        if k is None:
            raise refuse_position(
                "at", f"{card['id']} at encounter position {value} asks for no {phase}"
            )
        after: list[Op] = [{"op": "effect", "effect": e} for e in effects[k + 1 :]]
        if phase == "army":
            k0 = value - 1  # the Army goes to the next card left or right (effects._army)
            dirs = [
                d
                for d, step in (("left", -1), ("right", 1))
                if any(self.row[j] for j in range(k0 + step, 6 if step > 0 else -1, step))
            ]
            if not dirs:
                raise refuse_position(
                    "row", "the Army of the Dead has no card to go to, left or right"
                )
            return [ask("army", position=value, directions=dirs), *after, *rest]
        sides = [d["side"] for d in self.tray if d["kind"] == "companion" and not d.get("done")]
        if len(sides) != 2:
            raise refuse_position(
                "tray", "Denethor asks which die only while both companion dice wait"
            )
        return [ask("denethor", sides=sides), *after, *rest]

    def _card_met(self, value: int, named: str | None, key: str) -> dict[str, Any]:
        """The Encounter card being carried out at position ``value``: ``named`` (the
        position's ``key``) or the card face up there. A named card lies face up there,
        or is one put back in the box once met (it lies in the box)."""
        stack = self.row[value - 1]
        top = stack[-1]["card"] if stack and stack[-1]["up"] else None
        if named is None:
            if top is None:
                raise refuse_position(
                    key,
                    f"no card lies face up at encounter position {value}: name the card "
                    "(one put back in the box once met)",
                )
            return self.lay.cards[top]
        if named not in self.lay.cards:
            raise unknown(f"position.{key}", "card of the pack", named, sorted(self.lay.cards))
        card = self.lay.cards[named]
        if named != top and not (card.get("once") and named in self.box):
            raise refuse_position(
                key,
                f"{named} is neither the card face up at encounter position {value} nor "
                "one put back in the box once met (in box)",
            )
        return card

    def _dice_queue(self, phase: str) -> list[Op]:
        """The queue awaiting ``phase`` of the dice phase, as play leaves it."""
        if phase == "resolve":
            seq: list[Op] = []
            for i, d in enumerate(self.tray):
                if not d.get("done"):
                    seq += [ask("resolve"), {"op": "die", "i": i}]
            return [*seq, {"op": "end_turn"}]
        return [ask(phase)] if phase in DICE_PHASES else []
