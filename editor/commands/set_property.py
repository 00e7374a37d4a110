"""Set one property of a feature, or one board setting."""

from __future__ import annotations

from typing import Any

from PySide6.QtGui import QUndoCommand

from referee.model import check_prop

from ..document import Document
from ..live import Change

_MISSING = object()


class SetPropertyCommand(QUndoCommand):
    """Set ``props[key] = value`` on the free-standing features ``fids``.

    ``value`` is validated against the merged property table (:func:`referee.model.prop_table`) first
    (:class:`referee.errors.BoardError` on a bad value, nothing changes). A value of
    ``None`` removes the property.
    """

    def __init__(self, doc: Document, fids: list[str], key: str, value: Any) -> None:
        super().__init__(f"Set {key} = {value!r}")
        self.doc = doc
        self.key = key
        self.value = value
        self.fids = list(fids)
        self.old: dict[str, Any] = {}
        for fid in self.fids:
            f = doc.feature(fid)
            assert f is not None, fid
            if value is not None:
                check_prop(f.kind, key, value, f"feature {fid}")
            self.old[fid] = f.props.get(key, _MISSING)

    def _change(self) -> Change:
        return Change(props=set(self.fids), prop_keys={self.key})

    def redo(self) -> None:
        for fid in self.fids:
            f = self.doc.feature(fid)
            assert f is not None
            if self.value is None:
                f.props.pop(self.key, None)
            else:
                f.props[self.key] = self.value
        self.doc.notify({f"f:{fid}" for fid in self.fids}, self._change())

    def undo(self) -> None:
        for fid in self.fids:
            f = self.doc.feature(fid)
            assert f is not None
            old = self.old[fid]
            if old is _MISSING:
                f.props.pop(self.key, None)
            else:
                f.props[self.key] = old
        self.doc.notify({f"f:{fid}" for fid in self.fids}, self._change())


class SetMetaCommand(QUndoCommand):
    """Set one board metadata entry (name, rules, width, height …)."""

    def __init__(self, doc: Document, key: str, value: Any) -> None:
        super().__init__(f"Set board {key}")
        self.doc = doc
        self.key = key
        self.value = value
        self.old = doc.board.meta.get(key, _MISSING)

    def _set(self, value: Any) -> None:
        if value is _MISSING:
            self.doc.board.meta.pop(self.key, None)
        else:
            self.doc.board.meta[self.key] = value
        self.doc.notify({"meta"}, Change(full=self.key in ("settings",)))

    def redo(self) -> None:
        self._set(self.value)

    def undo(self) -> None:
        self._set(self.old)
