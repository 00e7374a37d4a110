"""A game's options as form widgets, built from its declared ``OPTIONS`` table.

One widget per :class:`referee.games.options.Option`: a check box for ``bool``, a
list for options with ``choices``, a spin box for numbers (with the option's
bounds), a line for text; the option's help is the tool tip. Options a rules module
takes without declaring them still go in a free ``key=value, …`` line. The
Playtest and Host dialogs both use :class:`OptionsForm`; the values are checked by
the game itself (:meth:`referee.games.base.Game.parse_options`) when it starts.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QFormLayout,
    QLineEdit,
    QSpinBox,
    QWidget,
)

from referee.errors import UsageError
from referee.games import get_game
from referee.games.options import Option

#: options a playtest starts with, per rules (quick set-up: counters placed at random)
DEFAULT_OPTIONS: dict[str, dict[str, Any]] = {"ringgeister": {"counter_placement": "random"}}


def declared_options(rules: str) -> tuple[Option, ...]:
    """The ``OPTIONS`` table of the rules ``rules`` (empty if it declares none)."""
    try:
        return get_game(rules).OPTIONS
    except UsageError:  # unknown rules (a plug-in that failed to load is left out): none
        return ()


def parse_free_options(text: str) -> dict[str, Any]:
    """``key=value, key=value`` as a dict; numbers, true/false become JSON values."""
    out: dict[str, Any] = {}
    for part in text.split(","):
        part = part.strip()
        if not part:
            continue
        key, sep, value = part.partition("=")
        if not sep or not key.strip():
            raise UsageError(f"option {part!r} is not key=value")
        v = value.strip()
        low = v.lower()
        parsed: Any = v
        if low in ("true", "false"):
            parsed = low == "true"
        else:
            for conv in (int, float):
                try:
                    parsed = conv(v)
                    break
                except ValueError:
                    continue
        out[key.strip()] = parsed
    return out


def _widget(opt: Option, value: Any) -> QWidget:
    """The widget for ``opt``, showing ``value`` (its default, or the editor's preset)."""
    w: QWidget
    if opt.type is bool:
        w = QCheckBox()
        w.setChecked(bool(value))
    elif opt.type is list:  # a list of words: comma-separated, parsed by the kit
        w = QLineEdit(opt.text(value))
    elif opt.choices:
        w = QComboBox()
        for c in opt.choices:
            w.addItem(str(c), c)
        w.setCurrentIndex(max(0, w.findData(value)))
    elif opt.type is int:
        w = QSpinBox()
        w.setRange(
            int(opt.low) if opt.low is not None else -(2**31),
            int(opt.high) if opt.high is not None else 2**31 - 1,
        )
        w.setValue(int(value))
    elif opt.type is float:
        w = QDoubleSpinBox()
        w.setDecimals(3)
        w.setRange(
            opt.low if opt.low is not None else -1e9, opt.high if opt.high is not None else 1e9
        )
        w.setValue(float(value))
    else:
        w = QLineEdit(str(value))
    w.setToolTip(opt.help)
    return w


def _value(w: QWidget) -> Any:
    if isinstance(w, QCheckBox):
        return w.isChecked()
    if isinstance(w, QComboBox):
        return w.currentData()
    if isinstance(w, (QSpinBox, QDoubleSpinBox)):
        return w.value()
    assert isinstance(w, QLineEdit)
    return w.text()


class OptionsForm(QWidget):
    """The options of one game (rebuild with :meth:`set_rules`)."""

    def __init__(self, rules: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.form = QFormLayout(self)
        self.form.setContentsMargins(0, 0, 0, 0)
        self.widgets: dict[str, QWidget] = {}
        self.free = QLineEdit()
        self.free.setPlaceholderText("key=value, … (options the rules take besides these)")
        self.rules = ""
        self.set_rules(rules)

    def set_rules(self, rules: str) -> None:
        """Show the options of ``rules``, at their defaults."""
        while self.form.rowCount():
            self.form.removeRow(0)  # deletes the widgets, the free line too
        self.free = QLineEdit()
        self.free.setPlaceholderText("key=value, … (options the rules take besides these)")
        self.rules = rules
        self.widgets = {}
        preset = DEFAULT_OPTIONS.get(rules, {})
        for opt in declared_options(rules):
            w = _widget(opt, preset.get(opt.name, opt.default))
            self.widgets[opt.name] = w
            self.form.addRow(opt.name.replace("_", " ").capitalize(), w)
        extra = {k: v for k, v in preset.items() if k not in self.widgets}
        self.free.setText(", ".join(f"{k}={v}" for k, v in extra.items()))
        self.form.addRow("Other options", self.free)

    def values(self) -> dict[str, Any]:
        """The options chosen (declared ones from their widgets, then the free line).

        Raises :class:`UsageError` for a free option that is not ``key=value``.
        """
        out = {name: _value(w) for name, w in self.widgets.items()}
        out.update(parse_free_options(self.free.text()))
        return out
