"""The rules of Adventure to Mount Doom that change the state: the queue's operations.

Encounters, effects, battles, movement on the route, the resolve track, Minas
Morgul and the stages. :class:`MountDoomRules` carries them out; the moves that set
them going are in :mod:`.game`.
"""

from __future__ import annotations

from typing import Any

from ...errors import StateError
from ..base import lost, won
from ..tracks import ask
from .layout import COMPANIONS, RINGBEARER
from .moves import Move
from .state import RALLY, MountDoomBase


class MountDoomRules(MountDoomBase):
    """Operations of the queue and the rules they carry out."""

    def _give(self, card: str, owner: int, events: list[dict[str, Any]]) -> None:
        self.held.append({"card": card, "owner": owner})
        events.append(self.event("card_received", card=card, player=self.players[owner]))

    # ------------------------------------------------------------------ the queue
    def _op(self, op: dict[str, Any], ev: list[dict[str, Any]]) -> None:
        kind = op["op"]
        if kind == "die":
            die = self.tray[op["i"]]
            if die["kind"] == "encounter":
                self._encounter(die["value"], ev)
            else:
                ev.append(self.event("companion_die", who=die["who"], value=die["value"]))
                self._move(die["who"], die["value"], ev)
            self.tray[op["i"]] = dict(die, done=True)
        elif kind == "encounter":
            self._encounter(op["value"], ev)
        elif kind == "final_step":
            if self.cocooned:
                ev.append(self.event("cocooned", who=RINGBEARER))
            else:
                self._move(RINGBEARER, 1, ev)
        elif kind == "end_turn":
            self.tray = []
            if self.stage_over:
                self.queue[0:0] = [{"op": "stage_end"}, {"op": "next_player"}]
            else:
                self.queue.insert(0, {"op": "next_player"})
        elif kind == "next_player":
            self.current = (self.current + 1) % len(self.players)
            self.turn += 1
            self.cocooned = False
            ev.append(self.event("turn", player=self.to_move, turn=self.turn))
            self.queue.insert(0, ask("start"))
        elif kind == "stage_end":
            if self._usable_cards(("stage_setup",)):
                self.queue.insert(0, ask("vision"))
            else:
                self._setup_next_stage(None, ev)
        elif kind == "effect":
            self._effect(op["effect"], ev)
        elif kind == "battle":
            self._battle_start(op["battle"], ev)
        elif kind == "final_setup":
            self._final_setup(op, ev)
        elif kind == "uruk_cleanup":
            if not self.treebeard_token and self.uruk_wins > 0 and self.uruk > 0:
                self.uruk -= 1
                ev.append(self.event("uruk_hai_removed", left=self.uruk))
        else:  # pragma: no cover - a bug, not bad input
            raise StateError(f"unknown queued operation {kind!r}")

    # ------------------------------------------------------------------ chance
    def _roll_die(self, faces: list[Any], name: str, ev: list[dict[str, Any]]) -> Any:
        face = faces[self.rng.die(len(faces)) - 1]
        ev.append(self.event("roll", die=name, face=face))
        return face

    # ------------------------------------------------------------------ figures
    def _move(self, who: str, n: int, ev: list[dict[str, Any]]) -> None:
        """Move ``who`` exactly ``n`` spaces (the Ring-bearer stops on the stage goal)."""
        if n <= 0:
            return
        lay = self.lay
        if not self._movable(who):
            ev.append(self.event("stays", who=who, reason="cannot move"))
            return
        start = self.pos[who]
        target = start + n
        exact = True
        if who == RINGBEARER:
            goal = next(gi for gi in lay.goals if gi > start)
            if target > goal:
                target, exact = goal, False
        elif target > lay.minas_morgul:
            self.pos[who] = RALLY
            ev.append(self.event("rally", who=who, from_=lay.route[start]))
            return
        occupied = any(self.pos[c] == target for c in COMPANIONS if c != who)
        self.pos[who] = target
        ev.append(
            self.event(
                "move", who=who, from_=lay.route[start], to=lay.route[target], spaces=target - start
            )
        )
        if target in lay.goals:
            self._reach_goal(who, target, exact, ev)
            return
        event = lay.events.get(target)
        if event:
            if occupied and not self.without_protection:
                ev.append(self.event("protected", space=lay.route[target], event=event))
            elif event == "dark_heart":
                ev.append(self.event("event_space", space=lay.route[target], event=event))
                self._resolve(-1, ev)
            else:
                ev.append(self.event("event_space", space=lay.route[target], event=event))
                self._place_nazgul(1, ev)

    def _reach_goal(self, who: str, gi: int, exact: bool, ev: list[dict[str, Any]]) -> None:
        lay = self.lay
        name = lay.goal_names[gi]
        ev.append(self.event("stage_goal", who=who, goal=name, exact=exact))
        if gi == lay.mount_doom:
            self._finish("won", "the Ring-bearer reached the crater of Mount Doom", ev)
            return
        if who != RINGBEARER:
            if exact:
                self._resolve(1, ev)
            return
        if gi == lay.helms_deep and self.gandalf_token:
            self.gandalf_token = False
            ev.append(self.event("gandalf_token_removed"))
        if gi != lay.minas_morgul and self.gandalf_stack:
            card = self.gandalf_stack.pop(0)
            if exact:
                self._give(card, self.current, ev)
            else:
                self.unseen.append(card)  # "back in the box unseen"
                ev.append(self.event("gandalf_card_lost"))
        if gi == lay.goals[self.stage - 1]:
            self.stage_over = True
            ev.append(self.event("stage_over", stage=self.stage, goal=name))

    def _resolve(self, n: int, ev: list[dict[str, Any]]) -> None:
        """Move the One Ring ``n`` spaces (positive: toward the bright heart)."""
        if n == 0:
            return
        new = self.ring - n
        if new > self.lay.dark_end:
            self.ring = self.lay.dark_end
            ev.append(self.event("resolve", change=n, ring=self.lay.resolve[self.ring]))
            self._finish(
                "lost", "the One Ring was pulled past the last space toward the dark heart", ev
            )
            return
        self.ring = max(0, new)
        ev.append(self.event("resolve", change=n, ring=self.lay.resolve[self.ring]))

    def _place_nazgul(self, n: int, ev: list[dict[str, Any]]) -> None:
        for _ in range(n):
            if self.witch_king_defeated:
                ev.append(self.event("nazgul_no_threat"))
                return
            self.nazgul += 1
            ev.append(
                self.event(
                    "nazgul", space=self.lay.nazgul_spaces[self.nazgul - 1], count=self.nazgul
                )
            )
            if self.nazgul >= 9:
                self._finish("lost", "the ninth Nazgûl was placed at Minas Morgul", ev)
                return

    def _finish(self, result: str, reason: str, ev: list[dict[str, Any]]) -> None:
        """End the game: everybody wins together, or everybody loses."""
        if self.result is None:
            if result == "won":
                self.result = won(self.players, reason=reason, turns=self.turn)
            else:
                self.result = lost(reason=reason, turns=self.turn)
            ev.append(self.event("game_over", **self.result.to_json()))

    # ------------------------------------------------------------------ cards
    def _spend(self, card: str, ev: list[dict[str, Any]]) -> None:
        self.held = [e for e in self.held if e["card"] != card]
        self.box.append(card)
        ev.append(self.event("card_used", card=card))

    def _use_card(self, move: Move, ev: list[dict[str, Any]]) -> None:
        card = move.args[0]
        self._spend(card, ev)
        for eff in self.lay.cards[card]["use"]["effects"]:
            if eff["op"] == "move":
                self._move(move.args[1], int(move.args[2]), ev)
            elif eff["op"] == "treebeard":
                if move.args[1] == "resolve":
                    self._resolve(int(eff.get("n", 2)), ev)
                else:
                    self.treebeard_token = True
                    ev.append(self.event("treebeard_token"))
            else:
                self._effect(eff, ev)
            if self.result is not None:
                return

    def _encounter(self, value: int, ev: list[dict[str, Any]]) -> None:
        """Activate encounter row position ``value`` (1..6)."""
        k = value - 1
        stack = self.row[k]
        if not stack:
            sym = self.lay.row_symbols[k]
            ev.append(self.event("row_symbol", position=value, symbol=sym))
            if sym == "nazgul":
                self._place_nazgul(1, ev)
            else:
                self.queue.insert(0, ask("advance", who=sym))
            return
        top = stack[-1]
        card = self.lay.cards[top["card"]]
        turned = not top["up"]
        if turned:
            stack[-1] = {"card": top["card"], "up": True}
            ev.append(self.event("card_turned", position=value, card=card["id"]))
        ev.append(self.event("encounter", position=value, card=card["id"], kind=card["kind"]))
        if card["kind"] == "friend":
            stack.pop()
            self._give(card["id"], self.current, ev)
            return
        if card.get("once"):
            stack.pop()
            self.box.append(card["id"])
            ev.append(self.event("card_removed", card=card["id"]))
        effects = [
            {"op": "effect", "effect": dict(e, position=value)} for e in card.get("effects", [])
        ]
        if turned and effects and self._usable_cards(("any",)):
            # a card just turned face up: the players may use "any time" cards before it
            # is carried out (DESIGN §6)
            effects.insert(0, ask("turned", position=value, card=card["id"]))
        self.queue[0:0] = effects

    def _effect(self, eff: dict[str, Any], ev: list[dict[str, Any]]) -> None:
        op = eff["op"]
        if op == "resolve":
            self._resolve(int(eff["n"]), ev)
        elif op == "nazgul":
            self._place_nazgul(int(eff["n"]), ev)
        elif op == "battle":
            battles = [
                {
                    "op": "battle",
                    "battle": {
                        "hearts": int(eff.get("hearts", 1)),
                        "on_loss": eff.get("on_loss", []),
                        "uruk": False,
                    },
                }
                for _ in range(int(eff.get("count", 1)))
            ]
            self.queue[0:0] = battles
        elif op == "uruk_hai":
            n = self.uruk + (1 if self.leader else 0)
            if n == 0:
                # only the cards of the stages to Gondor and Minas Morgul name the bright
                # heart (rulebook, Closer Look; DESIGN §6): their data carries freed_hearts
                ev.append(self.event("isengard_free"))
                self._resolve(int(eff.get("freed_hearts", 0)), ev)
                return
            self.uruk_wins = 0
            self.queue[0:0] = [
                {
                    "op": "battle",
                    "battle": {"hearts": int(eff.get("hearts", 1)), "on_loss": [], "uruk": True},
                }
                for _ in range(n)
            ] + [{"op": "uruk_cleanup"}]
        elif op == "saruman":
            if not self.leader:
                ev.append(self.event("saruman", added=0, reason="Isengard is free"))
                return
            add = min(int(eff["n"]), 5 - self.uruk)
            self.uruk += add
            ev.append(self.event("saruman", added=add, at_isengard=self.uruk))
        elif op == "gandalf_blocked":
            self.gandalf_token = self.pos[RINGBEARER] < self.lay.helms_deep
            ev.append(self.event("gandalf_token", placed=self.gandalf_token))
        elif op == "sauron_eye":
            if self.ring < self.lay.sauron_eye:
                self.ring = self.lay.sauron_eye
                ev.append(self.event("sauron_eye", ring=self.lay.resolve[self.ring]))
            else:
                ev.append(self.event("sauron_eye", ring=None))
        elif op == "discard_friends":
            friends = [
                e["card"] for e in self.held if self.lay.cards[e["card"]]["kind"] == "friend"
            ]
            for c in friends:
                self._spend(c, ev)
            if not friends:
                self._resolve(-int(eff.get("hearts_if_none", 1)), ev)
        elif op == "army_of_the_dead":
            k = int(eff["position"]) - 1
            dirs = [
                d
                for d, step in (("left", -1), ("right", 1))
                if self._army_target(k, step) is not None
            ]
            if dirs:
                self.queue.insert(0, ask("army", position=k + 1, directions=dirs))
            else:
                ev.append(self.event("army_stays"))
        elif op == "reroll_companion_die":
            sides = [d["side"] for d in self.tray if d["kind"] == "companion" and not d.get("done")]
            if len(sides) == 2:
                self.queue.insert(0, ask("denethor", sides=sides))
            elif sides:
                self._reroll_side(sides[0], ev)
            else:
                ev.append(self.event("denethor", rerolled=None))
        elif op == "cocoon":
            self.cocooned = True
        elif op == "remove_uruk":
            n = min(int(eff["n"]), self.uruk)
            self.uruk -= n
            ev.append(self.event("uruk_hai_removed", left=self.uruk))
        elif op == "duel_witch_king":
            face = self._roll_die(self.lay.battle_faces, "battle", ev)
            won = face in self.supporters()
            if won:
                self.witch_king_defeated = True
            ev.append(self.event("duel_witch_king", face=face, won=won))
        else:  # pragma: no cover - the pack names an op we do not know
            raise StateError(f"unknown effect op {op!r}")

    def _army_target(self, k: int, step: int) -> int | None:
        j = k + step
        while 0 <= j < 6:
            if self.row[j]:
                return j
            j += step
        return None

    def _army(self, k: int, direction: str, ev: list[dict[str, Any]]) -> None:
        j = self._army_target(k, -1 if direction == "left" else 1)
        assert j is not None
        army = self.row[k].pop()
        self.row[j].append(army)
        ev.append(self.event("army_moved", from_=k + 1, to=j + 1, covers=self.row[j][-2]["card"]))

    def _reroll_side(self, side: int, ev: list[dict[str, Any]]) -> None:
        i = next(
            i for i, d in enumerate(self.tray) if d["kind"] == "companion" and d["side"] == side
        )
        value = self._roll_die(self.lay.companion_faces, self.tray[i]["who"], ev)
        self.tray[i] = dict(self.tray[i], value=value)
        ev.append(self.event("denethor", side=side, value=value))

    # ------------------------------------------------------------------ battles
    def _battle_start(self, b: dict[str, Any], ev: list[dict[str, Any]]) -> None:
        ev.append(self.event("battle", uruk_hai=b["uruk"], support=self.supporters()))
        if self._usable_cards(("battle", "any")):
            self.queue.insert(0, ask("battle", battle=b))
        else:
            self._battle_roll(b, ev)

    def _battle_roll(self, b: dict[str, Any], ev: list[dict[str, Any]]) -> None:
        face = self._roll_die(self.lay.battle_faces, "battle", ev)
        if face == "sauron":
            won = False
        elif face == "gandalf":
            if not self._gandalf_blocked() and any(
                self.lay.cards[e["card"]]["kind"] == "gandalf" for e in self.held
            ):
                self.queue.insert(0, ask("gandalf", battle=b))
                return
            won = False
        else:
            won = face in self.supporters()
        self._battle_end(b, won, ev)

    def _battle_lost(self, b: dict[str, Any], ev: list[dict[str, Any]]) -> None:
        self._battle_end(b, False, ev)

    def _battle_end(
        self,
        b: dict[str, Any],
        won: bool,
        ev: list[dict[str, Any]],
    ) -> None:
        if (
            not won
            and b["uruk"]
            and not b.get("boromir_asked")
            and self._usable_cards(("lost_uruk_battle",))
        ):
            self.queue.insert(0, ask("boromir", battle=dict(b, boromir_asked=True)))
            return
        ev.append(self.event("battle_result", won=won))
        if won:
            if b["uruk"]:
                self.uruk_wins += 1
                if self.treebeard_token:
                    if self.uruk:
                        self.uruk -= 1
                    elif self.leader:
                        self.leader = False
                        ev.append(self.event("isengard_free"))
                    ev.append(self.event("uruk_hai_removed", left=self.uruk + self.leader))
            return
        self._resolve(-int(b["hearts"]), ev)
        if self.result is None:
            self.queue[0:0] = [{"op": "effect", "effect": e} for e in b.get("on_loss", [])]

    # ------------------------------------------------------------------ stages
    def _lay_out(self, stage: int, leave_out: str | None) -> list[str]:
        deck = self.decks[str(stage)]
        if leave_out is not None:  # Gandalf's Vision: the players saw every card
            deck.remove(leave_out)
            self.box.append(leave_out)
        laid = deck[:6]
        self.decks[str(stage)] = []
        self.unseen.extend(deck[6:])  # "the 7th card goes back in the box unseen"
        for k, c in enumerate(laid):
            up = leave_out is not None or k not in (0, 5)
            self.row[k] = [{"card": c, "up": up}]
        return laid

    def _setup_next_stage(self, leave_out: str | None, ev: list[dict[str, Any]]) -> None:
        for stack in self.row:  # the cards never turned go back unseen
            for e in stack:
                (self.box if e["up"] else self.unseen).append(e["card"])
        self.row = [[] for _ in range(6)]
        self.stage += 1
        self.stage_over = False
        ev.append(
            self.event(
                "stage", stage=self.stage, goal=self.lay.goal_names[self.lay.goals[self.stage - 1]]
            )
        )
        if self.stage == 6:
            mm = self.lay.minas_morgul
            helpers = [c for c in COMPANIONS if c != RINGBEARER and self.pos[c] == mm]
            ev.append(self.event("minas_morgul", helpers=helpers))
            setup = {"op": "final_setup", "leave_out": leave_out, "helpers": helpers}
            if self.friends_in_need and self.held:
                # Friends in Need: the players choose which unused cards count (DESIGN §6)
                self.queue[0:0] = [ask("friends"), setup]
            else:
                self._final_setup(setup, ev)
        else:
            self._lay_out(self.stage, leave_out)

    def _final_setup(self, op: dict[str, Any], ev: list[dict[str, Any]]) -> None:
        """Lay out the Mount Doom cards, then one step per helper at Minas Morgul."""
        self._lay_out(6, op["leave_out"])
        for _ in op["helpers"]:
            self._move(RINGBEARER, 1, ev)
            if self.result is not None:
                return
