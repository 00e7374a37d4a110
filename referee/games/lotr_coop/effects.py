"""The rules of the cooperative Lord of the Rings that change the state: the queue.

Event payments, the die, Hobbits and Sauron on the Corruption line, Activity lines,
turns, Scenarios, the journey on the Master board and Mount Doom.
:class:`LotrCoopRules` carries them out; the moves that set them going are in
:mod:`.game`.
"""

from __future__ import annotations

from typing import Any

from ...errors import StateError
from ..base import lost, won
from ..tracks import Op, ask
from .layout import LIFE
from .moves import TURN_OPS, TURN_PHASES, Move
from .state import LotrCoopBase


class LotrCoopRules(LotrCoopBase):
    """Operations of the queue and the rules they carry out."""

    def _next_op(self) -> Op:
        """The front of the queue, after ending the Scenario or the turn where due."""
        op = self.queue[0]
        if self.scenario_over and (
            op["op"] in TURN_OPS or (op["op"] == "ask" and op["phase"] in TURN_PHASES)
        ):
            self.queue = [{"op": "scenario_end"}]
        elif not self.alive[self.active] and (op["op"] == "ask" and op["phase"] in TURN_PHASES):
            self.queue = [{"op": "end_turn"}]
        return self.queue[0]

    def _ask_needed(self, op: Op) -> bool:
        """Drop asks addressed to eliminated players or with no possible answer."""
        p = op.get("player")
        if p is not None and not self.alive[p]:
            return False
        if op["phase"] == "discard" and not self.hands[int(op["player"])]:
            return False
        return not (op["phase"] == "line" and not op["lines"])

    def _op(self, op: dict[str, Any], ev: list[dict[str, Any]]) -> None:
        k = op["op"]
        p = op.get("player", self.active)
        if k in ("dark", "light", "die", "draw", "missing_life") and not self.alive[p]:
            return
        if k == "end_turn":
            self._end_turn(ev)
        elif k == "scenario_end":
            self._scenario_end(ev)
        elif k == "advance":
            self._advance(op["line"], int(op["n"]), bool(op["carry"]), ev)
        elif k == "next_event":
            self._next_event(ev)
        elif k == "event_concluded":
            ev.append(self.event("final_event_concluded"))
            self.scenario_over = True
        elif k == "each":
            self.queue[0:0] = [
                ask("each_pay", player=q, symbol=op["pay"]["symbol"], **{"else": op["else"]})
                for q in self._order(self.active)
            ]
        elif k == "group":
            self.queue.insert(
                0,
                ask(
                    "group_pay",
                    symbol=op["pay"]["symbol"],
                    n=int(op["pay"]["n"]),
                    **{"else": op["else"]},
                ),
            )
        elif k == "group_mixed":
            self.queue.insert(0, ask("group_pay", needs=list(op["pay"]), **{"else": op["else"]}))
        elif k == "volunteer":
            self.queue.insert(0, ask("volunteer", n=int(op["n"]), **{"else": op["else"]}))
        elif k == "each_do":
            seq: list[dict[str, Any]] = []
            for q in self._order(self.active):
                seq += [dict(o, player=q) for o in op["do"]]
            self.queue[0:0] = seq
        elif k == "ringbearer":
            self.queue[0:0] = [dict(o, player=self.ringbearer) for o in op["do"]]
        elif k == "active_do":
            self.queue[0:0] = [dict(o, player=self.active) for o in op["do"]]
        elif k == "sauron":
            self._sauron(int(op["n"]), ev)
        elif k == "advance_main":
            if self.sc is not None:
                self._advance(self.sc.main.activity, int(op["n"]), True, ev)
        elif k == "dark":
            self._dark(p, int(op["n"]), ev)
        elif k == "light":
            self._light(p, int(op["n"]), ev)
        elif k == "draw":
            self._draw(p, int(op["n"]), ev)
        elif k == "die":
            if not op.get("asked") and self._die_could_change():
                # a yellow or Gandalf card could change what the die does: the players
                # may play it before the roll (DESIGN §6)
                self.queue[0:0] = [ask("roll", player=p), dict(op, asked=True)]
                return
            face = self._roll(ev, p)
            self.queue[0:0] = self._die_ops(p, face)
        elif k == "die_discard":
            n = int(op["n"])
            if len(self.hands[p]) < n:
                for c in list(self.hands[p]):
                    self._discard_card(p, c, ev)
                self._eliminate(p, "could not discard the cards the die asked for", ev)
            else:
                self.queue.insert(0, ask("discard", player=p, n=n))
        elif k == "missing_life":
            kind = next((x for x in LIFE if not self.life[p][x]), None)
            if kind:
                self.life[p][kind] += 1
                ev.append(self.event("life", player=self.players[p], kind=kind))
        elif k == "deal_features":
            self._deal_features(op["scenario"], ev)
        elif k == "mount_doom_roll":
            self._mount_doom_roll(int(op["player"]), op["tried"], ev, bool(op.get("asked")))
        elif k == "mount_doom_check":
            self._mount_doom_check(op, ev)
        else:  # pragma: no cover - a pack op we do not know
            raise StateError(f"unknown operation {k!r}")

    # ------------------------------------------------------------------ chance
    def _die_could_change(self) -> bool:
        """Whether a card played "at any time" could change a die's consequences: a
        yellow Feature card in a hand, or a Gandalf card someone can call."""
        alive = [q for q in range(len(self.players)) if self.alive[q]]
        if any(
            self.lay.cards.get(c, {}).get("colour") == "yellow"
            for q in alive
            for c in self.hands[q]
        ):
            return True
        return bool(self.gandalf_cards) and any(
            sum(s["v"] for s in self.shields[q]) >= 5 for q in alive
        )

    def _roll(self, ev: list[dict[str, Any]], p: int) -> dict[str, Any]:
        face = self.lay.die[self.rng.die(len(self.lay.die)) - 1]
        ev.append(self.event("die", player=self.players[p], face=face["id"]))
        return face

    def _die_ops(self, p: int, face: dict[str, Any]) -> list[dict[str, Any]]:
        ops: list[dict[str, Any]] = []
        circles = int(face.get("circles", 0))
        if circles and self._skill(p) == "sam_fewer_circles":
            circles -= 1
        if circles:
            ops.append({"op": "dark", "n": circles, "player": p})
        if face.get("discard"):
            n = 1 if self._skill(p) == "merry_discards_one" else int(face["discard"])
            ops.append({"op": "die_discard", "n": n, "player": p})
        if face.get("sauron"):
            ops.append({"op": "sauron", "n": int(face["sauron"])})
        return ops

    def _draw(self, p: int, n: int, ev: list[dict[str, Any]]) -> None:
        got = []
        for _ in range(n):
            if not self.deck:
                # used Feature and Gandalf cards go to the box, the Hobbit cards are shuffled
                cards = self.lay.cards
                kinds = [cards[c]["kind"] if c in cards else "gandalf" for c in self.discard]
                hobbit = [c for c, k in zip(self.discard, kinds) if k == "hobbit"]
                self.box += [c for c, k in zip(self.discard, kinds) if k != "hobbit"]
                self.discard = []
                self.rng.shuffle(hobbit)
                self.deck = hobbit
                ev.append(self.event("deck_reshuffled", cards=len(hobbit)))
                if not self.deck:
                    break
            got.append(self.deck.pop())
        self.hands[p] += got
        ev.append(self.event("draw", player=self.players[p], cards=len(got)))

    # ------------------------------------------------------------------ hobbits, Sauron
    def _dark(self, p: int, n: int, ev: list[dict[str, Any]]) -> None:
        self.corruption[p] = min(self.lay.dark_end, self.corruption[p] + n)
        ev.append(self.event("corruption", player=self.players[p], to=self.corruption[p]))
        if self.corruption[p] >= self.sauron:
            self._eliminate(p, "met Sauron on the Corruption line", ev)

    def _light(self, p: int, n: int, ev: list[dict[str, Any]]) -> None:
        new = max(0, self.corruption[p] - n)
        if new != self.corruption[p]:
            self.corruption[p] = new
            ev.append(self.event("corruption", player=self.players[p], to=new))

    def _sauron(self, n: int, ev: list[dict[str, Any]]) -> None:
        self.sauron = max(0, min(self.lay.dark_end, self.sauron - n))
        ev.append(self.event("sauron", to=self.sauron))
        for q in range(len(self.players)):
            if self.alive[q] and self.corruption[q] >= self.sauron:
                self._eliminate(q, "Sauron reached the Hobbit", ev)

    def _eliminate(self, p: int, reason: str, ev: list[dict[str, Any]]) -> None:
        if not self.alive[p]:
            return
        self.alive[p] = False
        self.discard += self.hands[p]
        self.hands[p] = []
        self.life[p] = dict.fromkeys(LIFE, 0)
        ev.append(self.event("eliminated", player=self.players[p], reason=reason))
        if self.location == len(self.lay.master) - 1:
            return  # at Mount Doom the die passes on (see _mount_doom_roll)
        if p == self.ringbearer:
            self._finish("lost", self.last_number, "the Ring-bearer was eliminated", ev)

    def _finish(self, result: str, score: int, reason: str, ev: list[dict[str, Any]]) -> None:
        """End the game: the Fellowship wins together or loses together; everybody
        scores ``score``."""
        if self.result is None:
            if result == "won":
                self.result = won(self.players, score=score, reason=reason)
            else:
                self.result = lost(score=score, reason=reason)
            ev.append(self.event("game_over", **self.result.to_json()))

    # ------------------------------------------------------------------ cards
    def _discard_card(self, p: int, card: str, ev: list[dict[str, Any]]) -> None:
        self.hands[p].remove(card)
        self.discard.append(card)
        ev.append(self.event("discard", player=self.players[p], card=card))

    def _pay_shield(self, p: int, value: int, ev: list[dict[str, Any]]) -> None:
        s = next(s for s in self.shields[p] if s["v"] == value)
        self.shields[p].remove(s)
        if s.get("r"):
            self.spent_random.append(s["v"])
        ev.append(self.event("shield_paid", player=self.players[p], value=value))

    def _play_card(self, move: Move, ev: list[dict[str, Any]]) -> None:
        p = self.active
        card = self.lay.cards[move.args[0]]
        self.hands[p].remove(move.args[0])
        self.discard.append(move.args[0])
        self.played[card["colour"]] = True
        self.played["cards"] += 1
        syms = card.get("symbols", [])
        line = move.args[1] if len(move.args) > 1 else syms[0]
        ev.append(
            self.event(
                "play", player=self.players[p], card=move.args[0], line=line, spaces=len(syms)
            )
        )
        sc = self.sc
        if sc is None or line not in sc.lines:
            ev.append(self.event("no_effect", card=move.args[0]))
            return
        self._advance(line, len(syms), True, ev)

    def _deal_features(self, scenario: str, ev: list[dict[str, Any]]) -> None:
        cards = list(self.lay.features_by_scenario.get(scenario, []))
        self.rng.shuffle(cards)
        if len(self.players) == 2:
            self.box += cards[:4]
            cards = cards[4:]
        order = self._order(self.ringbearer)
        for k, c in enumerate(cards):
            self.hands[order[k % len(order)]].append(c)
        ev.append(self.event("features_dealt", scenario=scenario, cards=len(cards)))

    # ------------------------------------------------------------------ activity lines
    def _advance(self, activity: str, n: int, carry: bool, ev: list[dict[str, Any]]) -> None:
        """Move a marker ``n`` spaces, carrying out every space passed (DESIGN §6).

        Die rolls on the spaces are made last, before anything else happens.
        """
        sc = self.sc
        if sc is None or activity not in sc.lines:
            return
        line = sc.lines[activity]
        p = self.active
        dice = 0
        for _ in range(n):
            if self.markers[activity] >= line.last:
                break
            self.markers[activity] += 1
            k = self.markers[activity]
            ev.append(self.event("marker", line=activity, to=line.points[k], carried_out=carry))
            if line.main and line.numbers[k] is not None:
                self.last_number = int(line.numbers[k])  # type: ignore[arg-type]
            if carry:
                space = line.spaces[k]
                if space == "die":
                    dice += 1
                elif space:
                    self._space(p, space, ev)
            if line.main and k == line.last:
                ev.append(self.event("main_line_completed", scenario=sc.id))
                self.scenario_over = True
        self.queue[0:0] = [{"op": "die", "player": p} for _ in range(dice)]

    def _space(self, p: int, space: str, ev: list[dict[str, Any]]) -> None:
        if space == "shield":
            self.shields[p].append({"v": 1})
            ev.append(self.event("shield", player=self.players[p], value=1))
        elif space == "shield_random":
            if self.shield_pool:
                v = self.shield_pool.pop()
                self.shields[p].append({"v": v, "r": True})
                ev.append(self.event("shield", player=self.players[p], value=v))
        elif space.startswith("life:"):
            self.life[p][space[5:]] += 1
            ev.append(self.event("life", player=self.players[p], kind=space[5:]))
        elif space.startswith("feature:"):
            c = space[8:]
            if c in self.features_on_board:
                self.features_on_board.remove(c)
                self.hands[p].append(c)
                ev.append(self.event("feature", player=self.players[p], card=c))
        elif space == "light":
            self._light(p, 1, ev)

    # ------------------------------------------------------------------ turns
    def _reveal(self, ev: list[dict[str, Any]]) -> None:
        if not self.tiles:
            self.tiles = list(self.tile_discard)
            self.tile_discard = []
            self.rng.shuffle(self.tiles)
            ev.append(self.event("tiles_reshuffled", tiles=len(self.tiles)))
        tid = self.tiles.pop()
        self.tile_discard.append(tid)
        self.revealed += 1
        tile = self.lay.tiles[tid]
        ev.append(self.event("tile", tile=tid, kind=tile["kind"]))
        if tile["kind"] == "activity":
            act = tile["activity"]
            open_lines = self._open_lines()
            if act in open_lines:
                self.queue[0:0] = [
                    {"op": "advance", "line": act, "n": 1, "carry": True},
                    ask("play"),
                ]
            else:
                self.queue[0:0] = [ask("line", lines=open_lines), ask("play")]
        else:
            self.queue[0:0] = [dict(o, player=self.active) for o in tile.get("effects", [])] + [
                ask("reveal")
            ]

    def _next_event(self, ev: list[dict[str, Any]]) -> None:
        sc = self.sc
        if sc is None or self.event_pos >= 6:
            return
        self.event_pos += 1
        box = sc.events[self.event_pos - 1]
        ev.append(
            self.event(
                "event",
                box=self.event_pos,
                event=box,
                words={
                    "says": " ".join(
                        t
                        for t in (
                            self.lay.events[box]["text"],
                            self.lay.events[box].get("text_ours"),
                        )
                        if t
                    )
                },
            )
        )
        ops = [dict(o) for o in self.lay.events[box]["effects"]]
        if self.event_pos == 6:
            ops.append({"op": "event_concluded"})
        self.queue[0:0] = ops

    def _end_turn(self, ev: list[dict[str, Any]]) -> None:
        self.played = {"white": False, "grey": False, "cards": 0}
        self.revealed = 0
        if self.scenario_over:
            self.queue.insert(0, {"op": "scenario_end"})
            return
        order = self._order((self.active + 1) % len(self.players))
        self.active = order[0]
        ev.append(self.event("turn", player=self.players[self.active]))
        self.queue = [ask("reveal")]

    def _scenario_end(self, ev: list[dict[str, Any]]) -> None:
        sc = self.sc
        assert sc is not None
        ev.append(self.event("scenario_end", scenario=sc.id))
        self.scenario_over = False
        self.played = {"white": False, "grey": False, "cards": 0}
        self.revealed = 0
        for p in self._order(self.ringbearer):
            missing = sum(1 for k in LIFE if not self.life[p][k])
            if missing:
                ev.append(self.event("missing_life", player=self.players[p], missing=missing))
                self._dark(p, missing, ev)
                if self.result is not None:
                    return
        alive = self._order(self.ringbearer)
        best = max(self.life[p]["ring"] for p in alive)
        new_rb = next(p for p in alive if self.life[p]["ring"] == best)
        if new_rb != self.ringbearer:
            ev.append(self.event("ringbearer", player=self.players[new_rb]))
        self.ringbearer = new_rb
        self._draw(new_rb, 2, ev)
        self.life = [dict.fromkeys(LIFE, 0) for _ in range(len(self.players))]
        for p in alive:
            if self._skill(p) == "fatty_draws_two":
                self._draw(p, 2, ev)
        self.ring_on = None
        self.scenario = None
        self._journey(ev)

    def _journey(self, ev: list[dict[str, Any]]) -> None:
        """Move along the Master board to the next Scenario, doing the events on the way."""
        lay = self.lay
        first = self.scenario is None and self.location == 0 and not self.markers
        if not first:
            self.location += 1
        while True:
            loc = lay.master[self.location]
            ev.append(self.event("journey", location=loc["id"], name=loc.get("name")))
            if loc.get("scenario"):
                self._start_scenario(loc["scenario"], ev)
                return
            if loc.get("final"):
                self.queue = [{"op": "mount_doom_roll", "player": self.ringbearer, "tried": []}]
                return
            ev_data = lay.events.get(str(loc.get("event")))
            if ev_data:
                self.queue += [dict(o) for o in ev_data["effects"]]
            self.location += 1

    def _start_scenario(self, scenario: str, ev: list[dict[str, Any]]) -> None:
        sc = self.lay.scenarios[scenario]
        self.scenario = scenario
        self.markers = dict.fromkeys(sc.lines, 0)
        self.event_pos = 0
        self.ring_used = False
        self.features_on_board = [
            s[8:] for ln in sc.lines.values() for s in ln.spaces if s.startswith("feature:")
        ]
        tiles = list(self.lay.tile_deck)
        self.rng.shuffle(tiles)
        self.tiles = tiles
        self.tile_discard = []
        self.active = self.ringbearer
        self.last_number = int(sc.main.numbers[0] or 0)
        ev.append(
            self.event("scenario", scenario=scenario, ringbearer=self.players[self.ringbearer])
        )
        self.queue.append(ask("reveal"))

    def _mount_doom_roll(
        self, p: int, tried: list[int], ev: list[dict[str, Any]], asked: bool = False
    ) -> None:
        """At Mount Doom the die is rolled by the Ring-bearer, then passed on clockwise
        (with a pause before it when a card could change it, as for every die)."""
        if not self.alive[p]:
            nxt = [q for q in self._order(p) if q not in tried]
            if not nxt:
                self._finish(
                    "lost",
                    60,
                    "the Fellowship reached Mount Doom but every Hobbit failed to destroy the Ring",
                    ev,
                )
                return
            p = nxt[0]
        self.active = p
        if not asked and self._die_could_change():
            self.queue[0:0] = [
                ask("roll", player=p),
                {"op": "mount_doom_roll", "player": p, "tried": tried, "asked": True},
            ]
            return
        face = self._roll(ev, p)
        self.queue[0:0] = self._die_ops(p, face) + [
            {"op": "mount_doom_check", "player": p, "tried": tried + [p]}
        ]

    def _mount_doom_check(self, op: dict[str, Any], ev: list[dict[str, Any]]) -> None:
        p = int(op["player"])
        if self.alive[p]:
            if self.shield_pool:
                v = self.shield_pool.pop()
                self.shields[p].append({"v": v, "r": True})
            total = self.shield_total()
            ev.append(self.event("ring_destroyed", player=self.players[p]))
            self._finish("won", 60 + total, f"{self.players[p]} destroyed the Ring", ev)
            return
        nxt = [q for q in self._order(p) if q not in op["tried"]]
        if not nxt:
            self._finish(
                "lost",
                60,
                "the Fellowship reached Mount Doom but every Hobbit failed to destroy the Ring",
                ev,
            )
            return
        self.queue.insert(0, {"op": "mount_doom_roll", "player": nxt[0], "tried": op["tried"]})
