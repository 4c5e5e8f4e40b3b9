#!/usr/bin/env python3
"""Self-play game files kept outside the repository, and the commands that make them again.

A fresh clone's .git stays under 200 MB, so game files past what that holds live in data/external/
(ignored by git), each recorded by a line of data/external-games.txt:

    NAME GAMES BYTES SHA256 COMMIT WEIGHT CPU GEN-ARGUMENTS...

The first GAMES games of `ebony-train gen --out data/external/NAME --games GAMES GEN-ARGUMENTS`,
played by the trainer of commit COMMIT with that commit's src/eval/weights.ebev, are the first BYTES
bytes of the file, whose sha256 is SHA256. The generator is deterministic by seed, so the same build
and weights play the same games again. A run may go on past its line; the games it adds count once
a new line records them. WEIGHT is the file's weight in a fit (FILE@WEIGHT), CPU the seconds of CPU
a game took on the machine that made it. Lines starting with # are comments.

Usage:
  scripts/external-games.py list             each file's state: made (its recorded bytes match),
                                             partial, missing or differs; the CPU time to make the rest
  scripts/external-games.py check            the same, with exit status 1 unless every file is made
  scripts/external-games.py make [--jobs N] [--dry-run] [NAME...]
                                             makes the missing and partial files (all, or those named):
                                             builds each commit's trainer in a worktree
                                             (target/external/COMMIT), then runs the files' commands,
                                             N at a time, and checks what they wrote
  scripts/external-games.py files            the made files as a fit takes them (PATH@WEIGHT ...); a
                                             file longer than its record is named on stderr: record it
                                             before a fit reads it, or the fit cannot be made again
  scripts/external-games.py record NAME [COMMIT WEIGHT CPU GEN-ARGUMENTS...]
                                             records a stopped run's file as it is now (its games by
                                             target/release/ebony-train count, its bytes and sha256):
                                             updates NAME's line, or adds one with the fields given
  --root DIR (before the command) works on another checkout than this script's."""
import hashlib
import os
import shlex
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

MANIFEST = os.path.join("data", "external-games.txt")
FOLDER = os.path.join("data", "external")
CHUNK = 1 << 20


class Entry:
    def __init__(self, line, number):
        fields = line.split()
        if len(fields) < 8:
            raise ValueError(f"{MANIFEST} line {number}: expected NAME GAMES BYTES SHA256 COMMIT WEIGHT CPU GEN-ARGUMENTS")
        self.name, games, size, self.sha256, self.commit, weight, cpu = fields[:7]
        self.args = fields[7:]
        if os.path.basename(self.name) != self.name:
            raise ValueError(f"{MANIFEST} line {number}: {self.name} is not a plain file name")
        try:
            self.games, self.bytes, self.cpu = int(games), int(size), float(cpu)
            self.weight = float(weight)
        except ValueError:
            raise ValueError(f"{MANIFEST} line {number}: GAMES and BYTES are whole numbers, WEIGHT and CPU numbers")
        if "--out" in self.args or "--games" in self.args or "--eval" in self.args:
            raise ValueError(f"{MANIFEST} line {number}: --out, --games and --eval come from the line itself")

    def path(self, root):
        return os.path.join(root, FOLDER, self.name)


def read_manifest(root):
    path = os.path.join(root, MANIFEST)
    entries = []
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            if line.strip() and not line.lstrip().startswith("#"):
                entries.append(Entry(line, number))
    names = [e.name for e in entries]
    if len(set(names)) != len(names):
        raise ValueError(f"{MANIFEST}: a file is recorded twice")
    return entries


def sha256_prefix(path, size):
    digest, left = hashlib.sha256(), size
    with open(path, "rb") as f:
        while left:
            chunk = f.read(min(CHUNK, left))
            if not chunk:
                break
            digest.update(chunk)
            left -= len(chunk)
    return digest.hexdigest()


def state(entry, root):
    """'made', 'partial', 'missing' or 'differs': whether the file's first BYTES bytes are the record's."""
    path = entry.path(root)
    if not os.path.exists(path):
        return "missing"
    if os.path.getsize(path) < entry.bytes:
        return "partial"
    return "made" if sha256_prefix(path, entry.bytes) == entry.sha256 else "differs"


def list_files(root, strict):
    entries = read_manifest(root)
    states = [(e, state(e, root)) for e in entries]
    for e, s in states:
        print(f"{e.name}: {s}, {e.games} games, {e.bytes} bytes, commit {e.commit}, "
              f"{e.games * e.cpu / 3600:.1f} CPU-hours")
    todo = sum(e.games * e.cpu for e, s in states if s != "made") / 3600
    made = sum(s == "made" for _, s in states)
    print(f"{made} of {len(states)} files made; the rest take about {todo:.1f} CPU-hours")
    return 0 if not strict or made == len(states) else 1


def worktree(root, commit):
    return os.path.join(root, "target", "external", commit)


def gen_command(root, entry):
    """The command that plays the entry's games: its commit's trainer and weights, from its worktree."""
    tree = worktree(root, entry.commit)
    return [os.path.join(tree, "target", "release", "ebony-train"), "gen", "--out", entry.path(root),
            "--games", str(entry.games), *entry.args, "--eval", os.path.join(tree, "src", "eval", "weights.ebev")]


def make(root, names, jobs, dry_run):
    entries = read_manifest(root)
    unknown = set(names) - {e.name for e in entries}
    if unknown:
        raise ValueError(f"not in {MANIFEST}: {', '.join(sorted(unknown))}")
    chosen = [e for e in entries if not names or e.name in names]
    todo = []
    for e in chosen:
        s = state(e, root)
        if s == "differs":
            raise ValueError(f"{e.path(root)} differs from its record: move it away, then make it again")
        if s != "made":
            todo.append(e)
    run = (lambda cmd: print(shlex.join(cmd))) if dry_run else (lambda cmd: subprocess.run(cmd, check=True))
    for commit in dict.fromkeys(e.commit for e in todo):
        tree = worktree(root, commit)
        if not os.path.exists(os.path.join(tree, "Cargo.toml")):
            run(["git", "-C", root, "worktree", "add", "--detach", tree, commit])
        run(["cargo", "build", "--release", "-p", "ebony-train", "--manifest-path", os.path.join(tree, "Cargo.toml")])
    if dry_run:
        for e in todo:  # one line a command, in the record's order
            run(gen_command(root, e))
        return 0
    os.makedirs(os.path.join(root, FOLDER), exist_ok=True)
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        list(pool.map(lambda e: run(gen_command(root, e)), todo))
    failed = [e.name for e in todo if state(e, root) != "made"]
    if failed:
        print(f"made, but not as recorded: {', '.join(failed)} (another build or weights than the line's?)",
              file=sys.stderr)
        return 1
    print(f"{len(todo)} files made, {len(chosen) - len(todo)} already were")
    return 0


def record(root, name, fields):
    path = os.path.join(root, FOLDER, name)
    trainer = os.path.join(root, "target", "release", "ebony-train")
    out = subprocess.run([trainer, "count", path], capture_output=True, text=True)
    if out.returncode != 0:
        raise ValueError(f"{trainer} count {path}: {out.stderr.strip()} (a run must be stopped, its file whole)")
    # `count` says "PATH: N games, M positions" (then a total line); the path may hold a colon.
    games = int(out.stdout.splitlines()[0].rsplit(": ", 1)[1].split()[0])
    size = os.path.getsize(path)
    manifest = os.path.join(root, MANIFEST)
    with open(manifest, encoding="utf-8") as f:
        lines = f.read().splitlines()
    read_manifest(root)  # the lines as they are must parse
    at = [i for i, line in enumerate(lines) if line.split()[:1] == [name]]
    if fields:
        if at:
            raise ValueError(f"{name} is recorded already: record it by its name alone")
        line = " ".join([name, str(games), str(size), sha256_prefix(path, size), *fields])
        Entry(line, len(lines) + 1)
        lines.append(line)
    else:
        if not at:
            raise ValueError(f"{name} is not recorded: give COMMIT WEIGHT CPU GEN-ARGUMENTS")
        old = lines[at[0]].split()
        if games < int(old[1]):
            raise ValueError(f"{path} holds {games} games, fewer than the {old[1]} recorded")
        lines[at[0]] = " ".join([name, str(games), str(size), sha256_prefix(path, size), *old[4:]])
    with open(manifest, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    print(f"{name}: {games} games, {size} bytes recorded")
    return 0


def main(argv):
    root = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    if argv[:1] == ["--root"] and len(argv) > 1:
        root, argv = argv[1], argv[2:]
    if not argv or argv[0] not in ("list", "check", "make", "files", "record"):
        sys.exit(__doc__)
    command, rest = argv[0], argv[1:]
    try:
        if command in ("list", "check"):
            if rest:
                sys.exit(__doc__)
            return list_files(root, command == "check")
        if command == "files":
            made = [e for e in read_manifest(root) if state(e, root) == "made"]
            for e in made:
                if os.path.getsize(e.path(root)) > e.bytes:
                    print(f"external-games: {e.name} holds more than its record", file=sys.stderr)
            print(" ".join(f"{os.path.relpath(e.path(root))}@{e.weight:g}" for e in made))
            return 0
        if command == "record":
            if not rest:
                sys.exit(__doc__)
            return record(root, rest[0], rest[1:])
        jobs, dry_run, names = 1, False, []
        while rest:
            arg = rest.pop(0)
            if arg == "--jobs" and rest and rest[0].isdigit():
                jobs = int(rest.pop(0))
            elif arg == "--dry-run":
                dry_run = True
            elif arg.startswith("-"):
                sys.exit(__doc__)
            else:
                names.append(arg)
        return make(root, names, jobs, dry_run)
    except (OSError, ValueError, subprocess.CalledProcessError) as e:
        print(f"external-games: {e}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
