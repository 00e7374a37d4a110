"""Riddle of the Ring (rules in ``/work/shared/rules/riddle-of-the-ring.txt``, DESIGN §5).

:mod:`.movement` referees movement on a compiled region map (destinations for a roll,
path validation, "within N spaces", "beside", flights); :mod:`.turn` holds the pure
helpers for the turn around a move (extra moves, Friendly Exchanges, picking up at
cities, the 10-card limit, leaving Limbo, C spaces).
"""
