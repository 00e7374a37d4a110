"""Sample projects, installed as ``referee.shipped.projects``.

See :mod:`referee.shipped`; this file only makes the folder an importable package.
"""
