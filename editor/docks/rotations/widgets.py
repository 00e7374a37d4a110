"""The Rotations dock's widgets and their layout, without behaviour.

:class:`~.dock.RotationsDock` builds on :class:`RotationsDockWidgets` and connects the
buttons, the table and the legal-turns list to what they do.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QDockWidget,
    QFormLayout,
    QFrame,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QListView,
    QListWidget,
    QProgressBar,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QSpinBox,
    QTableWidget,
    QVBoxLayout,
    QWidget,
)

ROW_ROLE = Qt.ItemDataRole.UserRole


class _Page(QWidget):
    """The dock's page. It reports no height-for-width, so the scroll area holding it
    gives it the dock's height (the word-wrapped figures would otherwise make it ask
    for its full preferred height and scroll needlessly)."""

    def hasHeightForWidth(self) -> bool:
        return False

    def heightForWidth(self, width: int) -> int:
        return -1  # QScrollArea asks the layout, then this: "no preference"


class RotationsDockWidgets(QDockWidget):
    """The Rotations dock's widgets, laid out on a scrolling page; no behaviour beyond
    enabling the sample size and seed for the ``sample`` method."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__("Rotations", parent)
        self.setObjectName("RotationsDock")
        self._build()

    # ------------------------------------------------------------------ widgets
    def _build(self) -> None:
        w = _Page()
        lay = QVBoxLayout(w)
        lay.setContentsMargins(6, 6, 6, 6)
        lay.setSpacing(6)
        opts = QGroupBox("Analyse")
        form = QFormLayout(opts)
        form.setContentsMargins(6, 6, 6, 6)
        form.setVerticalSpacing(4)
        self.from_edit = QLineEdit()
        self.from_edit.setPlaceholderText("white starting points")
        self.from_edit.setToolTip(
            "Where the walk starts: points by name, comma-separated — press Pick and click "
            "them on the canvas (empty: every white starting point)"
        )
        self.to_edit = QLineEdit()
        self.to_edit.setPlaceholderText("the goal")
        self.to_edit.setToolTip(
            "The points that must all be reached, by name — press Pick and click them on "
            "the canvas (empty: the goal)"
        )
        self.from_pick = QPushButton("Pick")
        self.from_pick.setCheckable(True)
        self.from_pick.setToolTip("Click points on the canvas to start from (Esc ends)")
        self.to_pick = QPushButton("Pick")
        self.to_pick.setCheckable(True)
        self.to_pick.setToolTip("Click points on the canvas that must be reached (Esc ends)")
        from_row = QHBoxLayout()
        from_row.setSpacing(4)
        from_row.addWidget(self.from_edit, 1)
        from_row.addWidget(self.from_pick)
        to_row = QHBoxLayout()
        to_row.setSpacing(4)
        to_row.addWidget(self.to_edit, 1)
        to_row.addWidget(self.to_pick)
        self.tiles_edit = QLineEdit()
        self.tiles_edit.setPlaceholderText("every turnable tile")
        self.tiles_edit.setToolTip(
            "The tiles that turn, by placement id, comma-separated "
            "(empty: every turnable tile; the others keep their turn)"
        )
        self.use_selection = QPushButton("Selected")
        self.use_selection.setToolTip("Vary the tiles selected on the canvas")
        tiles_row = QHBoxLayout()
        tiles_row.setSpacing(4)
        tiles_row.addWidget(self.tiles_edit, 1)
        tiles_row.addWidget(self.use_selection)
        self.spider = QComboBox()
        self.spider.addItems(["open", "closed"])
        self.spider.setToolTip("Whether the spider-guarded path counts")
        self.galleries = QComboBox()
        self.galleries.addItems(["none", "moon", "star"])
        self.galleries.setToolTip("Join the doors of this symbol (the face-up card's gallery)")
        sg = QHBoxLayout()
        sg.setSpacing(4)
        sg.addWidget(QLabel("spider"))
        sg.addWidget(self.spider, 1)
        sg.addWidget(QLabel("galleries"))
        sg.addWidget(self.galleries, 1)
        self.method = QComboBox()
        self.method.addItems(["exact", "sample"])
        self.method.setToolTip(
            "exact: every configuration counted (no enumeration); "
            "sample: random configurations with a 95 % interval"
        )
        self.samples = QSpinBox()
        self.samples.setRange(1, 10_000_000)
        self.samples.setValue(20_000)
        self.samples.setSingleStep(10_000)
        self.samples.setPrefix("N ")
        self.seed = QSpinBox()
        self.seed.setRange(0, 2**31 - 1)
        self.seed.setPrefix("seed ")
        mrow = QHBoxLayout()
        mrow.setSpacing(4)
        mrow.addWidget(self.method, 1)
        mrow.addWidget(self.samples, 1)
        mrow.addWidget(self.seed, 1)
        self.method.currentTextChanged.connect(self._method_changed)
        self._method_changed("exact")
        form.addRow("From", from_row)
        form.addRow("To", to_row)
        form.addRow("Tiles", tiles_row)
        form.addRow(sg)
        form.addRow("Method", mrow)
        lay.addWidget(opts)

        run_row = QHBoxLayout()
        self.run_btn = QPushButton("Run")
        self.run_btn.setToolTip(
            "Count the configurations of the turning tiles that connect "
            "(manual: the board is not re-analysed on every edit)"
        )
        self.stop_btn = QPushButton("Stop")
        self.stop_btn.setEnabled(False)
        self.progress = QProgressBar()
        self.progress.setRange(0, 1)
        self.progress.setValue(0)
        self.progress.setTextVisible(True)
        self.progress.setFormat("idle")
        run_row.addWidget(self.run_btn)
        run_row.addWidget(self.stop_btn)
        run_row.addWidget(self.progress, 1)
        lay.addLayout(run_row)

        self.banner = QLabel("")
        self.banner.setWordWrap(True)
        self.banner.setVisible(False)
        lay.addWidget(self.banner)
        self.figures = QLabel(
            "Press Run to count the configurations of the turning tiles "
            "that connect the starts to the goal."
        )
        self.figures.setWordWrap(True)
        self.figures.setTextFormat(Qt.TextFormat.RichText)
        self.figures.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        # wrapped labels get squeezed below their height in a short dock: never shrink it
        self.figures.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Minimum)
        lay.addWidget(self.figures)

        wit = QHBoxLayout()
        self.load_unreachable = QPushButton("Load unreachable")
        self.load_unreachable.setToolTip(
            "Turn the tiles to a configuration where the goal is unreachable (one undoable edit)"
        )
        self.load_fewest = QPushButton("Load fewest points")
        self.load_fewest.setToolTip(
            "Turn the tiles to the configuration with the fewest "
            "reachable points (one undoable edit)"
        )
        for b in (self.load_unreachable, self.load_fewest):
            b.setEnabled(False)
            wit.addWidget(b)
        lay.addLayout(wit)

        self.table = QTableWidget(0, 4)
        self.table.setHorizontalHeaderLabels(["Tile", "Decides", "Alike turns", "Connects by turn"])
        self.table.verticalHeader().setVisible(False)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setAlternatingRowColors(True)
        self.table.setWordWrap(False)
        hh = self.table.horizontalHeader()
        hh.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        hh.setStretchLastSection(True)
        self.table.verticalHeader().setDefaultSectionSize(20)
        self.table.setToolTip(
            "Decides: the share of the other tiles' configurations in which "
            "turning only this tile can change the answer. Click a row to "
            "select the tile."
        )
        lay.addWidget(self.table, 3)

        self.legal_title = QLabel("Legal turns: select one tile")
        lay.addWidget(self.legal_title)
        self.legal_list = QListWidget()
        self.legal_list.setWordWrap(True)
        self.legal_list.setResizeMode(QListView.ResizeMode.Adjust)
        self.legal_list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.legal_list.setToolTip(
            "Turns whose ports all meet a path on the other side "
            "(neighbours at their current turns). Double-click a turn "
            "to turn the tile to it."
        )
        self.legal_list.setMinimumHeight(70)
        lay.addWidget(self.legal_list, 1)
        # scroll rather than force the main window taller than the user made it
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        scroll.setWidget(w)
        bar = scroll.style().pixelMetric(scroll.style().PixelMetric.PM_ScrollBarExtent)
        scroll.setMinimumWidth(w.minimumSizeHint().width() + bar + 2)
        self.setWidget(scroll)

    def _method_changed(self, text: str) -> None:
        on = text == "sample"
        self.samples.setEnabled(on)
        self.seed.setEnabled(on)
