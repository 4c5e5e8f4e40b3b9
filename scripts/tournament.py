"""Tournaments of N engines: the order of games of a round-robin or a gauntlet, and the report made from
the game records (rating list, crosstable, each engine's time use and forfeits), as text and as JSON.

The referee (referee.py) plays the games and keeps the records; this module only plans and counts.
Game ids: openings are taken in rounds, cycle by cycle; in each round every pairing plays the round's
opening twice, colours swapped, so a tournament stopped early has played every pairing about equally.
Round r = cycle * count + k (opening r of the list), pairing p, game 2 * (r * P + p) + c with c = 0 when
the pairing's first engine (in -e order) is black.
"""

import math

import othello
import rating

FORMATS = ("round-robin", "gauntlet")
METHOD = (
    "Bayesian Elo in the manner of BayesElo (R. Coulom, https://www.remi-coulom.fr/Bayesian-Elo/): "
    "draw width and first-move advantage fitted, a prior of {prior:g} virtual draws between engines that met; "
    "95% interval from the covariance of the fit"
)


def pairings(n, fmt):
    """Pairs (i, j), i < j, of engine indices: all of them, or engine 0 against each of the others."""
    if fmt == "gauntlet":
        return [(0, j) for j in range(1, n)]
    return [(i, j) for i in range(n) for j in range(i + 1, n)]


def plan(pairs, count, cycles, shard):
    """(game id, opening index, black, white, record fields) of the games in shard K/N: the two games of
    one opening for one pairing stay together, shard K taking those whose pair number is K-1 mod N."""
    k, n = shard
    games = []
    for rnd in range(count * cycles):
        for p, (i, j) in enumerate(pairs):
            unit = rnd * len(pairs) + p
            if unit % n != k - 1:
                continue
            for c in (0, 1):
                black, white = (i, j) if c == 0 else (j, i)
                extra = {"cycle": rnd // count, "round": rnd, "pair": [i, j], "a_black": c == 0}
                games.append((2 * unit + c, rnd, black, white, extra))
    return games


def total_games(header):
    return 2 * len(header["pairs"]) * header["openings_per_cycle"] * header["cycles"]


def black_score(rec):
    return 1.0 if rec["winner"] == othello.BLACK else 0.5 if rec["winner"] == "draw" else 0.0


def report(header, games, anchor=None):
    """The whole report as a dict that JSON can hold (no infinities: a rating without a finite value is
    null with a note)."""
    names = [e["name"] for e in header["engines"]]
    index = {name: i for i, name in enumerate(names)}
    n = len(names)
    if anchor is not None and anchor not in index:
        raise ValueError(f"--anchor {anchor}: not one of the engines ({', '.join(names)})")
    per = [{"games": 0, "points": 0.0, "wins": 0, "draws": 0, "losses": 0, "discs": [], "moves": 0,
            "seconds": 0.0, "longest": 0.0, "forfeits": {}} for _ in names]
    cross = {}
    triples = []
    for gid in sorted(games):
        rec = games[gid]
        b, w = index[rec["black"]], index[rec["white"]]
        s = black_score(rec)
        triples.append((b, w, s))
        for me, them, mine, sign in ((b, w, s, 1), (w, b, 1 - s, -1)):
            e = per[me]
            e["games"] += 1
            e["points"] += mine
            e["wins" if mine == 1 else "draws" if mine == 0.5 else "losses"] += 1
            cell = cross.setdefault((me, them), {"games": 0, "points": 0.0, "discs": []})
            cell["games"] += 1
            cell["points"] += mine
            if rec["discs"] is not None:
                e["discs"].append(sign * rec["discs"])
                cell["discs"].append(sign * rec["discs"])
        # the moves start from the start position and list every pass, so black moves at even plies
        for ply, t in enumerate(rec["times"]):
            if t is not None:
                e = per[b if ply % 2 == 0 else w]
                e["moves"] += 1
                e["seconds"] += t
                e["longest"] = max(e["longest"], t)
        if rec["faulty"] is not None:
            culprit = per[b if rec["faulty"] == othello.BLACK else w]
            culprit["forfeits"][rec["kind"]] = culprit["forfeits"].get(rec["kind"], 0) + 1
    fit = rating.bayes(n, triples, index.get(anchor), names=names)
    rated = fit.ratings
    rows = []
    for i, name in enumerate(names):
        e = per[i]
        r = rated[i]
        finite = r.elo is not None
        rows.append({
            "name": name,
            "elo": _tenths(r.elo) if finite else None,
            "low": _tenths(r.low) if finite and r.low is not None else None,
            "high": _tenths(r.high) if finite and r.high is not None else None,
            "note": _rating_note(r),
            "games": e["games"],
            "points": e["points"],
            "score": round(e["points"] / e["games"], 4) if e["games"] else None,
            "wins": e["wins"],
            "draws": e["draws"],
            "losses": e["losses"],
            "discs": round(sum(e["discs"]) / len(e["discs"]), 2) if e["discs"] else None,
            "moves_timed": e["moves"],
            "ms_per_move": round(1000 * e["seconds"] / e["moves"], 1) if e["moves"] else None,
            "longest_ms": round(1000 * e["longest"]) if e["moves"] else None,
            "forfeits": dict(sorted(e["forfeits"].items())),
            "_sort": _sort_key(r),
        })
    order = sorted(range(n), key=lambda i: (rows[i]["_sort"], -(rows[i]["score"] or 0), i))
    for rank, i in enumerate(order, 1):
        rows[i]["rank"] = rank
        del rows[i]["_sort"]
    crosstable = {
        names[i]: {
            names[j]: {
                "games": c["games"],
                "points": c["points"],
                "discs": round(sum(c["discs"]) / len(c["discs"]), 2) if c["discs"] else None,
            }
            for (me, j), c in sorted(cross.items()) if me == i
        }
        for i in range(n)
    }
    return {
        "format": header["format"],
        "engines": names,
        "cycles": header["cycles"],
        "openings_per_cycle": header["openings_per_cycle"],
        "openings_source": header["openings_source"],
        "games_played": len(games),
        "games_planned": total_games(header),
        "method": METHOD.format(prior=fit.prior),
        "anchor": anchor if anchor is not None else "mean of the rated engines",
        "advantage": _fitted(fit.advantage, fit.advantage_sd),
        "drawelo": _fitted(fit.drawelo, fit.drawelo_sd),
        "ratings": [rows[i] for i in order],
        # P(the row engine is stronger than the column engine), over the rated engines in rank order
        "los": {names[i]: {names[j]: round(fit.los[(i, j)], 4) for j in order if (i, j) in fit.los}
                for i in order if rows[i]["elo"] is not None},
        "crosstable": crosstable,
    }


def _tenths(x):
    return round(x, 1) + 0.0  # + 0.0: no "-0.0" in the list


def _fitted(value, sd):
    """An estimate in Elo with its standard error (None: not fitted, e.g. a draw width without draws)."""
    if value is None:
        return None
    return {"elo": _tenths(value), "sd": _tenths(sd) if sd is not None else None}


def _rating_note(r):
    return r.note if r.elo is not None else "not rated: " + r.note


def _sort_key(r):
    return math.inf if r.elo is None else -r.elo


def render(rep):
    names = [row["name"] for row in rep["ratings"]]  # in rank order
    width = max(8, *(len(x) for x in names)) + 2
    cycles = f"{rep['cycles']} cycle{'s' if rep['cycles'] > 1 else ''}"
    lines = [
        f"{rep['format']} of {len(names)} engines, {cycles} of {rep['openings_per_cycle']} openings "
        f"({rep['openings_source']}), each with both colours: {rep['games_played']} of {rep['games_planned']} games",
        f"ratings: {rep['method']}; anchor: {rep['anchor']} = 0",
        _model_line(rep),
        f"{'rank':>4}  {'engine':<{width}}{'Elo':>8}  {'95% interval':<18}{'games':>6}{'score':>8}"
        f"{'+win':>6}{'=draw':>6}{'-loss':>6}{'discs':>8}",
    ]
    notes = []
    for row in rep["ratings"]:
        if row["elo"] is not None:
            elo = f"{row['elo']:+.1f}"
            ci = f"[{row['low']:+.1f}, {row['high']:+.1f}]" if row["low"] is not None else row["note"]
        else:
            elo, ci = "-", ""
            notes.append(f"  {row['name']}: {row['note']}")
        score = f"{100 * row['score']:.1f}%" if row["score"] is not None else "-"
        discs = f"{row['discs']:+.2f}" if row["discs"] is not None else "-"
        lines.append(f"{row['rank']:>4}  {row['name']:<{width}}{elo:>8}  {ci:<18}{row['games']:>6}{score:>8}"
                     f"{row['wins']:>6}{row['draws']:>6}{row['losses']:>6}{discs:>8}")
    lines.extend(notes)
    cell = 14
    lines.append("")
    lines.append("crosstable: the row engine's points/games against the column engine, and its average disc "
                 "difference")
    lines.append(" " * width + "".join(f"{x[:cell - 1]:>{cell}}" for x in names))
    for a in names:
        cells = []
        for b in names:
            c = rep["crosstable"][a].get(b)
            if a == b:
                text = "."
            elif c is None:
                text = "-"
            else:
                discs = f" {c['discs']:+.1f}" if c["discs"] is not None else ""
                text = f"{c['points']:g}/{c['games']}{discs}"
            cells.append(f"{text:>{cell}}")
        lines.append(f"{a:<{width}}" + "".join(cells))
    rated = [x for x in names if x in rep["los"]]
    if len(rated) > 1:
        lines.append("")
        lines.append("likelihood of superiority: P(the row engine is stronger than the column engine), in %")
        lines.append(" " * width + "".join(f"{x[:cell - 1]:>{cell}}" for x in rated))
        for a in rated:
            cells = ["." if a == b else f"{100 * rep['los'][a][b]:.1f}" for b in rated]
            lines.append(f"{a:<{width}}" + "".join(f"{c:>{cell}}" for c in cells))
    lines.append("")
    lines.append(f"{'time use':<{width}}{'moves':>8}{'ms/move':>10}{'longest ms':>12}  forfeits")
    for row in rep["ratings"]:
        ms = f"{row['ms_per_move']:.1f}" if row["ms_per_move"] is not None else "-"
        longest = f"{row['longest_ms']}" if row["longest_ms"] is not None else "-"
        forfeits = ", ".join(f"{kind} {k}" for kind, k in row["forfeits"].items()) or "none"
        lines.append(f"{row['name']:<{width}}{row['moves_timed']:>8}{ms:>10}{longest:>12}  {forfeits}")
    return "\n".join(lines)


def _model_line(rep):
    adv, draw = rep["advantage"], rep["drawelo"]
    if adv is None:
        return "model: nothing fitted yet (no two rated engines have met)"
    text = f"model: black's advantage {adv['elo']:+.1f} Elo (sd {adv['sd']:.1f}), "
    if draw is None or draw["sd"] is None:
        return text + "draw width 0 (no draws)"
    return text + f"draw width (drawelo) {draw['elo']:.1f} Elo (sd {draw['sd']:.1f})"


def game_list(games):
    """Each game's result in game order, for the JSON of the whole tournament (moves and times stay in
    results.jsonl)."""
    keys = ("id", "cycle", "round", "opening", "line", "black", "white", "winner", "discs", "kind", "reason",
            "transcript")
    return [{k: games[gid].get(k) for k in keys} for gid in sorted(games)]


class Leader:
    """The engine with the best score so far, for the progress line: kept up to date game by game, since
    the records arrive in order (a dict keeps the order games were added), not recounted every game."""

    def __init__(self):
        self.counted, self.points, self.played = 0, {}, {}

    def __call__(self, games):
        """(name, points, games) of the leader, or None before the first game."""
        for rec in list(games.values())[self.counted:]:
            s = black_score(rec)
            for name, mine in ((rec["black"], s), (rec["white"], 1 - s)):
                self.points[name] = self.points.get(name, 0.0) + mine
                self.played[name] = self.played.get(name, 0) + 1
        self.counted = len(games)
        if not self.points:
            return None
        name = max(self.points, key=lambda x: (self.points[x] / self.played[x], self.points[x]))
        return name, self.points[name], self.played[name]
