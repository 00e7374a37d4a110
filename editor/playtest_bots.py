"""Bot seats in a playtest: the computer plays the seats the Playtest dialog gave it.

When a bot's seat is to move, :class:`BotDriver` waits a short visible delay
(:attr:`BotDriver.delay_ms`, so a person can follow the game), then lets the bot
think in a :class:`BotThinker` thread on a *copy* of the game — the window stays
responsive and keeps drawing the real game — and plays the move it chose through
the playtest's own :meth:`~editor.playtest.PlaytestController.play`, as a person's
move would be. While a bot is to move, a person's clicks and typed moves are
refused with a line saying whose turn it is.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, QThread, QTimer, Signal

from referee.bots import Bot, make_bot, seats

if TYPE_CHECKING:
    from .playtest_protocol import BotHost


class BotThinker(QThread):
    """Runs ``bot.choose(game)`` once, off the GUI thread."""

    chosen = Signal(object, int)  # move, the driver's token
    failed = Signal(str)

    def __init__(self, bot: Bot, game: Any, token: int) -> None:
        super().__init__()
        self.bot, self.game, self.token = bot, game, token

    def run(self) -> None:
        try:
            move = self.bot.choose(self.game)
        except Exception as exc:  # a bot bug must not take the editor down: say it
            self.failed.emit(f"{self.bot.describe()} could not choose a move: {exc}")
            return
        self.chosen.emit(move, self.token)


class BotDriver(QObject):
    """Plays the bot seats of one playtest (see module docs).

    Parameters
    ----------
    ctl : BotHost
    specs : dict
        ``{seat index: bot spec}`` (``random``, ``greedy``, ``mcts:iterations=200``).
    seed : int
        The game's seed; seat *i*'s bot is seeded ``seed + i`` (a replay is the same).
    """

    #: emitted after a bot's move was played: (seat, move text)
    moved = Signal(str, str)

    #: the pause before a bot moves, so its move can be followed (ms)
    delay_ms = 400

    def __init__(self, ctl: BotHost, specs: dict[int, str], seed: int) -> None:
        super().__init__(ctl.dock)
        self.ctl = ctl
        names = seats(ctl.game)
        self.bots: dict[str, Bot] = {
            names[i]: make_bot(spec, seed + i) for i, spec in specs.items() if i < len(names)
        }
        self.thinker: BotThinker | None = None
        self._token = 0
        self._stopped = False
        self.timer = QTimer(self)
        self.timer.setSingleShot(True)
        self.timer.timeout.connect(self._think)

    def is_bot_turn(self) -> bool:
        g = self.ctl.game
        return g.outcome is None and str(g.to_move) in self.bots

    def describe(self) -> str:
        return ", ".join(f"{seat}: {bot.describe()}" for seat, bot in self.bots.items())

    def after_refresh(self) -> None:
        """Called after every refresh of the playtest: start the bot to move, if any."""
        if self._stopped or self.thinker is not None or not self.is_bot_turn():
            return
        self.ctl.hint_label.setText(
            f"{self.ctl.game.to_move} ({self._bot().describe()}) is thinking…"
        )
        self.timer.start(self.delay_ms)

    def _bot(self) -> Bot:
        return self.bots[str(self.ctl.game.to_move)]

    def _think(self) -> None:
        if self._stopped or self.thinker is not None or not self.is_bot_turn():
            return
        self._token += 1
        self.thinker = BotThinker(self._bot(), self.ctl.game.copy(), self._token)
        self.thinker.chosen.connect(self._on_chosen)
        self.thinker.failed.connect(self._on_failed)
        self.thinker.start()

    def _done_thinking(self) -> None:
        if self.thinker is not None:
            self.thinker.wait()
            self.thinker.deleteLater()
            self.thinker = None

    def _on_chosen(self, move: Any, token: int) -> None:
        self._done_thinking()
        if self._stopped or token != self._token or not self.is_bot_turn():
            return
        seat = str(self.ctl.game.to_move)
        if self.ctl.play(move, by_bot=True):
            self.moved.emit(seat, str(move))

    def _on_failed(self, message: str) -> None:
        self._done_thinking()
        self.ctl.say(message, error=True)

    def cancel(self) -> None:
        """Drop the move a bot is thinking of or about to think of (the position changed
        under it: a take-back); the next refresh starts it again if it is to move."""
        self._token += 1
        self.timer.stop()
        self._done_thinking()

    def stop(self) -> None:
        """Stop playing (a bot thinking now finishes, and its move is dropped)."""
        self._stopped = True
        self.timer.stop()
        self._done_thinking()
