"""Stopping a study early once its answer is clear (``referee balance --stop-early``).

A study planned for G games is looked at after every L games (L a multiple of
the seats, so rotated seats stay balanced at each look): K = ⌈G / L⌉ looks at
most. At each look the question is asked of the games *one* seat (``seats``) or
one bot (``bots``) won alone: does some seat or bot win a share of them other
than its fair share 1/m (m seats or bots)? Each share gets a Wilson interval at
level 1 − α / (K · t), t the number of shares tested (1 for two: their shares add
up to 1); the study stops at the first look where an interval leaves out 1/m.

The error, stated: if every seat (bot) were in truth equal, the chance that the
study stops on a difference that is not there is at most α (5 %) — Bonferroni
over the K looks and the t shares (Wilson intervals are close to their level from
a few dozen games on; the bound is conservative). When no look is clear the study
plays all G games, as without ``--stop-early``.

Looks are taken on the games of the first seeds only (a prefix of the plan), so
where a study stops depends on the seeds alone, not on the order in which
parallel workers finish: the same command stops at the same game on one process
or on many.
"""

from __future__ import annotations

import math
from statistics import NormalDist
from typing import Any

from .stats import wilson

#: the overall chance of stopping on a difference that is not there
ALPHA = 0.05
#: games between looks (rounded up to a multiple of the seats)
LOOK = 20
#: what ``--stop-early`` may ask
QUESTIONS = ("bots", "seats")


def look_every(look: int, seats: int) -> int:
    """``look`` rounded up to a multiple of ``seats`` (at least one round)."""
    return max(seats, math.ceil(look / seats) * seats)


def looks(games: int, look: int) -> int:
    """How many looks a study of ``games`` games takes at most."""
    return math.ceil(games / look)


def check(
    records: list[dict[str, Any]], question: str, n_looks: int, alpha: float = ALPHA
) -> dict[str, Any]:
    """Whether the answer to ``question`` is clear in ``records`` (one look).

    Returns ``{"question", "games", "sole_wins", "level", "shares", "clear"}``:
    ``shares`` maps each seat name or ``bot k`` to its sole wins, share, interval
    and whether the interval leaves out the fair share.
    """
    if question not in QUESTIONS:
        raise ValueError(f"question must be one of {QUESTIONS}, not {question!r}")
    seats = list(records[0]["seats"]) if records else []
    m = len(seats)
    counts = dict.fromkeys(seats if question == "seats" else [f"bot {j + 1}" for j in range(m)], 0)
    sole = 0
    for r in records:
        if len(r["winners"]) != 1:
            continue
        i = r["seats"].index(r["winners"][0])
        lineup = r.get("lineup") or list(range(len(r["seats"])))
        who = r["seats"][i] if question == "seats" else f"bot {lineup[i] + 1}"
        counts[who] += 1
        sole += 1
    tested = 1 if m == 2 else m
    level = 1.0 - alpha / (max(1, n_looks) * max(1, tested))
    z = NormalDist().inv_cdf(1.0 - (1.0 - level) / 2.0)
    fair = 1.0 / m if m else 0.0
    shares = {}
    for who, k in counts.items():
        lo, hi = wilson(k, sole, z)
        shares[who] = {
            "sole_wins": k,
            "share": round(k / sole, 4) if sole else 0.0,
            "interval": [round(lo, 4), round(hi, 4)],
            "clear": bool(sole) and (hi < fair or lo > fair),
        }
    return {
        "question": question,
        "games": len(records),
        "sole_wins": sole,
        "fair_share": round(fair, 4),
        "level": level,
        "shares": shares,
        "clear": any(s["clear"] for s in shares.values()),
    }
