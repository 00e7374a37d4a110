"""Riddle of the Ring (rules name ``riddle``): movement referee and the whole card game."""

from __future__ import annotations

from .game import RiddleGame

GAME = RiddleGame
