"""The inspector: properties of the selection, edited with fitting widgets.

Widgets come from the merged property table (:func:`referee.model.prop_table`: the
generic properties and every installed rules module's): combo boxes for enums and
directions, check boxes for booleans and letters, line edits for text and numbers.
Every change goes through an undo command; a value the model rejects is shown in
red and nothing changes.

The form is rebuilt from the model after every edit; the rebuild keeps the designer's
place: the field that had the focus (the one Tab or a click just moved to, or the one
being typed in) gets it back with its cursor and any text typed but not yet committed,
and the form keeps its scroll position.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QAbstractButton,
    QApplication,
    QCheckBox,
    QComboBox,
    QDockWidget,
    QDoubleSpinBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QScrollArea,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from referee.assets import load_packs
from referee.errors import BoardwrightError
from referee.games import available
from referee.model import prop_table

from ..commands import MoveCommand, SetMetaCommand, SetPropertyCommand, TurnCommand
from ..commands.embed_pack import EmbedPackCommand, pack_needed
from ..commands.rename import RenameFeatureCommand
from ..document import Document
from .inspector_tips import field_tip

UNSET = "—"

#: the text a line edit was built with (tells typed-but-uncommitted text from the model's)
_BUILT = "inspector_built_text"


class _Place:
    """Where the designer was in the form: the focused field and what it held."""

    def __init__(self, keys: list[str], key: str, sub: int, edit: QLineEdit | None) -> None:
        self.keys, self.key, self.sub = keys, key, sub
        self.text: str | None = None
        self.cursor = 0
        if edit is not None:
            self.cursor = edit.cursorPosition()
            if edit.text() != edit.property(_BUILT):
                self.text = edit.text()  # typed, not yet committed


class InspectorDock(QDockWidget):
    """Shows and edits the selected placement(s)/feature(s), or the board when none."""

    #: the Inspector renamed what it shows: select these keys on the canvas again
    reselect = Signal(object)

    def __init__(self, doc: Document, parent: QWidget | None = None) -> None:
        super().__init__("Inspector", parent)
        self.setObjectName("InspectorDock")
        self.doc = doc
        self.keys: list[str] = []
        self.widgets: dict[str, QWidget] = {}
        #: the board form's counts (tiles, nodes, edges), refreshed after each compile
        self.count_labels: list[QLabel] = []
        self._building = False
        #: what to say when nothing is selected (None: edit the board's settings)
        self.empty_text: str | None = None
        self.scroll_area = QScrollArea()
        self.scroll_area.setWidgetResizable(True)
        self.scroll_area.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setMinimumWidth(260)
        self.setWidget(self.scroll_area)
        self.error = QLabel()
        self.error.setStyleSheet("color: #c62828")
        self.error.setWordWrap(True)
        doc.compiled_changed.connect(self._refresh_counts)
        self.show_keys([])

    def set_document(self, doc: Document) -> None:
        self.doc.compiled_changed.disconnect(self._refresh_counts)
        self.doc = doc
        doc.compiled_changed.connect(self._refresh_counts)
        self.show_keys([])

    def _count_texts(self) -> list[str]:
        c = self.doc.compiled.counts()
        return [
            f"{len(self.doc.board.placements)} tiles, {len(self.doc.board.features)} free features",
            "Nodes: " + ", ".join(f"{k} {v}" for k, v in c["nodes"].items()),
            "Edges: " + ", ".join(f"{k} {v}" for k, v in c["edges"].items()),
        ]

    def _refresh_counts(self) -> None:
        """A compile finished: the board form's counts follow (in place: no rebuild, so
        a field being typed in keeps its focus)."""
        if not self.count_labels:
            return
        try:
            for lab, text in zip(self.count_labels, self._count_texts(), strict=True):
                lab.setText(text)
        except RuntimeError:  # the labels went with their form
            self.count_labels = []

    # ------------------------------------------------------------------ building
    def _focus_parts(self, w: QWidget) -> list[QWidget]:
        """The widgets of a field that take the focus, in order (a letters field has a
        check box per letter; an editable combo box, its line edit)."""
        parts: list[QWidget] = [w]
        parts += [c for c in w.findChildren(QWidget) if isinstance(c, (QLineEdit, QAbstractButton))]
        return parts

    def _place(self) -> _Place | None:
        fw = QApplication.focusWidget()
        if fw is None:
            return None
        for key, w in self.widgets.items():
            parts = self._focus_parts(w)
            for i, part in enumerate(parts):
                if part is fw:
                    return _Place(
                        list(self.keys), key, i, fw if isinstance(fw, QLineEdit) else None
                    )
        return None

    def _restore(self, place: _Place) -> None:
        w = self.widgets.get(place.key)
        if w is None or place.keys != self.keys:
            return
        parts = self._focus_parts(w)
        target = parts[min(place.sub, len(parts) - 1)]
        if isinstance(target, QLineEdit):
            if place.text is not None:
                target.setText(place.text)
            target.setCursorPosition(min(place.cursor, len(target.text())))
        target.setFocus(Qt.FocusReason.OtherFocusReason)

    def show_keys(self, keys: list[str]) -> None:
        """Rebuild the form for the objects ``keys`` (keeping the designer's place when
        the same objects are shown again)."""
        place = self._place()
        scroll = self.scroll_area.verticalScrollBar().value()
        self._building = True
        self.keys = [k for k in keys if self.doc.exists(k)]
        self.widgets = {}
        self.count_labels = []
        w = QWidget()
        outer = QVBoxLayout(w)
        form = QFormLayout()
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        outer.addLayout(form)
        self.error = QLabel()
        self.error.setStyleSheet("color: #c62828")
        self.error.setWordWrap(True)
        outer.addWidget(self.error)
        outer.addStretch(1)
        ps = [k for k in self.keys if k.startswith("p:")]
        fs = [k for k in self.keys if k.startswith("f:")]
        cs = [k for k in self.keys if k.startswith("c:")]
        if cs and len(cs) == len(self.keys):
            for k in cs:
                pc = self.doc.piece(k[2:])
                if pc is not None:
                    form.addRow(QLabel(f"<b>Piece {pc.id}</b>"))
                    form.addRow("Type", QLabel(pc.piece))
                    form.addRow("On", QLabel(str(pc.at)))
        elif not self.keys and self.empty_text is not None:
            lab = QLabel(self.empty_text)
            lab.setWordWrap(True)
            form.addRow(lab)
        elif not self.keys:
            self._board_form(form)
        elif ps and not fs:
            self._placement_form(form, ps)
        elif fs and not ps:
            self._feature_form(form, fs)
        else:
            form.addRow(QLabel(f"{len(ps)} tiles and {len(fs)} features selected"))
        old = self.scroll_area.takeWidget()
        if old is not None:
            # the old form may be the sender of the signal that got us here: delete it later
            old.hide()
            old.deleteLater()
        self.scroll_area.setWidget(w)
        for le in w.findChildren(QLineEdit):
            le.setProperty(_BUILT, le.text())
        self._building = False
        if place is not None and place.keys == self.keys:
            self.scroll_area.verticalScrollBar().setValue(scroll)
            self._restore(place)

    def _board_form(self, form: QFormLayout) -> None:
        m = self.doc.board.meta
        form.addRow(QLabel("<b>Board</b>"))
        name = QLineEdit(str(m.get("name", "")))
        name.editingFinished.connect(lambda: self._meta("name", name.text()))
        form.addRow("Name", name)
        name.setPlaceholderText(self.doc.title)
        rules = QComboBox()
        rules.addItem(UNSET, None)
        for r in available():
            rules.addItem(r, r)
        i = rules.findData(m.get("rules"))
        rules.setCurrentIndex(max(i, 0))
        rules.currentIndexChanged.connect(lambda _i: self._set_rules(rules.currentData()))
        form.addRow("Rules", rules)
        for key, label in (("width", "Width (mm)"), ("height", "Height (mm)")):
            sb = QDoubleSpinBox()
            sb.setRange(10, 100000)
            sb.setDecimals(1)
            sb.setValue(float(m.get(key) or 600))
            sb.editingFinished.connect(lambda k=key, s=sb: self._meta(k, s.value()))
            form.addRow(label, sb)
            self.widgets[key] = sb
        self.widgets["name"] = name
        self.widgets["rules"] = rules
        for key, wdg in self.widgets.items():
            wdg.setToolTip(field_tip("board", key))
        for text in self._count_texts():
            lab = QLabel(text)
            lab.setWordWrap(True)
            lab.setStyleSheet("color: #555")
            form.addRow(lab)
            self.count_labels.append(lab)

    def _placement_form(self, form: QFormLayout, keys: list[str]) -> None:
        if len(keys) > 1:
            form.addRow(QLabel(f"<b>{len(keys)} tiles</b>"))
            return
        p = self.doc.placement(keys[0][2:])
        assert p is not None
        tile = self.doc.board.tiles.get(p.tile)
        form.addRow(QLabel(f"<b>Tile {p.id}</b>"))
        form.addRow("Asset", QLabel(f"{tile.name if tile else '?'} ({p.tile})"))
        for axis in ("x", "y"):
            sb = QDoubleSpinBox()
            sb.setRange(-100000, 100000)
            sb.setDecimals(2)
            sb.setValue(getattr(p, axis))
            sb.editingFinished.connect(lambda a=axis, s=sb: self._move_placement(a, s.value()))
            form.addRow(f"{axis} (mm)", sb)
            self.widgets[axis] = sb
        turns = QSpinBox()
        turns.setRange(0, (tile.turn_count if tile else 4) - 1)
        turns.setValue(p.turns)
        turns.setEnabled(bool(tile and tile.turnable))
        turns.valueChanged.connect(self._turn_placement)
        form.addRow("Turns", turns)
        self.widgets["turns"] = turns
        for key in ("x", "y", "turns"):
            self.widgets[key].setToolTip(field_tip("tile", key))

    def _feature_form(self, form: QFormLayout, keys: list[str]) -> None:
        feats = [self.doc.feature(k[2:]) for k in keys]
        kinds = {f.kind for f in feats if f is not None}
        if len(kinds) != 1:
            form.addRow(QLabel(f"{len(feats)} features of kinds {', '.join(sorted(kinds))}"))
            return
        kind = kinds.pop()
        first = feats[0]
        assert first is not None
        title = first.id if len(feats) == 1 else f"{len(feats)} features"
        form.addRow(QLabel(f"<b>{kind.replace('_', ' ')} {title}</b>"))
        if len(feats) == 1:
            ident = QLineEdit(first.id)
            ident.editingFinished.connect(lambda e=ident, old=first.id: self._rename(old, e.text()))
            ident.setToolTip(
                "The feature's id: games find their tracks by it (Mount Doom's route, "
                "resolve…); renaming keeps every reference (track points, pieces)"
            )
            form.addRow("Id", ident)
            self.widgets["id"] = ident
        specs = prop_table().get(kind, {})
        for key, spec in specs.items():
            value = first.props.get(key)
            wdg = self._widget_for(key, spec, value)
            wdg.setToolTip(field_tip(kind, key, spec))
            form.addRow(key.replace("_", " ").capitalize(), wdg)
            self.widgets[key] = wdg
        extra = [k for k in first.props if k not in specs]
        for k in extra:
            lab = QLabel(repr(first.props[k]))
            lab.setToolTip(f"{k}: a property no installed rules module declares (kept as it is)")
            form.addRow(k, lab)

    def _widget_for(self, key: str, spec: Mapping[str, Any], value: Any) -> QWidget:
        t = spec["type"]
        if t == "enum" or t == "direction":
            box = QComboBox()
            values = spec.get("values", [None, "N", "E", "S", "W"])
            if t == "direction":
                box.setEditable(True)
            for v in values:
                box.addItem(UNSET if v is None else str(v), v)
            i = box.findData(value)
            if i < 0 and value is not None:
                box.addItem(str(value), value)
                i = box.count() - 1
            box.setCurrentIndex(max(i, 0))
            if t == "enum":
                box.currentIndexChanged.connect(
                    lambda _i, k=key, b=box: self._set(k, b.currentData())
                )
            else:
                box.activated.connect(lambda _i, k=key, b=box: self._set_direction(k, b))
                le = box.lineEdit()
                if le is not None:
                    le.editingFinished.connect(lambda k=key, b=box: self._set_direction(k, b))
            return box
        if t == "bool":
            cb = QCheckBox()
            cb.setChecked(bool(value))
            cb.toggled.connect(lambda on, k=key: self._set(k, True if on else None))
            return cb
        if t == "letters":
            w = QWidget()
            lay = QHBoxLayout(w)
            lay.setContentsMargins(0, 0, 0, 0)
            boxes = []
            for letter in spec["values"]:
                cb = QCheckBox(letter)
                cb.setChecked(letter in (value or []))
                boxes.append(cb)
                lay.addWidget(cb)

            def changed(_on: bool, k: str = key, bs: list[QCheckBox] = boxes) -> None:
                self._set(k, [b.text() for b in bs if b.isChecked()] or None)

            for cb in boxes:
                cb.toggled.connect(changed)
            return w
        le = QLineEdit("" if value is None else (", ".join(value) if t == "ids" else str(value)))
        le.editingFinished.connect(lambda k=key, e=le, tt=t: self._set_text(k, e.text(), tt))
        return le

    # ------------------------------------------------------------------ edits
    def _push(self, cmd: Any) -> None:
        self.doc.undo.push(cmd)

    def _set(self, key: str, value: Any) -> None:
        if self._building:
            return
        fids = [k[2:] for k in self.keys if k.startswith("f:")]
        try:
            cmd = SetPropertyCommand(self.doc, fids, key, value)
        except BoardwrightError as exc:
            self.error.setText(str(exc))
            return
        feats = [self.doc.feature(f) for f in fids]
        if all(ft is not None and ft.props.get(key) == value for ft in feats):
            return
        self.error.setText("")
        self._push(cmd)

    def _set_direction(self, key: str, box: QComboBox) -> None:
        text = box.currentText().strip()
        if text in ("", UNSET):
            self._set(key, None)
            return
        if text.upper() in ("N", "E", "S", "W"):
            self._set(key, text.upper())
            return
        try:
            self._set(key, float(text))
        except ValueError:
            self.error.setText(f"{key}: {text!r} is not N, E, S, W or a bearing in degrees")

    def _set_text(self, key: str, text: str, t: str) -> None:
        text = text.strip()
        value: Any
        if not text:
            value = None
        elif t == "ids":
            value = [s.strip() for s in text.split(",") if s.strip()]
        elif t in ("number", "int"):
            try:
                value = int(text) if t == "int" else float(text)
            except ValueError:
                self.error.setText(
                    f"{key}: {text!r} is not a{'n integer' if t == 'int' else ' number'}"
                )
                return
        else:
            value = text
        self._set(key, value)

    def _rename(self, old: str, new: str) -> None:
        if self._building or new.strip() == old or self.keys != [f"f:{old}"]:
            return
        try:
            cmd = RenameFeatureCommand(self.doc, old, new.strip())
        except BoardwrightError as exc:
            self.error.setText(str(exc))
            return
        self._push(cmd)
        self.reselect.emit({f"f:{cmd.new}"})

    def _set_rules(self, rules: str | None) -> None:
        """Set the board's rules; a game whose pack is installed (same id) comes with
        its pack's pieces and decks, embedded in the same undo step."""
        if self._building or self.doc.board.meta.get("rules") == rules:
            return
        pack = load_packs().get(rules) if rules else None
        if pack is None or not pack_needed(self.doc, pack):
            self._meta("rules", rules)
            return
        self.doc.undo.beginMacro(f"Rules: {rules}, with its pack")
        self._push(SetMetaCommand(self.doc, "rules", rules))
        self._push(EmbedPackCommand(self.doc, pack))
        self.doc.undo.endMacro()

    def _meta(self, key: str, value: Any) -> None:
        if self._building or self.doc.board.meta.get(key) == value:
            return
        self._push(SetMetaCommand(self.doc, key, value))

    def _move_placement(self, axis: str, value: float) -> None:
        if self._building or len(self.keys) != 1:
            return
        p = self.doc.placement(self.keys[0][2:])
        if p is None:
            return
        d = value - getattr(p, axis)
        if abs(d) > 1e-9:
            self._push(
                MoveCommand(
                    self.doc, {self.keys[0]}, d if axis == "x" else 0.0, d if axis == "y" else 0.0
                )
            )

    def _turn_placement(self, value: int) -> None:
        if self._building or len(self.keys) != 1:
            return
        p = self.doc.placement(self.keys[0][2:])
        if p is None or p.turns == value:
            return
        self._push(TurnCommand(self.doc, [p.id], value - p.turns))
