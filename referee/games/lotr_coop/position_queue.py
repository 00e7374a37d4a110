"""The queue of pending decisions a position of the cooperative Lord of the Rings implies.

A position written without a ``queue`` names the decision awaited (``phase``) and the
few fields that place it (``event``, ``answering``, ``owed``, ``more_dice``,
``ring_line``, ``ring_then``, ``ring_then_owed``); the rest of the turn is derived.
:class:`LotrCoopPositionQueue` rebuilds that queue as play leaves it: the active
player's Event tile to reveal (at Mount Doom his roll of the die), his cards, an
Activity tile's line, an Event's decision (an EACH PLAYER or GROUP payment, a
volunteer), an Event's or an Activity space's die, and the die of the Ring-bearer who
put on the Ring. What a position writes back is found the other way round: the fields
that rebuild the game's queue (``None`` when no position can say it, and the queue is
written out). The position's declared form, its checks and ``dump_position`` and
``load_position`` are :mod:`.position`'s.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...errors import StateError
from ..names import unknown
from ..tracks import Op, ask, refuse_position
from .state import LotrCoopBase

#: an Event's decision phase -> the operations of the pack that ask for it
EVENT_PHASES = {
    "each_pay": ("each",),
    "group_pay": ("group", "group_mixed"),
    "volunteer": ("volunteer",),
}


#: the decisions an Event's die asks for (at Mount Doom, roll is the Mount Doom roll)
DIE_PHASES = ("roll", "discard")


def _has_die(op: Op) -> bool:
    """Whether ``op`` rolls the die, itself or in what it makes players do (``do``) or
    what a refused or declined payment does instead (``else``)."""
    if op.get("op") == "die":
        return True
    return any(_has_die(o) for key in ("do", "else") for o in op.get(key) or [])


class LotrCoopPositionQueue(LotrCoopBase):
    """The queue a position implies (:meth:`_default_queue`, :meth:`_event_queue`,
    :meth:`_die_queue`, :meth:`_ring_queue`) and the fields that write it back
    (:meth:`_written_event`, :meth:`_written_ring`)."""

    if TYPE_CHECKING:  # the rules' (effects.py), which the game class brings in

        def _die_ops(self, p: int, face: dict[str, Any]) -> list[dict[str, Any]]: ...

    def _pid_of(self, name: str, where: str) -> int:
        if name not in self.players:
            raise refuse_position(where, f"no player {name!r}")
        return self.players.index(name)

    def _answering(self, answering: list[str] | None, order: list[int]) -> list[int]:
        """The players still to answer an EACH PLAYER decision: ``answering`` read, or
        all of ``order`` (from the active player clockwise) when it is not given."""
        if answering is None:
            return order
        who = [self._pid_of(n, f"answering[{i}]") for i, n in enumerate(answering)]
        if not who or who != order[len(order) - len(who) :]:
            names = ", ".join(self.players[q] for q in order)
            raise refuse_position(
                "answering",
                f"each Hobbit in the game answers in turn from the active player "
                f"clockwise ({names}): those still to answer are the last of them",
            )
        return who

    def _at_mount_doom(self) -> bool:
        """The Fellowship stands on the Master board's last place, Mount Doom."""
        return bool(self.lay.master[self.location].get("final"))

    def _tried_at_mount_doom(self) -> list[int]:
        """Who rolled the Mount Doom die before ``active``: clockwise from the Ring-bearer."""
        n = len(self.players)
        return [(self.ringbearer + k) % n for k in range((self.active - self.ringbearer) % n)]

    def _default_queue(self, phase: str | None) -> list[Op] | None:
        """The queue awaiting ``phase`` as play leaves it, for a position that writes
        none (``None``: the phase needs a written queue). Left out, the phase is the
        active player's Event tile to reveal, or at Mount Doom his roll of the die."""
        if self._at_mount_doom():
            if phase not in (None, "roll"):
                return None
            p = self.active
            return [
                ask("roll", player=p),
                {"op": "mount_doom_roll", "player": p, "tried": self._tried_at_mount_doom()}
                | {"asked": True},
            ]
        if phase in (None, "reveal"):
            return [ask("reveal")]
        if phase == "play":
            return [ask("play")]
        if phase == "line" and self.sc is not None:
            return [ask("line", lines=self._open_lines()), ask("play")]
        return None

    # ------------------------------------------------------------------ Event decisions
    def _event_ops(self, phase: str, event: str | None) -> tuple[str, Op, list[Op]]:
        """The Event being carried out (as a position writes it), the operation that
        asks for the ``phase`` decision, and what follows it: the rest of that Event,
        then the next Event tile to reveal (as :meth:`_reveal` and the ``next_event``
        operation leave the queue)."""

        def asks(o: Op) -> bool:
            return _has_die(o) if phase in DIE_PHASES else o["op"] in EVENT_PHASES[phase]

        tile = self.tile_discard[-1] if self.tile_discard else None
        written = event is not None
        if event is None:
            effects = (self.lay.tiles[tile].get("effects") or []) if tile else []
            event = tile if any(asks(o) for o in effects) else "box"
        if event == "box":
            sc = self.sc
            if sc is None or not 1 <= self.event_pos <= 6:
                if not written:
                    raise refuse_position(
                        "phase",
                        f"{phase} is an Event's decision, but neither the Event tile last "
                        f"revealed ({tile or 'none in tile_discard'}) nor a Scenario event "
                        "(event_pos 0) asks for it: write the tile first in tile_discard or "
                        "event_pos, or the queue position() writes",
                    )
                raise refuse_position(
                    "event",
                    "box: no Scenario event is reached (a scenario and event_pos 1 to 6)",
                )
            box = sc.events[self.event_pos - 1]
            ops: list[Op] = [dict(o) for o in self.lay.events[box]["effects"]]
            if self.event_pos == 6:
                ops.append({"op": "event_concluded"})
            name = f"the event of box {self.event_pos} ({box})"
        else:
            if event not in self.lay.tiles:
                raise unknown(
                    "position.event", "Event tile (or box)", event, [*self.lay.tiles, "box"]
                )
            if event != tile:
                raise refuse_position(
                    "event",
                    f"{event!r} is not the Event tile last revealed ({tile or 'none'}): "
                    "list it first in tile_discard",
                )
            effects = self.lay.tiles[event].get("effects") or []
            ops = [dict(o, player=self.active) for o in effects]
            name = f"the Event tile {event}"
        k = next((i for i, o in enumerate(ops) if asks(o)), None)
        if k is None:
            what = "die" if phase in DIE_PHASES else f"{phase} decision"
            raise refuse_position("event", f"{name} asks for no {what}")
        return event, ops[k], [*ops[k + 1 :], ask("reveal")]

    def _die_queue(
        self,
        phase: str,
        event: str | None,
        answering: list[str] | None,
        owed: Any,
        more_dice: int = 0,
    ) -> list[Op]:
        """The queue awaiting an Event's die: ``roll`` (the pause before it, for a
        yellow or Gandalf card) or ``discard`` (it showed "discard two cards"), of the
        Hobbit who declined an EACH PLAYER prompt or whom the Event makes roll
        (``answering``: he first, then those still to answer), as play leaves it. After
        an Activity tile (the play phase), the die of a die space the active player's
        marker reached ("Die rolls on the spaces are made last"), then his cards."""
        tile = self.tile_discard[-1] if self.tile_discard else None
        if tile is not None and self.lay.tiles[tile].get("kind") == "activity":
            if event not in (None, tile):
                raise refuse_position(
                    "event", f"{event!r}: the tile last revealed is {tile}, an Activity tile"
                )
            if answering is not None:
                raise refuse_position("answering", "an Activity space's die is the active player's")
            op: Op = {"op": "die", "player": self.active}
            rest: list[Op] = [*(dict(op) for _ in range(more_dice)), ask("play")]
        elif more_dice:
            raise refuse_position(
                "more_dice",
                f"{more_dice}: more die spaces come from an Activity tile's or card's advance, "
                f"but the tile last revealed is {tile or 'none'}, no Activity tile",
            )
        else:
            _, op, rest = self._event_ops(phase, event)
        while op["op"] in ("group", "group_mixed", "volunteer"):  # refused: its else runs
            k = next(i for i, o in enumerate(op["else"]) if _has_die(o))
            op, rest = op["else"][k], [*op["else"][k + 1 :], *rest]
        order = self._order(self.active)
        kind = op["op"]
        if kind in ("each", "each_do"):
            who = self._answering(answering, order)
        elif answering is not None:
            raise refuse_position("answering", f"the Event's die is rolled by one Hobbit ({kind})")
        else:
            p = {"ringbearer": self.ringbearer, "active_do": self.active}.get(kind)
            who = [int(op.get("player", self.active)) if p is None else p]
        q = who[0]
        steps = op.get("else" if kind == "each" else "do", [op])
        d = next(i for i, o in enumerate(steps) if o["op"] == "die")
        after = [dict(o, player=q) for o in steps[d + 1 :]]
        if kind == "each":
            sym, alt = op["pay"]["symbol"], op["else"]
            after += [ask("each_pay", player=r, symbol=sym, **{"else": alt}) for r in who[1:]]
        elif kind == "each_do":
            after += [dict(o, player=r) for r in who[1:] for o in op["do"]]
        if phase == "roll":
            return [ask("roll", player=q), {"op": "die", "player": q, "asked": True}, *after, *rest]
        faces = max(int(f.get("discard", 0)) for f in self.lay.die)  # "discard two cards"
        full = 1 if self._skill(q) == "merry_discards_one" else faces
        n = full if owed is None else owed
        if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= full:
            raise refuse_position("owed", f"{n!r}: {self.players[q]} discards 1 to {full} card(s)")
        return [ask("discard", player=q, n=n), *after, *rest]

    def _ring_queue(
        self,
        line: str,
        owed: Any,
        then: str | None = None,
        event: str | None = None,
        answering: list[str] | None = None,
        then_owed: Any = None,
    ) -> list[Op]:
        """The queue awaiting the discard of the die the Ring-bearer rolled as he put on
        the Ring ("The Ring-bearer rolls the die and must bear any negative consequences
        that occur. Thereafter the Ring-bearer advances the marker on any one Activity
        line by a number of spaces"), then the decision it was put on at (``then``): by
        default his cards after an Activity tile (the first of ``tile_discard``), else
        the next Event tile; ``line`` or an Event's payment (``event``, ``answering``)."""
        rb = self.ringbearer
        if not self.ring_used or self.ring_on != rb:
            raise refuse_position(
                "ring_on",
                f"the Ring's die is rolled by the Ring-bearer as he puts it on: ring_used "
                f"true and ring_on {self.players[rb]}",
            )
        lines = self._open_lines()
        if line not in lines:
            raise unknown("position.ring_line", "Activity line still open", line, lines)
        face = next(f for f in self.lay.die if f.get("discard"))  # "discard two cards"
        ops = self._die_ops(rb, face)
        k = next(i for i, o in enumerate(ops) if o["op"] == "die_discard")
        full = int(ops[k]["n"])
        n = full if owed is None else owed
        if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= full:
            raise refuse_position("owed", f"{n!r}: {self.players[rb]} discards 1 to {full} card(s)")
        tile = self.tile_discard[-1] if self.tile_discard else None
        activity = tile is not None and self.lay.tiles[tile].get("kind") == "activity"
        spaces = 4 - int(face.get("circles", 0))
        if then is None:
            then = "play" if activity else "reveal"
        if (event is not None or answering is not None) and then not in EVENT_PHASES:
            where = "event" if event is not None else "answering"
            raise refuse_position(
                where, f"with ring_line, places the Event's payment of ring_then, not {then}"
            )
        if then_owed is not None and then != "group_pay":
            raise refuse_position("ring_then_owed", f"what a group payment still owes, not {then}")
        if then in EVENT_PHASES:
            try:
                rest = self._event_queue(then, event, answering, then_owed)
            except StateError as exc:  # the payment's owed is written as ring_then_owed
                raise StateError(
                    str(exc).replace("position.owed:", "position.ring_then_owed:"), code=exc.code
                ) from None
        else:
            rest = self._default_queue(then) or []
            if not rest:
                raise refuse_position("ring_then", f"{then}: no such decision is awaited here")
        return [
            ask("discard", player=rb, n=n),
            *ops[k + 1 :],
            {"op": "advance", "line": line, "n": spaces, "carry": False},
            *rest,
        ]

    def _written_ring(
        self,
    ) -> tuple[str, Any, str | None, str | None, list[str] | None, Any] | None:
        """``ring_line``, ``owed``, ``ring_then``, ``event``, ``answering`` and
        ``ring_then_owed`` that rebuild the queue awaiting the Ring's die, or ``None``
        when no position can say it."""
        adv = next((o for o in self.queue if o.get("op") == "advance"), {})
        line, n = adv.get("line"), self.queue[0].get("n")
        if not isinstance(line, str) or adv.get("carry") is not False:
            return None
        pay = next(
            (o for o in self.queue if o.get("op") == "ask" and o.get("phase") == "group_pay"), {}
        )
        due = pay.get("n", pay.get("needs"))
        lead = [
            self.players[int(o["player"])]
            for o in self.queue
            if o.get("op") == "ask" and o.get("phase") == "each_pay"
        ]
        for then in (None, "line", *EVENT_PHASES):
            for event in (None, "box") if then in EVENT_PHASES else (None,):
                for answering in (None, lead) if then == "each_pay" else (None,):
                    owes = due if then == "group_pay" else None
                    try:
                        queue = self._ring_queue(line, n, then, event, answering, owes)
                        if queue == self.queue:
                            name = event
                            if then in EVENT_PHASES:
                                name = self._event_ops(then, event)[0]
                            return line, n, then, name, answering, owes
                    except StateError:
                        continue
        return None

    def _event_queue(
        self, phase: str, event: str | None, answering: list[str] | None, owed: Any
    ) -> list[Op]:
        """The queue awaiting an Event's decision ``phase`` (each_pay, group_pay,
        volunteer), as play leaves it; refusals name the position's field."""
        _, op, rest = self._event_ops(phase, event)
        if phase == "each_pay":
            order = self._order(self.active)
            who = self._answering(answering, order)
            sym, alt = op["pay"]["symbol"], op["else"]
            return [*(ask("each_pay", player=q, symbol=sym, **{"else": alt}) for q in who), *rest]
        if phase == "group_pay":
            if op["op"] == "group":
                n = int(op["pay"]["n"])
                left = n if owed is None else owed
                if isinstance(left, bool) or not isinstance(left, int) or not 1 <= left <= n:
                    raise refuse_position("owed", f"{left!r}: the group owes 1 to {n} (a number)")
                pay = {"symbol": op["pay"]["symbol"], "n": left}
            else:
                full = list(op["pay"])
                left = full if owed is None else owed
                if not isinstance(left, list) or not left or not set(left) <= set(full):
                    raise refuse_position(
                        "owed", f"{left!r}: the things still to give, some of {full}"
                    )
                if len(set(left)) != len(left):
                    raise refuse_position("owed", f"{left!r}: each thing is given once")
                pay = {"needs": [x for x in full if x in left]}
            return [ask("group_pay", **pay, **{"else": op["else"]}), *rest]
        return [ask("volunteer", n=int(op["n"]), **{"else": op["else"]}), *rest]

    def _written_event(self) -> tuple[str, list[str] | None, Any, int] | None:
        """``event``, ``answering``, ``owed`` and ``more_dice`` that rebuild the queue of
        an Event's decision (:meth:`_event_queue`), or ``None`` when no position can
        say it."""
        first = self.queue[0] if self.queue else {}
        answering = owed = None
        if self.phase == "each_pay":
            lead = []
            for o in self.queue:
                if o.get("op") != "ask" or o.get("phase") != "each_pay":
                    break
                lead.append(self.players[int(o["player"])])
            answering = lead
        elif self.phase == "group_pay":
            owed = first.get("n", first.get("needs"))
        if self.phase in DIE_PHASES:
            order = self._order(self.active)
            q = first.get("player")
            owed = first.get("n") if self.phase == "discard" else None
            tail = [self.players[r] for r in order[order.index(q) :]] if q in order else None
            tile = self.tile_discard[-1] if self.tile_discard else None
            activity = tile is not None and self.lay.tiles[tile].get("kind") == "activity"
            # the die spaces one advance reached still to roll (an Activity space's die)
            more = self.queue.count({"op": "die", "player": self.active}) if activity else 0
            for event in (None, "box"):
                for answering in (None, tail):
                    try:
                        queue = self._die_queue(self.phase, event, answering, owed, more)
                        if self.queue == queue:
                            if activity:
                                return tile, answering, owed, more  # type: ignore[return-value]
                            return self._event_ops(self.phase, event)[0], answering, owed, 0
                    except StateError:
                        continue
            return None
        for event in (None, "box"):
            try:
                name, _, _ = self._event_ops(self.phase, event)
                if self.queue == self._event_queue(self.phase, event, answering, owed):
                    return name, answering, owed, 0
            except StateError:
                continue
        return None
