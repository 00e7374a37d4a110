"""Example positions of the built-in games, installed as ``referee.shipped.positions``.

See :mod:`referee.shipped`; this file only makes the folder an importable package.
"""
