#!/usr/bin/env python3
"""The referee: plays engine-vs-engine Othello matches and tournaments and summarises them (Python 3
standard library only).

    referee.py match -e cmd=... proto=native depth=6 name=d6 -e cmd=... depth=4 name=d4 --count 20 --out DIR
    referee.py tournament -e ... -e ... -e ... [--gauntlet] [--cycles C] --count 10 --out DIR
    referee.py tournament --engines engines.json -e name=A -e name=B depth=6 --each movetime=100 ...
    referee.py merge DIR [DIR ...]          one summary from several shards' records (also: report DIR)

Each opening is played twice, colours swapped. The referee keeps the board (othello.py), checks every
move, runs the clocks and adjudicates; finished games go to an append-only DIR/results.jsonl (one JSON
record a line, first line the match or tournament header) and DIR/games.ggf, so an interrupted run
resumes where it stopped when the same command is run again. A tournament's plan and report (rating
list, likelihood of superiority, crosstable, time use) are in tournament.py and rating.py. See the README section "Matches
(referee)" and docs/tournaments.md.
"""

import argparse
import hashlib
import json
import os
import shlex
import sys
import threading
import time

import engines
import othello
import openings as builtin_openings
import stats
import tournament

RESULTS = "results.jsonl"
GAMES = "games.ggf"
SUMMARY = "summary.txt"
REPORT = "tournament.json"


class UsageError(Exception):
    pass


# ---------------------------------------------------------------------------------------------- set-up


class EngineSpec:
    """One engine: an entry of the engines file, then the `--each` words, then its own `-e key=value`
    words, each layer overriding the one before (init lines add up)."""

    KEYS = ("cmd", "name", "dir", "proto", "depth", "nodes", "movetime", "tc", "init")

    def __init__(self, tokens, layers=()):
        self.argv, self.name, self.cwd, self.proto = None, None, None, "native"
        self.depth = self.nodes = self.movetime = self.clock = None
        self.init = []
        for layer in (*layers, tokens):
            self._apply(layer)
        if not self.argv:
            raise UsageError("every engine needs cmd=... (or name=NAME of an entry of --engines FILE)")
        if self.name is None:
            self.name = os.path.basename(self.argv[0]) + (f"-d{self.depth}" if self.depth else "")
        if self.proto == "gtp" and (self.depth or self.nodes):
            raise UsageError(f"engine {self.name}: GTP has no depth or nodes; set the level with init='...'")
        if self.proto == "nboard" and self.nodes:
            raise UsageError(f"engine {self.name}: NBoard has no node limit; use depth=")
        if self.depth is not None and self.proto == "nboard":
            self.init.insert(0, f"set depth {self.depth}")

    def _apply(self, tokens):
        given = set()
        for tok in tokens:
            key, sep, value = tok.partition("=")
            if not sep or key not in self.KEYS:
                raise UsageError(f"engine option {tok!r}: expected one of {', '.join(k + '=' for k in self.KEYS)}")
            given.add(key)
            if key == "cmd":
                self.argv = shlex.split(value)
            elif key == "name":
                self.name = value
            elif key == "dir":
                self.cwd = value
            elif key == "proto":
                if value not in engines.PROTOCOLS:
                    raise UsageError(f"proto={value}: expected one of {', '.join(engines.PROTOCOLS)}")
                self.proto = value
            elif key == "tc":
                self.clock = parse_tc(value, f"{key}=")
            elif key in ("depth", "nodes", "movetime"):
                try:
                    number = int(value)
                except ValueError:
                    raise UsageError(f"{key}={value}: not a whole number") from None
                if number < 1:
                    raise UsageError(f"{key}={value}: must be at least 1")
                setattr(self, key, number)
            else:
                self.init.append(value)
        if {"movetime", "tc"} <= given:
            raise UsageError(f"engine {self.name or ' '.join(tokens)}: give movetime= or tc=, not both")
        # a later layer's time limit replaces an earlier one's of the other kind
        if "movetime" in given:
            self.clock = None
        if "tc" in given:
            self.movetime = None

    def identity(self):
        out = {"name": self.name, "proto": self.proto, "depth": self.depth, "nodes": self.nodes, "init": self.init}
        if self.movetime is not None:  # only when given, so that older results directories still resume
            out["movetime_ms"] = self.movetime
        if self.clock is not None:
            out["clock_ms"] = list(self.clock)
        return out


# The engines file: a JSON list of objects, close to cutechess-cli's engines.json. Each field and the
# -e word it stands for; `check` says what the value must be.
ENGINE_FIELDS = {
    "name": ("name", "a string"),
    "command": ("cmd", "a string"),
    "workingDirectory": ("dir", "a string"),
    "protocol": ("proto", "one of " + ", ".join(engines.PROTOCOLS)),
    "initStrings": ("init", "a list of strings"),
    "depth": ("depth", "a whole number >= 1"),
    "nodes": ("nodes", "a whole number >= 1"),
    "movetime": ("movetime", "a whole number of milliseconds >= 1"),
    "tc": ("tc", "a string SECONDS[+INCREMENT]"),
}


def load_engines(path):
    """{name: [-e words]} from an engines file; any fault is one UsageError naming the entry and field."""
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        raise UsageError(f"cannot read --engines {path}: {e.strerror}") from None
    try:
        entries = json.loads(text)
    except json.JSONDecodeError as e:
        raise UsageError(f"{path}: not JSON: {e.msg} at line {e.lineno} column {e.colno}") from None
    if not isinstance(entries, list):
        raise UsageError(f"{path}: expected a JSON list of engines, [{{\"name\": ..., \"command\": ...}}, ...]")
    base = os.path.dirname(os.path.abspath(path))
    out = {}
    for number, entry in enumerate(entries, 1):
        where = f"{path}: entry {number}"
        if not isinstance(entry, dict):
            raise UsageError(f"{where}: expected an object with \"name\" and \"command\"")
        if isinstance(entry.get("name"), str) and entry["name"]:
            where += f" ({entry['name']})"
        for field in ("name", "command"):
            if field not in entry:
                raise UsageError(f"{where}: field \"{field}\" missing")
        words = []
        for field, value in entry.items():
            if field not in ENGINE_FIELDS:
                raise UsageError(f"{where}: field \"{field}\" unknown; expected one of {', '.join(ENGINE_FIELDS)}")
            key, wanted = ENGINE_FIELDS[field]
            if field == "initStrings":
                ok = isinstance(value, list) and all(isinstance(x, str) for x in value)
                values = value if ok else []
            elif key in ("depth", "nodes", "movetime"):
                ok = isinstance(value, int) and not isinstance(value, bool) and value >= 1
                values = [str(value)]
            else:
                ok = isinstance(value, str) and bool(value.strip())
                ok = ok and (field != "protocol" or value in engines.PROTOCOLS)
                values = [value]
            if ok and field == "tc":
                try:
                    parse_tc(value, "")
                except UsageError:
                    ok = False
            if not ok:
                raise UsageError(f"{where}: field \"{field}\" is {json.dumps(value)}; expected {wanted}")
            if field == "workingDirectory":
                values = [os.path.join(base, value)]
            words += [f"{key}={v}" for v in values]
        if entry["name"] in out:
            raise UsageError(f"{where}: field \"name\": another entry has this name")
        out[entry["name"]] = words
    return out


def engine_specs(args):
    """The EngineSpec of every -e: `name=X` without `cmd=` takes entry X of --engines, and every engine
    takes the --each words before its own."""
    table = load_engines(args.engines) if args.engines else None
    each = [tok for group in args.each for tok in group]
    specs = []
    for tokens in args.engine:
        layers = []
        if not any(t.startswith("cmd=") for t in tokens):
            names = [t.partition("=")[2] for t in tokens if t.startswith("name=")]
            if names and table is None:
                raise UsageError(f"-e name={names[-1]} without cmd=: give --engines FILE to take it from")
            if names:
                if names[-1] not in table:
                    raise UsageError(f"-e name={names[-1]}: not in {args.engines} (it has {', '.join(table) or 'none'})")
                layers.append(table[names[-1]])
        layers.append(each)
        specs.append(EngineSpec(tokens, layers))
    return specs


def load_openings(path, count, seed, start=False):
    """(lines, source): each line a list of moves; validated so that a bad file fails before any game.
    With `start`, `count` empty openings: every game from the start position (engines with a book)."""
    if start:
        if path is not None:
            raise UsageError("give --start or --openings, not both")
        if count is None or count < 1:
            raise UsageError("--start needs --count N (the number of game pairs)")
        return [[] for _ in range(count)], "start position"
    if path:
        try:
            with open(path, encoding="utf-8") as f:
                raw = [(n + 1, line.strip()) for n, line in enumerate(f)]
        except OSError as e:
            raise UsageError(f"cannot read openings: {e}") from None
        source = path
    else:
        raw = list(enumerate(builtin_openings.DEFAULT, 1))
        source = "built-in"
    lines = []
    for number, text in raw:
        if not text or text.startswith("#"):
            continue
        try:
            moves = othello.parse_line(text)
            othello.replay(moves)
        except ValueError as e:
            raise UsageError(f"{source}:{number}: {e}") from None
        lines.append(moves)
    if seed is not None:
        import random

        random.Random(seed).shuffle(lines)
    if count is not None:
        if count > len(lines):
            raise UsageError(f"--count {count}: only {len(lines)} openings in {source}")
        lines = lines[:count]
    if not lines:
        raise UsageError(f"no openings in {source}")
    return lines, source


def varies(spec):
    """Whether the engine is told to vary its moves: an init line `set book randomness N` with N > 0
    (ebony's native and NBoard protocols; the book picks among moves within N discs of the best)."""
    for line in spec.init:
        words = line.split()
        if words[:3] == ["set", "book", "randomness"] and len(words) == 4:
            try:
                if float(words[3]) > 0:
                    return True
            except ValueError:
                pass
    return False


def check_repeats(specs, pairs, games_per_colour, allowed):
    """From the start position a pairing of two engines that do not vary plays one game per colour and
    then the same games again: refuse more than that unless told the engines vary (`allowed`)."""
    if games_per_colour <= 1 or allowed:
        return
    fixed = [(specs[i].name, specs[j].name) for i, j in pairs if not varies(specs[i]) and not varies(specs[j])]
    if fixed:
        shown = ", ".join(f"{a}-{b}" for a, b in fixed[:4]) + (f" and {len(fixed) - 4} more" if len(fixed) > 4 else "")
        raise UsageError(f"--start with {games_per_colour} games a colour: {shown} would play the same game again "
                         "and again (neither engine has init='set book randomness N'); give openings instead, "
                         "--count 1, randomness, or --repeats if the engines vary by themselves")


def transcript(moves):
    return "".join(othello.square_name(m) for m in moves if m is not othello.PASS)


def parse_tc(text, option="--tc "):
    """`60+0.5` or `60` (seconds) -> (base ms, increment ms)."""
    base, _, inc = text.partition("+")
    try:
        b, i = float(base), float(inc or 0)
    except ValueError:
        raise UsageError(f"{option}{text}: expected SECONDS[+INCREMENT]") from None
    if b <= 0 or i < 0:
        raise UsageError(f"{option}{text}: base must be > 0, increment >= 0")
    return b * 1000, i * 1000


def parse_shard(text):
    k, sep, n = text.partition("/")
    try:
        k, n = int(k), int(n)
    except ValueError:
        raise UsageError(f"--shard {text}: expected K/N") from None
    if not sep or not 1 <= k <= n:
        raise UsageError(f"--shard {text}: need 1 <= K <= N")
    return k, n


# ---------------------------------------------------------------------------------------------- one game


class Settings:
    def __init__(self, movetime_ms=None, clock=None, margin_ms=200, timeout_s=60.0, start_timeout_s=10.0):
        self.movetime_ms, self.clock, self.margin_ms = movetime_ms, clock, margin_ms
        self.timeout_s, self.start_timeout_s = timeout_s, start_timeout_s

    def identity(self):
        return {"movetime_ms": self.movetime_ms, "clock_ms": None if self.clock is None else list(self.clock)}

    def limits(self, spec):
        """(movetime ms, clock) for one engine: its own movetime= or tc= if given, else --movetime/--tc."""
        if spec.clock is not None:
            return None, spec.clock
        if spec.movetime is not None:
            return spec.movetime, None
        return self.movetime_ms, self.clock


class GameResult(Exception):
    """Raised to end a game early: `loser` colour, `kind`, `detail`."""

    def __init__(self, loser, kind, detail):
        super().__init__(detail)
        self.loser, self.kind, self.detail = loser, kind, detail


def play_game(players, opening, settings, stop):
    """Play one game. `players` maps colour -> started Engine. Returns a dict (moves, discs, winner,
    reason, faulty colour or None). Returns None if `stop` was set during the game (interrupted)."""
    moves, times = list(opening), [None] * len(opening)
    pos = othello.replay(opening)
    limits = {c: settings.limits(eng.spec) for c, eng in players.items()}
    clocks = {c: clock[0] for c, (_, clock) in limits.items() if clock}

    def blame(colour, call):
        try:
            return call()
        except engines.Forfeit as f:
            raise GameResult(colour, f.kind, f.detail) from None

    try:
        for colour, eng in players.items():
            blame(colour, lambda: eng.new_game(opening, time.monotonic() + settings.start_timeout_s))
        while not pos.is_over():
            if stop.is_set():
                return None
            side = pos.side
            if pos.must_pass():
                move, spent = othello.PASS, None
            else:
                eng = players[side]
                movetime, clock = limits[side]
                limit = engines.Limit(eng.spec.depth, eng.spec.nodes, movetime)
                if clock:
                    limit.clock_ms, limit.inc_ms = clocks[side], clock[1]
                t0 = time.monotonic()
                if clock:
                    budget = clocks[side] / 1000
                elif movetime is not None and eng.spec.depth is None and eng.spec.nodes is None:
                    budget = movetime / 1000
                else:
                    budget = settings.timeout_s - settings.margin_ms / 1000
                text = blame(side, lambda: eng.think(pos, limit, t0 + budget + settings.margin_ms / 1000))
                spent = time.monotonic() - t0
                if spent > budget + settings.margin_ms / 1000:
                    raise GameResult(side, "time", f"answered after {spent:.3f}s, allowed {budget:.3f}s")
                if clock:
                    clocks[side] = max(0.0, clocks[side] - spent * 1000) + clock[1]
                try:
                    move = othello.parse_square(text)
                except ValueError:
                    raise GameResult(side, "garbage", f"move {text[:40]!r} is not a square") from None
            try:
                after = pos.play(move)
            except othello.IllegalMove as e:
                raise GameResult(side, "illegal", f"move {len(moves) + 1}: {e}") from None
            for colour, eng in players.items():
                # by_self: the engine chose this move itself (a forced pass was chosen by nobody)
                blame(colour, lambda: eng.on_move(move, side, colour == side and spent is not None))
            moves.append(move)
            times.append(spent)
            pos = after
    except GameResult as r:
        if stop.is_set():
            return None
        winner = othello.WHITE if r.loser == othello.BLACK else othello.BLACK
        return {"moves": moves, "times": times, "discs": None, "winner": winner,
                "reason": f"{r.kind}: {r.detail}", "faulty": r.loser, "kind": r.kind}
    diff = pos.disc_diff()
    winner = othello.BLACK if diff > 0 else othello.WHITE if diff < 0 else "draw"
    return {"moves": moves, "times": times, "discs": diff, "winner": winner, "reason": "finished",
            "faulty": None, "kind": "finished"}


def ggf(record):
    """One game as a GGF line (NBoard and GGS read it): opening moves without times, then move/eval/time."""
    start = "-" * 27 + "O*------*O" + "-" * 27
    pos = othello.Position.start()
    body = []
    for i, text in enumerate(record["moves"]):
        mv = othello.parse_square(text)
        if mv is not othello.PASS and pos.must_pass():
            body.append(f"{'B' if pos.side == othello.BLACK else 'W'}[PA]")
            pos = pos.play(othello.PASS)
        t = record["times"][i]
        suffix = "" if t is None else f"//{t:.2f}"
        body.append(f"{'B' if pos.side == othello.BLACK else 'W'}[{text.upper() if mv is not None else 'PA'}{suffix}]")
        pos = pos.play(mv)
    if record["discs"] is not None:
        result = f"{record['discs']:+d}.000" if record["discs"] else "0.000"
    else:
        result = ("+64.000" if record["winner"] == othello.BLACK else "-64.000") + (
            ":t" if record["kind"] == "time" else ":r"
        )
    date = time.strftime("%Y.%m.%d_%H:%M:%S", time.gmtime(record.get("end", time.time())))
    return (
        f"(;GM[Othello]PC[ebony-referee]DT[{date}]PB[{record['black']}]PW[{record['white']}]"
        f"RE[{result}]TY[8]BO[8 {start} *]{''.join(body)};)"
    )


# ---------------------------------------------------------------------------------------------- records


def read_records(path):
    """(header, {game id: record}) from a results file; a torn last line (killed mid-write) is ignored."""
    header, games = None, {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            try:
                rec = json.loads(line)
            except json.JSONDecodeError:
                continue
            if rec.get("type") in ("match", "tournament"):
                header = header or rec
            elif rec.get("type") == "game":
                games[rec["id"]] = rec
    return header, games


def _cut_torn_tail(path):
    """Drop a last line without its newline (the referee was killed while writing it) before appending."""
    with open(path, "rb+") as f:
        data = f.read()
        if data and not data.endswith(b"\n"):
            f.truncate(data.rfind(b"\n") + 1)


def as_json(value):
    """`value` as results.jsonl gives it back (tuples become lists, keys strings), so that a header compared
    with the one read from disk is compared with what was written, not with the Python it came from."""
    return json.loads(json.dumps(value))


def same_match(a, b):
    """The same match or tournament: everything in the headers but the shard and where the openings were
    read from (the same file may sit in another place on another host)."""
    keys = (set(a) | set(b)) - {"shard", "openings_source"}
    return all(a.get(k) == b.get(k) for k in keys)


def a_score(rec):
    """Score of engine A (the first -e) in one game record."""
    if rec["winner"] == "draw":
        return 0.5
    a_colour = othello.BLACK if rec["a_black"] else othello.WHITE
    return 1.0 if rec["winner"] == a_colour else 0.0


def pair_scores(games):
    """Mean score of A over each opening whose two games are both finished."""
    out = []
    for gid, rec in games.items():
        if gid % 2 == 0 and gid + 1 in games:
            out.append((a_score(rec) + a_score(games[gid + 1])) / 2)
    return out


def summarise(header, games, sprt=None):
    names = [e["name"] for e in header["engines"]]
    a, b = names
    lines = [f"{a} vs {b}: {len(games)} games of {2 * header['openings_count']} (openings: {header['openings_source']})"]
    rows = {"black": [0, 0, 0], "white": [0, 0, 0]}
    discs = []
    forfeits = []
    for gid in sorted(games):
        rec = games[gid]
        s = a_score(rec)
        row = rows["black" if rec["a_black"] else "white"]
        row[0 if s == 1 else 1 if s == 0.5 else 2] += 1
        if rec["discs"] is not None:
            discs.append(rec["discs"] if rec["a_black"] else -rec["discs"])
        else:
            culprit = rec["black"] if rec["faulty"] == othello.BLACK else rec["white"]
            forfeits.append(f"  game {gid} (opening {rec['opening'] + 1}): {culprit} lost by {rec['reason']}")
    lines.append(f"{'':24}{'wins':>6}{'draws':>7}{'losses':>8}{'score':>9}")
    total = [0, 0, 0]
    for side, row in rows.items():
        n = sum(row)
        total = [x + y for x, y in zip(total, row)]
        pct = f"{100 * (row[0] + row[1] / 2) / n:.1f}%" if n else "-"
        lines.append(f"{a + ' as ' + side:24}{row[0]:>6}{row[1]:>7}{row[2]:>8}{pct:>9}")
    n = sum(total)
    pct = f"{100 * (total[0] + total[1] / 2) / n:.1f}%" if n else "-"
    lines.append(f"{a + ' total':24}{total[0]:>6}{total[1]:>7}{total[2]:>8}{pct:>9}")
    if discs:
        avg = sum(discs) / len(discs)
        lines.append(f"average disc difference for {a}: {avg:+.2f} over {len(discs)} finished games")
    scores = [a_score(games[g]) for g in games]
    interval = stats.elo_interval(scores)
    if interval:
        elo, low, high = interval
        lines.append(
            f"Elo difference ({a} - {b}): {_fmt_elo(elo)}  95% interval [{_fmt_elo(low)}, {_fmt_elo(high)}]"
            f"  LOS {100 * stats.los(total[0], total[2]):.1f}%"
        )
    pairs = pair_scores(games)
    if pairs:
        penta = [sum(1 for p in pairs if p == v) for v in (0, 0.25, 0.5, 0.75, 1)]
        lines.append(f"opening pairs {len(pairs)}, pentanomial (0, 0.5, 1, 1.5, 2 points): {penta}")
    if sprt:
        llr, verdict = sprt.decision(pairs)
        lines.append(
            f"SPRT elo0={sprt.elo0:g} elo1={sprt.elo1:g} alpha={sprt.alpha:g} beta={sprt.beta:g}: LLR {llr:.2f} "
            f"bounds [{sprt.lower:.2f}, {sprt.upper:.2f}] -> "
            + {"H1": "H1 accepted (A is stronger)", "H0": "H0 accepted", None: "undecided"}[verdict]
        )
    if forfeits:
        lines.append(f"forfeits ({len(forfeits)}):")
        lines.extend(forfeits)
    return "\n".join(lines)


def _fmt_elo(x):
    return "+inf" if x == float("inf") else "-inf" if x == -float("inf") else f"{x:+.1f}"


# ---------------------------------------------------------------------------------------------- the match


class Planned:
    """One game to play: its id, the opening's index, the engines (indices into the specs) with black and
    white, and fields its record carries besides the common ones."""

    def __init__(self, gid, opening, black, white, extra):
        self.gid, self.opening, self.black, self.white, self.extra = gid, opening, black, white, extra


def match_plan(specs, lines, source, settings, shard):
    """Header and games of a two-engine match: opening i is games 2i (A black) and 2i+1 (B black)."""
    k, n = shard
    header = {
        "type": "match",
        "version": 1,
        "engines": [s.identity() for s in specs],
        "openings_source": source,
        "openings_sha1": openings_digest(lines),
        "openings_count": len(lines),
        "tc": settings.identity(),
        "shard": list(shard),
    }
    plan = [Planned(g, g // 2, g % 2, 1 - g % 2, {"a_black": g % 2 == 0})
            for g in range(2 * len(lines)) if (g // 2) % n == k - 1]
    return header, plan


def openings_digest(lines):
    return hashlib.sha1("\n".join(transcript(m) for m in lines).encode()).hexdigest()


class Match:
    """Plays the planned games of a match or a tournament, `jobs` at a time, each worker keeping one
    process per engine it has used (a new one after a fault, or every game with `fresh`), and appends
    every finished game to DIR/results.jsonl and DIR/games.ggf as it ends."""

    def __init__(self, specs, lines, settings, out, jobs, header, plan, sprt=None, log=False, fresh=False,
                 progress=None):
        self.specs, self.lines, self.settings, self.out = specs, lines, settings, out
        self.jobs, self.sprt, self.log, self.fresh = jobs, sprt, log, fresh
        self.progress = progress or (lambda match: None)
        self.header = as_json(header)
        self.plan = {p.gid: p for p in plan}
        self.todo = [p.gid for p in plan]
        self.lock = threading.Lock()
        self.stop = threading.Event()
        self.sprt_done = False
        self.live = set()  # engines running now, closed on interrupt
        self.done_here = 0
        self.started = time.monotonic()

    def prepare(self):
        os.makedirs(self.out, exist_ok=True)
        path = os.path.join(self.out, RESULTS)
        self.games = {}
        if os.path.exists(path):
            _cut_torn_tail(path)
            header, games = read_records(path)
            if header is None or not same_match(header, self.header) or header.get("shard") != self.header["shard"]:
                raise UsageError(f"{path} holds a different {header and header.get('type') or 'match'}; "
                                 "choose another --out")
            self.games = games
        else:
            with open(path, "w", encoding="utf-8") as f:
                f.write(json.dumps(self.header) + "\n")
        self.queue = [g for g in self.todo if g not in self.games]
        if self.games:
            print(f"resuming: {len(self.games)} games already played, {len(self.queue)} to go", file=sys.stderr)

    def record(self, game, result):
        rec = {
            "type": "game",
            "id": game.gid,
            "opening": game.opening,
            **game.extra,
            "black": self.specs[game.black].name,
            "white": self.specs[game.white].name,
            "line": transcript(self.lines[game.opening]),
            "moves": [othello.square_name(m) for m in result["moves"]],
            "transcript": transcript(result["moves"]),
            "times": [None if t is None else round(t, 3) for t in result["times"]],
            "discs": result["discs"],
            "winner": result["winner"],
            "reason": result["reason"],
            "kind": result["kind"],
            "faulty": result["faulty"],
            "end": time.time(),
        }
        with self.lock:
            for name, text in ((RESULTS, json.dumps(rec)), (GAMES, ggf(rec))):
                with open(os.path.join(self.out, name), "a", encoding="utf-8") as f:
                    f.write(text + "\n")
                    f.flush()
                    os.fsync(f.fileno())
            self.games[game.gid] = rec
            self.done_here += 1
            if self.sprt and self.sprt.decision(pair_scores(self.games))[1]:
                self.sprt_done = True
                self.stop.set()
            self.progress(self)

    def next_game(self):
        with self.lock:
            if self.stop.is_set() or not self.queue:
                return None
            return self.queue.pop(0)

    def worker(self, index):
        log = open(os.path.join(self.out, f"worker-{index}.log"), "a", encoding="utf-8") if self.log else None
        procs = {}  # engine index -> its process in this worker
        try:
            while True:
                gid = self.next_game()
                if gid is None:
                    return
                game = self.plan[gid]
                seats = {othello.BLACK: game.black, othello.WHITE: game.white}
                started, faults = {}, {}
                for colour, i in seats.items():
                    spec = self.specs[i]
                    if self.fresh and procs.get(i):
                        procs.pop(i).close()
                    if procs.get(i) is None or not procs[i].alive():
                        eng = engines.PROTOCOLS[spec.proto](spec, log, self.settings.start_timeout_s)
                        try:
                            # Registered and checked under the lock that close_all takes its list
                            # under: an engine is either in that list or never started, and one
                            # that close_all met before its start is closed here once started.
                            with self.lock:
                                if self.stop.is_set():
                                    return
                                self.live.add(eng)
                            eng.start()
                            procs[i] = eng
                            if self.stop.is_set():
                                return
                        except engines.Forfeit as f:
                            eng.close()
                            procs.pop(i, None)
                            faults[colour] = f
                    started[colour] = procs.get(i)
                opening = self.lines[game.opening]
                if faults:
                    loser, f = next(iter(faults.items()))
                    result = {"moves": list(opening), "discs": None, "times": [None] * len(opening),
                              "winner": othello.WHITE if loser == othello.BLACK else othello.BLACK,
                              "reason": f"{f.kind}: start: {f.detail}", "faulty": loser, "kind": f.kind}
                else:
                    result = play_game(started, opening, self.settings, self.stop)
                if result is None:
                    return
                if result["faulty"] is not None:  # the engine at fault gets a fresh process next game
                    eng = procs.pop(seats[result["faulty"]], None)
                    if eng:
                        eng.close()
                self.record(game, result)
        finally:
            for p in procs.values():
                p.close()
            if log:
                log.close()

    def close_all(self):
        with self.lock:
            live = list(self.live)
        for eng in live:
            try:
                eng.close()
            except Exception:  # noqa: BLE001 - best effort while shutting down
                pass

    def run(self):
        threads = [threading.Thread(target=self.worker, args=(i,), daemon=True) for i in range(self.jobs)]
        for t in threads:
            t.start()
        try:
            for t in threads:
                while t.is_alive():
                    t.join(0.2)
        except KeyboardInterrupt:
            self.stop.set()
            print("\ninterrupted: finished games are saved; run the same command again to resume", file=sys.stderr)
            self.close_all()
            for t in threads:
                t.join(5)
            return 130
        return 0


def print_progress(match):
    scores = [a_score(match.games[g]) for g in match.games]
    w = scores.count(1.0)
    d = scores.count(0.5)
    l_ = scores.count(0.0)
    pct = 100 * sum(scores) / len(scores) if scores else 0
    _show_progress(match, f"{match.specs[0].name} +{w} ={d} -{l_}  score {pct:.1f}%")


def tournament_progress():
    leader = tournament.Leader()

    def show(match):
        best = leader(match.games)
        _show_progress(match, f"leader {best[0]} {best[1]:g}/{best[2]}" if best else "")

    return show


def _show_progress(match, middle):
    done = len([g for g in match.todo if g in match.games])
    total = len(match.todo)
    elapsed = time.monotonic() - match.started
    left = total - done
    eta = elapsed / match.done_here * left if match.done_here else 0
    text = f"games {done}/{total}  {middle}  ETA {_fmt_time(eta)}"
    if sys.stderr.isatty():
        print("\r" + text + " " * 8, end="", file=sys.stderr, flush=True)
    else:
        print(text, file=sys.stderr, flush=True)


def _fmt_time(s):
    s = int(s)
    return f"{s // 3600}h{s // 60 % 60:02d}m" if s >= 3600 else f"{s // 60}m{s % 60:02d}s"


# ---------------------------------------------------------------------------------------------- commands


def parse_sprt(text):
    values = {"elo0": 0.0, "elo1": 5.0, "alpha": 0.05, "beta": 0.05}
    for tok in text.replace(",", " ").split():
        key, sep, value = tok.partition("=")
        if not sep or key not in values:
            raise UsageError(f"--sprt {tok!r}: expected elo0= elo1= alpha= beta=")
        try:
            values[key] = float(value)
        except ValueError:
            raise UsageError(f"--sprt {tok!r}: not a number") from None
    try:
        return stats.Sprt(**values)
    except ValueError as e:
        raise UsageError(f"--sprt: {e}") from None


def play_setup(args, specs):
    """Settings and openings shared by matches and tournaments, after checking every engine has a limit."""
    clock = parse_tc(args.tc) if args.tc else None
    if clock and args.movetime:
        raise UsageError("give --tc or --movetime, not both")
    for s in specs:
        limited = s.depth or s.nodes or s.movetime or s.clock or clock or args.movetime
        if s.proto == "native" and not limited:
            raise UsageError(f"engine {s.name}: native engines need depth=, nodes=, movetime=, tc=, --movetime "
                             "or --tc")
    return Settings(args.movetime, clock, args.margin, args.timeout)


def finish(match, code):
    if sys.stderr.isatty():
        print(file=sys.stderr)
    write_ggf(match.out, match.games)
    return code


def write_ggf(out, games):
    """DIR/games.ggf rewritten from the records in game order: one file of every game, whatever order they
    ended in and however often the run was interrupted."""
    with open(os.path.join(out, GAMES), "w", encoding="utf-8") as f:
        for gid in sorted(games):
            f.write(ggf(games[gid]) + "\n")


def cmd_match(args):
    if len(args.engine) != 2:
        raise UsageError("give exactly two engines: -e cmd=... -e cmd=...")
    specs = engine_specs(args)
    if specs[0].name == specs[1].name:
        specs[0].name += "-A"
        specs[1].name += "-B"
    settings = play_setup(args, specs)
    lines, source = load_openings(args.openings, args.count, args.seed, args.start)
    if args.start:
        check_repeats(specs, [(0, 1)], len(lines), args.repeats)
    sprt = parse_sprt(args.sprt) if args.sprt is not None else None
    header, plan = match_plan(specs, lines, source, settings, parse_shard(args.shard))
    match = Match(specs, lines, settings, args.out, args.jobs, header, plan, sprt, args.log, args.fresh,
                  print_progress)
    match.prepare()
    code = finish(match, match.run())
    text = summarise(match.header, match.games, sprt)
    if match.sprt_done:
        text += "\nstopped early: the SPRT reached a decision"
    with open(os.path.join(args.out, SUMMARY), "w", encoding="utf-8") as f:
        f.write(text + "\n")
    print(text)
    return code


def cmd_tournament(args):
    if len(args.engine) < 2:
        raise UsageError("give at least two engines: -e cmd=... -e cmd=... ...")
    specs = engine_specs(args)
    names = [s.name for s in specs]
    twice = sorted({x for x in names if names.count(x) > 1})
    if twice:
        raise UsageError(f"engine names must differ (give name=...): {', '.join(twice)}")
    if args.anchor is not None and args.anchor not in names:
        raise UsageError(f"--anchor {args.anchor}: not one of the engines ({', '.join(names)})")
    if args.cycles < 1:
        raise UsageError("--cycles must be at least 1")
    settings = play_setup(args, specs)
    count = args.count
    if count is None and (args.start or args.cycles > 1):
        raise UsageError("--start and --cycles need --count N (openings a cycle, each played with both colours)")
    if count is not None and count < 1:
        raise UsageError("--count must be at least 1")
    wanted = None if count is None else count * args.cycles
    try:
        lines, source = load_openings(args.openings, wanted, args.seed, args.start)
    except UsageError as e:
        if wanted is not None and wanted != count:
            raise UsageError(f"{e} (--count {count} openings a cycle times --cycles {args.cycles})") from None
        raise
    per_cycle = len(lines) // args.cycles
    pairs = tournament.pairings(len(specs), "gauntlet" if args.gauntlet else "round-robin")
    if args.start:
        check_repeats(specs, pairs, len(lines), args.repeats)
    shard = parse_shard(args.shard)
    header = {
        "type": "tournament",
        "version": 1,
        "format": "gauntlet" if args.gauntlet else "round-robin",
        "engines": [s.identity() for s in specs],
        "pairs": [list(p) for p in pairs],
        "cycles": args.cycles,
        "openings_per_cycle": per_cycle,
        "openings_source": source,
        "openings_sha1": openings_digest(lines),
        "openings_count": len(lines),
        "tc": settings.identity(),
        "shard": list(shard),
    }
    plan = [Planned(*game) for game in tournament.plan(pairs, per_cycle, args.cycles, shard)]
    match = Match(specs, lines, settings, args.out, args.jobs, header, plan, log=args.log, fresh=args.fresh,
                  progress=tournament_progress())
    match.prepare()
    code = finish(match, match.run())
    print(tournament_summary(match.header, match.games, args.anchor, args.out))
    return code


def tournament_summary(header, games, anchor, out):
    """The report as text; also written to OUT/summary.txt and, with the header and every game's result,
    to OUT/tournament.json."""
    try:
        rep = tournament.report(header, games, anchor)
    except ValueError as e:
        raise UsageError(str(e)) from None
    text = tournament.render(rep)
    if out:
        with open(os.path.join(out, SUMMARY), "w", encoding="utf-8") as f:
            f.write(text + "\n")
        with open(os.path.join(out, REPORT), "w", encoding="utf-8") as f:
            json.dump({"header": header, "report": rep, "games": tournament.game_list(games)}, f, indent=1)
            f.write("\n")
    return text


def planned_ids(header, shard):
    """The game ids that shard K/N of this match or tournament plays."""
    if header["type"] == "tournament":
        pairs = [tuple(p) for p in header["pairs"]]
        return {g[0] for g in tournament.plan(pairs, header["openings_per_cycle"], header["cycles"], shard)}
    k, n = shard
    return {g for g in range(2 * header["openings_count"]) if (g // 2) % n == k - 1}


def check_complete(header, parts):
    """UsageError unless the shards `parts` ([(place, shard, games)]) hold every game of the whole."""
    faults, seen, sizes = [], set(), {n for _, (_, n), _ in parts}
    for place, shard, games in parts:
        want = planned_ids(header, shard)
        seen.add(tuple(shard))
        if not want <= set(games):
            faults.append(f"shard {shard[0]}/{shard[1]} ({place}) has {len(want & set(games))} of {len(want)} games")
    if len(sizes) == 1:
        n = sizes.pop()
        faults += [f"shard {k}/{n} not given" for k in range(1, n + 1) if (k, n) not in seen]
    else:
        every = set().union(*(set(g) for _, _, g in parts))
        missing = planned_ids(header, (1, 1)) - every
        if missing:
            faults.append(f"{len(missing)} games in no shard given")
    if faults:
        raise UsageError("incomplete: " + "; ".join(faults) + "; run those shards' commands again (they play "
                         "only their missing games), then merge")


def cmd_merge(args):
    header, merged, parts = None, {}, []
    for place in args.records:
        path = os.path.join(place, RESULTS) if os.path.isdir(place) else place
        try:
            h, games = read_records(path)
        except FileNotFoundError:
            raise UsageError(f"{place}: no {RESULTS} (no game played there yet)") from None
        except OSError as e:
            raise UsageError(f"cannot read {path}: {e.strerror}") from None
        if h is None:
            raise UsageError(f"{path}: no match or tournament header")
        if header is None:
            header = h
        elif not same_match(header, h):
            raise UsageError(f"{path}: a different {h['type']} (engines, openings or time control differ)")
        merged.update(games)
        parts.append((place, tuple(h.get("shard", [1, 1])), games))
    if args.complete:
        check_complete(header, parts)
    header = dict(header, shard=[1, 1])
    if args.out:
        os.makedirs(args.out, exist_ok=True)
        with open(os.path.join(args.out, RESULTS), "w", encoding="utf-8") as f:
            f.write(json.dumps(header) + "\n")
            for gid in sorted(merged):
                f.write(json.dumps(merged[gid]) + "\n")
        write_ggf(args.out, merged)
    if header["type"] == "tournament":
        if args.sprt is not None:
            raise UsageError("--sprt is for matches")
        print(tournament_summary(header, merged, args.anchor, args.out))
        return 0
    if args.anchor is not None:
        raise UsageError("--anchor is for tournaments")
    print(summarise(header, merged, parse_sprt(args.sprt) if args.sprt is not None else None))
    return 0


def add_play_options(p, engines_help):
    """The options a match and a tournament share."""
    p.add_argument("-e", "--engine", nargs="+", action="append", default=[], metavar="KEY=VALUE",
                   help="engine: cmd='PROGRAM ARGS' [name=N] [dir=WORKDIR] [proto=native|gtp|nboard] [depth=D] "
                   "[nodes=N] [movetime=MS] [tc=S[+INC]] [init='LINE']...; " + engines_help)
    p.add_argument("--engines", metavar="FILE", help="engines file (JSON list of {name, command, "
                   "workingDirectory, protocol, initStrings, depth, nodes, movetime, tc}); -e name=NAME [KEY=VALUE...] "
                   "takes an entry, its words overriding the file's")
    p.add_argument("--each", nargs="+", action="append", default=[], metavar="KEY=VALUE",
                   help="words every engine takes before its own -e words, e.g. --each depth=4 init='set book off'")
    p.add_argument("--openings", metavar="FILE", help="XOT-style file, one f5d6c3... line each (default built-in)")
    p.add_argument("--start", action="store_true",
                   help="no openings: --count N pairs of games from the start position (engines with a book "
                        "should vary their moves, e.g. init='set book randomness 2')")
    p.add_argument("--repeats", action="store_true", help="with --start, play more than one game a colour "
                   "between engines without init='set book randomness N' (they vary by themselves)")
    p.add_argument("--seed", type=int, help="shuffle the openings with this seed before --count")
    p.add_argument("--movetime", type=int, metavar="MS", help="time per move (native `go time MS`)")
    p.add_argument("--tc", metavar="S[+INC]", help="game clock in seconds with optional increment, e.g. 60+0.5")
    p.add_argument("--margin", type=int, default=200, metavar="MS", help="grace before a time forfeit (200)")
    p.add_argument("--timeout", type=float, default=60.0, metavar="S",
                   help="longest wait for a move without a time control, e.g. depth-limited (60)")
    p.add_argument("-j", "--jobs", type=int, default=1, help="games played in parallel (1)")
    p.add_argument("--shard", default="1/1", metavar="K/N", help="play only the openings (pairs of games) "
                   "numbered i with i %% N == K-1; `merge` puts the shards together")
    p.add_argument("--out", default="referee-out", metavar="DIR", help="results directory (referee-out)")
    p.add_argument("--log", action="store_true", help="log every protocol line to DIR/worker-N.log")
    p.add_argument("--fresh", action="store_true", help="start new engine processes for every game")


def build_parser():
    p = argparse.ArgumentParser(prog="referee.py", description="Engine-vs-engine Othello matches and tournaments.")
    sub = p.add_subparsers(dest="command", required=True)
    m = sub.add_parser("match", help="play a match (resumes if --out already holds part of it)")
    add_play_options(m, "give it twice, first is A")
    m.add_argument("--count", type=int, help="use only the first N openings (after --seed shuffling)")
    m.add_argument("--sprt", metavar="PARAMS", nargs="?", const="",
                   help="stop when decided: 'elo0=0 elo1=5 alpha=0.05 beta=0.05' (these are the defaults)")
    m.set_defaults(func=cmd_match)
    t = sub.add_parser("tournament", help="a round-robin or gauntlet of N engines (resumes as a match does)")
    add_play_options(t, "once per engine; each may set its own limit")
    t.add_argument("--count", type=int, help="openings a cycle (after --seed shuffling; default all with one "
                   "cycle); every pairing plays each with both colours")
    t.add_argument("--cycles", type=int, default=1, help="play the whole tournament this many times, each cycle "
                   "on the next --count openings (1)")
    t.add_argument("--gauntlet", action="store_true", help="the first engine against each of the others, "
                   "instead of every pair")
    t.add_argument("--anchor", metavar="NAME", help="rate this engine 0 (default: the mean of the engines is 0)")
    t.set_defaults(func=cmd_tournament)
    g = sub.add_parser("merge", aliases=["report"],
                       help="the summary of results directories: a running or interrupted match or tournament, "
                       "or its shards put together")
    g.add_argument("records", nargs="+", metavar="DIR|FILE")
    g.add_argument("--out", metavar="DIR", help="also write the merged results.jsonl and games.ggf here (and, for "
                   "a tournament, summary.txt and tournament.json)")
    g.add_argument("--complete", action="store_true", help="refuse, naming them, shards that are missing or "
                   "have games still to play (a job that died)")
    g.add_argument("--sprt", metavar="PARAMS", nargs="?", const="")
    g.add_argument("--anchor", metavar="NAME", help="a tournament's rating anchor (default: the mean)")
    g.set_defaults(func=cmd_merge)
    return p


def main(argv=None):
    args = build_parser().parse_args(argv)
    if getattr(args, "jobs", 1) < 1:
        print("error: --jobs must be at least 1", file=sys.stderr)
        return 2
    try:
        return args.func(args)
    except UsageError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    try:
        sys.exit(main())
    except BrokenPipeError:
        # the reader of the report went away (`report DIR | head`): nothing left to say, and no traceback
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(141)
