"""The Rotations dock: the rotation census of the open board, run off the GUI thread.

The dock runs :func:`referee.rotations.census` (the analysis behind ``referee
turns``) on a *copy* of the document's board in a :class:`CensusThread`, feeds a
progress bar from the census' progress callback and can stop the run (the answer is
then marked partial). It shows the figures (distinct configurations, how many
connect, the percentage, each tile's symmetry), ranks the tiles by criticality in a
table (click a row: the tile is selected and centred), tints the critical tiles on
the canvas (stronger = more critical; a legend in a free corner of the canvas says
what the tint means and its scale), loads the "goal unreachable" and "fewest
reachable points" configurations into the board as one undoable edit (made of
:class:`~editor.commands.TurnCommand` steps, so Undo restores the turns), and lists
the legal turns of the selected tile (``referee turns --legal``) with the reason for
each rejected turn; double-click a turn to turn the tile to it.

Recompute is manual. Any edit marks the results stale and clears the tint — except
turns of the analysed tiles themselves, which the census ranges over anyway (its
figures do not depend on their current turns).

One module per concern: :mod:`.census` (the options and the worker thread),
:mod:`.formatting` (how figures are written), :mod:`.tint` (the canvas tint of a
critical tile), :mod:`.widgets` (the dock's widgets and layout) and :mod:`.dock`
(:class:`~.dock.RotationsDock`: running, showing, staleness, witnesses, legal turns).
"""
