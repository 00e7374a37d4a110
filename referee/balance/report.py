"""The balance report: win rates with intervals, first-player advantage, game
lengths, endings, rules fired, and the comparison of two boards.

:func:`summarise` turns a study's records into JSON-ready figures;
:func:`compare` sets two summaries on the same seeds side by side with p-values;
:func:`text` writes either for people.
"""

from __future__ import annotations

import math
from collections import Counter
from typing import Any

from .stats import fisher_exact, mean_difference, quantiles, two_proportion_z, wilson


def _rate(k: int, n: int) -> dict[str, Any]:
    lo, hi = wilson(k, n)
    return {
        "wins": k,
        "games": n,
        "rate": round(k / n, 4) if n else 0.0,
        "ci95": [round(lo, 4), round(hi, 4)],
    }


def summarise(records: list[dict[str, Any]]) -> dict[str, Any]:
    """Figures of one study (see the module docs)."""
    n = len(records)
    seat_names: list[str] = list(records[0]["seats"]) if records else []
    lineups = [_lineup(r) for r in records]
    # the study's bots in --bots order, from the first game's seating
    bots: list[str] = [""] * len(seat_names)
    if records:
        for i, j in enumerate(lineups[0]):
            if j < len(bots):
                bots[j] = records[0]["bots"][i]
    rotated = any(lu != list(range(len(lu))) for lu in lineups)
    per_seat = {}
    for i, s in enumerate(seat_names):
        k = sum(1 for r in records if s in r["winners"])
        who = "all bots in turn" if rotated else (bots[i] if i < len(bots) else "")
        per_seat[s] = {"seat": i + 1, "bot": who, **_rate(k, n)}
    # bot j's wins over every seat it sat in (bot strength, seat advantage averaged out
    # when seats rotate), and the seat-by-bot table of games and wins
    by_bot = {}
    table: dict[str, dict[str, dict[str, int]]] = {s: {} for s in seat_names}
    for j, spec in enumerate(bots):
        label = f"bot {j + 1}"
        wins = 0
        for r, lu in zip(records, lineups, strict=True):
            won = False
            for i, s in enumerate(r["seats"]):
                if i < len(lu) and lu[i] == j:
                    cell = table.setdefault(s, {}).setdefault(label, {"games": 0, "wins": 0})
                    cell["games"] += 1
                    if s in r["winners"]:
                        cell["wins"] += 1
                        won = True
            wins += won
        by_bot[label] = {"bot": spec, **_rate(wins, n)}
    counts = [c["games"] for row in table.values() for c in row.values()]
    firsts = [r for r in records if r.get("first")]
    first_wins = sum(1 for r in firsts if r["first"] in r["winners"])
    decided = [r for r in firsts if r["winners"] and len(r["winners"]) < len(r["seats"])]
    first_decided = sum(1 for r in decided if r["first"] in r["winners"])
    first_by_seat = Counter(str(r["first"]) for r in firsts)
    lengths = [float(r["moves"]) for r in records]
    q = quantiles(lengths, (0.0, 0.1, 0.25, 0.5, 0.75, 0.9, 1.0))
    fired: Counter[str] = Counter()
    games_with: Counter[str] = Counter()
    for r in records:
        fired.update(r["rules_fired"])
        games_with.update(r["rules_fired"].keys())
    heat: Counter[str] = Counter()
    for r in records:
        heat.update(r["heat"])
    return {
        "games": n,
        "seats": seat_names,
        "bots": bots,
        "results": dict(sorted(Counter(r["result"] for r in records).items())),
        "with_winner": _rate(sum(1 for r in records if r["winners"]), n),
        "seating": {
            "rotated": rotated,
            "games_per_seat_and_bot": [min(counts, default=0), max(counts, default=0)],
            "table": table,
        },
        "win_rate": per_seat,
        "win_rate_by_bot": by_bot,
        "first_player": {
            "moved_first": dict(sorted(first_by_seat.items())),
            "first_player_won": _rate(first_wins, len(firsts)),
            "first_player_won_decided": _rate(first_decided, len(decided)),
            "fair_share": round(1 / len(seat_names), 4) if seat_names else None,
        },
        "length": {
            "mean": round(sum(lengths) / n, 2) if n else 0.0,
            "min": q[0],
            "p10": q[1],
            "p25": q[2],
            "median": q[3],
            "p75": q[4],
            "p90": q[5],
            "max": q[6],
            "histogram": _histogram(lengths),
        },
        "endings": dict(Counter(r["ending"] for r in records).most_common()),
        "rules_fired": {
            k: {"total": v, "per_game": round(v / n, 3), "games": games_with[k]}
            for k, v in fired.most_common()
        },
        "heat": dict(heat.most_common()),
    }


def _lineup(record: dict[str, Any]) -> list[int]:
    """For each seat of a game, the index of its bot in the study's list (records
    from before seats rotated have none: bot k sat in seat k)."""
    return list(record.get("lineup") or range(len(record["seats"])))


def _histogram(values: list[float], bins: int = 10) -> list[dict[str, Any]]:
    """Game lengths in at most ``bins`` bins of equal whole-number width; ``from`` and
    ``to`` are both included (moves are whole numbers: 6–35, 36–65, ...)."""
    if not values:
        return []
    lo, hi = math.floor(min(values)), math.ceil(max(values))
    width = max(1, math.ceil((hi - lo + 1) / bins))
    counts = [0] * math.ceil((hi - lo + 1) / width)
    for v in values:
        counts[int((v - lo) // width)] += 1
    return [
        {"from": lo + i * width, "to": lo + (i + 1) * width - 1, "games": c}
        for i, c in enumerate(counts)
    ]


def compare(
    a: dict[str, Any], b: dict[str, Any], ra: list[dict[str, Any]], rb: list[dict[str, Any]]
) -> dict[str, Any]:
    """Differences of board B against board A on the same seeds, with p-values.

    Win rates per seat and the rate of games with a winner: two-proportion z-test
    and Fisher's exact test; game length: Welch's statistic.
    """
    out: dict[str, Any] = {"games": [a["games"], b["games"]], "win_rate": {}}
    for s, wa in a["win_rate"].items():
        wb = b["win_rate"].get(s)
        if wb is None:
            continue
        out["win_rate"][s] = _diff(wa, wb)
    out["win_rate_by_bot"] = {
        k: _diff(wa, b["win_rate_by_bot"][k])
        for k, wa in a.get("win_rate_by_bot", {}).items()
        if k in b.get("win_rate_by_bot", {})
    }
    out["with_winner"] = _diff(a["with_winner"], b["with_winner"])
    d, p = mean_difference([float(r["moves"]) for r in rb], [float(r["moves"]) for r in ra])
    out["length"] = {
        "a": a["length"]["mean"],
        "b": b["length"]["mean"],
        "difference": round(d, 2),
        "p_welch": _p(p),
    }
    out["heat"] = heat_difference(ra, rb)
    return out


#: the false discovery rate of the changes a difference map rings
FDR = 0.05


def heat_difference(
    ra: list[dict[str, Any]], rb: list[dict[str, Any]], fdr: float = FDR
) -> dict[str, dict[str, Any]]:
    """Per node: visits per game on board A and B, the change B − A, its two-sided
    p-value (Welch) and whether it is significant.

    Many nodes are tested at once, so a change counts as significant by the
    Benjamini–Hochberg procedure at false discovery rate ``fdr`` (of the ringed
    changes, at most 5 % are expected to be chance), not by p < 0.05 per node.
    """
    nodes = sorted({n for r in ra for n in r["heat"]} | {n for r in rb for n in r["heat"]})
    out: dict[str, dict[str, Any]] = {}
    for n in nodes:
        xa = [float(r["heat"].get(n, 0)) for r in ra]
        xb = [float(r["heat"].get(n, 0)) for r in rb]
        d, p = mean_difference(xb, xa)
        out[n] = {
            "a": round(sum(xa) / len(xa), 3) if xa else 0.0,
            "b": round(sum(xb) / len(xb), 3) if xb else 0.0,
            "difference": round(d, 3),
            "p": _p(p),
            "significant": False,
        }
    ranked = sorted(out, key=lambda n: out[n]["p"])
    m = len(ranked)
    passed = 0
    for i, n in enumerate(ranked, 1):
        if out[n]["p"] <= fdr * i / m:
            passed = i
    for n in ranked[:passed]:
        out[n]["significant"] = out[n]["difference"] != 0
    return out


def _diff(wa: dict[str, Any], wb: dict[str, Any]) -> dict[str, Any]:
    z, p = two_proportion_z(wb["wins"], wb["games"], wa["wins"], wa["games"])
    return {
        "a": wa["rate"],
        "b": wb["rate"],
        "a_ci95": wa["ci95"],
        "b_ci95": wb["ci95"],
        "difference": round(wb["rate"] - wa["rate"], 4),
        "z": round(z, 3),
        "p_z": _p(p),
        "p_fisher": _p(fisher_exact(wb["wins"], wb["games"], wa["wins"], wa["games"])),
    }


def _p(p: float) -> float:
    return float(f"{p:.4g}")


def _pct(x: float) -> str:
    return f"{100 * x:.1f} %"


def text(report: dict[str, Any]) -> str:
    """The report for people (``report["summary"]`` and optional ``["compare"]``)."""
    s = report["summary"]
    lines = [
        f"{report['rules']} on {report['project']}: {s['games']} game(s), "
        f"{report['players']} players, bots {', '.join(s['bots'])}",
        f"  results: {', '.join(f'{k} {v}' for k, v in s['results'].items())}; "
        f"a winner in {_pct(s['with_winner']['rate'])} "
        f"[{_pct(s['with_winner']['ci95'][0])}, {_pct(s['with_winner']['ci95'][1])}]",
    ]
    se = report.get("stop_early")
    if se is not None:
        lines += _stop_lines(se)
    seating = s.get("seating", {"rotated": False, "games_per_seat_and_bot": [0, 0]})
    lo, hi = seating["games_per_seat_and_bot"]
    several = len(set(s["bots"])) > 1
    if seating["rotated"]:
        each = f"{lo}" if lo == hi else f"{lo}–{hi}"
        lines.append(
            f"  seats rotated: each bot sat in each seat {'once' if each == '1' else each + ' times'}, "
            "so the seats' win "
            "rates measure the seats and the bots' win rates the bots"
        )
    elif several:
        lines.append(
            "  seats fixed (--fixed-seats): bot k always sat in seat k, so a seat's "
            "advantage and its bot's strength are mixed in one figure"
        )
    head = "win rate per seat" + (", all bots (seat advantage)" if seating["rotated"] else "")
    lines.append(f"  {head} (95 % Wilson interval):")
    for name, w in s["win_rate"].items():
        lines.append(
            f"    seat {w['seat']} {name:<12} {w['bot']:<22} {w['wins']:>5}/{w['games']:<5} "
            f"{_pct(w['rate']):>8}  [{_pct(w['ci95'][0])}, {_pct(w['ci95'][1])}]"
        )
    if seating["rotated"]:
        lines.append("  win rate per bot, all seats (bot strength):")
        for label, w in s["win_rate_by_bot"].items():
            lines.append(
                f"    {label:<19} {w['bot']:<22} {w['wins']:>5}/{w['games']:<5} "
                f"{_pct(w['rate']):>8}  [{_pct(w['ci95'][0])}, {_pct(w['ci95'][1])}]"
            )
        lines.append("  wins/games by seat and bot:")
        labels = list(s["win_rate_by_bot"])
        lines.append(f"    {'':<14}" + "".join(f"{b:>12}" for b in labels))
        for name, row in seating["table"].items():
            cells = [row.get(b, {"wins": 0, "games": 0}) for b in labels]
            lines.append(
                f"    {name:<14}" + "".join(f"{c['wins']:>6}/{c['games']:<5}" for c in cells)
            )
    fp = s["first_player"]
    fw = fp["first_player_won"]
    lines.append(
        f"  first player won {fw['wins']}/{fw['games']} = {_pct(fw['rate'])} "
        f"[{_pct(fw['ci95'][0])}, {_pct(fw['ci95'][1])}] (fair share "
        f"{_pct(fp['fair_share'] or 0)}); moved first: "
        + ", ".join(f"{k} {v}" for k, v in fp["moved_first"].items())
    )
    ln = s["length"]
    lines.append(
        f"  length (moves): mean {ln['mean']}, median {ln['median']:g}, "
        f"p10–p90 {ln['p10']:g}–{ln['p90']:g}, range {ln['min']:g}–{ln['max']:g}"
    )
    for h in ln["histogram"]:
        bar = "#" * round(40 * h["games"] / max(1, s["games"]))
        span = f"{h['from']}" if h["from"] == h["to"] else f"{h['from']}–{h['to']}"
        lines.append(f"    {span:>13} {h['games']:>5} {bar}")
    lines.append("  how games end:")
    for k, v in s["endings"].items():
        lines.append(f"    {v:>5}  {k}")
    lines.append("  rules fired (events per game; games where it fired):")
    for k, v in list(s["rules_fired"].items())[:25]:
        lines.append(f"    {v['per_game']:>9g}  {v['games']:>5}  {k}")
    c = report.get("compare")
    if c:
        lines.append(f"  compared with {report['compare_project']} (same seeds; B − A):")
        for name, d in c["win_rate"].items():
            lines.append(
                f"    {name:<12} win rate {_pct(d['a'])} → {_pct(d['b'])} "
                f"({'+' if d['difference'] >= 0 else ''}{100 * d['difference']:.1f} points; "
                f"p = {d['p_z']:g} z-test, p = {d['p_fisher']:g} Fisher)"
            )
        if s.get("seating", {}).get("rotated"):
            for label, d in c.get("win_rate_by_bot", {}).items():
                lines.append(
                    f"    {label:<12} win rate {_pct(d['a'])} → {_pct(d['b'])} "
                    f"({'+' if d['difference'] >= 0 else ''}{100 * d['difference']:.1f} points; "
                    f"p = {d['p_z']:g} z-test, p = {d['p_fisher']:g} Fisher)"
                )
        d = c["with_winner"]
        lines.append(
            f"    a winner   {_pct(d['a'])} → {_pct(d['b'])} (p = {d['p_z']:g} z-test, "
            f"p = {d['p_fisher']:g} Fisher)"
        )
        ln = c["length"]
        lines.append(f"    length     {ln['a']} → {ln['b']} moves (p = {ln['p_welch']:g} Welch)")
        sig = sorted(
            (n for n, v in c.get("heat", {}).items() if v["significant"]),
            key=lambda n: -abs(c["heat"][n]["difference"]),
        )
        lines.append(
            f"    where figures went: {len(sig)} space(s) changed significantly "
            f"({100 * FDR:g} % false discovery rate)" + (":" if sig else "")
        )
        for n in sig[:10]:
            v = c["heat"][n]
            lines.append(f"      {n:<24} {v['a']:g} → {v['b']:g} visits per game (p = {v['p']:g})")
    for f in report.get("files", []):
        lines.append(f"  wrote {f}")
    return "\n".join(lines)


def _stop_lines(se: dict[str, Any]) -> list[str]:
    """What ``--stop-early`` found (see :mod:`.sequential`)."""
    what = "bot" if se["question"] == "bots" else "seat"
    if not se["stopped"]:
        return [
            f"  --stop-early {se['question']}: no look every {se['look_every']} games was "
            f"clear, so all {se['planned']} games were played"
        ]
    look = se["look"]
    lines = [
        f"  stopped early after {se['games']} of {se['planned']} games: a {what}'s share of "
        f"the {look['sole_wins']} games won by one {what} alone is clearly not its fair "
        f"share {_pct(look['fair_share'])} (intervals at {100 * look['level']:.2f} % per "
        f"look; at most {_pct(se['alpha'])} chance overall of stopping on a difference "
        "that is not there)"
    ]
    for who, sh in look["shares"].items():
        lo, hi = sh["interval"]
        lines.append(
            f"    {who:<14} {sh['sole_wins']:>5} sole wins  {_pct(sh['share']):>8}  "
            f"[{_pct(lo)}, {_pct(hi)}]{'  clear' if sh['clear'] else ''}"
        )
    return lines
