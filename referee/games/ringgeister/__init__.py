"""Ringgeister rules (DESIGN §4): quarter-turning octagon and square tiles, wind and black figures."""
