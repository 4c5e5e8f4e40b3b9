"""Engine processes and the three protocols the referee speaks to them: ebony's native, GTP and NBoard.

Every read has a deadline taken from the referee's own clock; anything an engine does wrong becomes a
`Forfeit` with a kind (`time`, `crash`, `garbage`, `resign`) and a readable detail, which the game loop
turns into a lost game. Moves come back as text and are checked by the game loop against its own board,
never trusted here.
"""

import os
import queue
import signal
import subprocess
import threading
import time

import othello

MAX_LINE = 65536  # longer output lines are cut and then judged as garbage


class Forfeit(Exception):
    def __init__(self, kind, detail):
        super().__init__(f"{kind}: {detail}")
        self.kind = kind
        self.detail = detail


class Limit:
    """What one `go` asks for: depth/nodes (engine option), a fixed time per move, or a game clock."""

    def __init__(self, depth=None, nodes=None, movetime_ms=None, clock_ms=None, inc_ms=0):
        self.depth, self.nodes = depth, nodes
        self.movetime_ms, self.clock_ms, self.inc_ms = movetime_ms, clock_ms, inc_ms


class Process:
    """One engine process: lines in, lines out through a reader thread, stderr to a log or nowhere."""

    def __init__(self, argv, cwd=None, log=None, label="engine"):
        self.label = label
        self.log = log
        self.lines = queue.Queue()
        try:
            self.proc = subprocess.Popen(
                argv,
                cwd=cwd,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE if log else subprocess.DEVNULL,
                start_new_session=True,  # its own process group, so a kill reaches a wrapper's children too
            )
        except OSError as e:
            raise Forfeit("crash", f"cannot start {argv!r}: {e}") from e
        threading.Thread(target=self._read_stdout, daemon=True).start()
        if log:
            threading.Thread(target=self._read_stderr, daemon=True).start()

    def _note(self, mark, text):
        if self.log:
            self.log.write(f"{time.monotonic():.3f} {self.label} {mark} {text}\n")

    def _read_stdout(self):
        stream = self.proc.stdout
        while True:
            raw = stream.readline(MAX_LINE)
            if not raw:
                break
            line = raw.decode("utf-8", "replace").rstrip("\r\n")
            self._note("<", line)
            self.lines.put(line)
        self.lines.put(None)

    def _read_stderr(self):
        for raw in iter(self.proc.stderr.readline, b""):
            self._note("!", raw.decode("utf-8", "replace").rstrip("\r\n"))

    def send(self, line):
        self._note(">", line)
        try:
            self.proc.stdin.write((line + "\n").encode())
            self.proc.stdin.flush()
        except (OSError, ValueError) as e:
            raise Forfeit("crash", f"cannot write to the engine ({e}); {self._exit_note()}") from e

    def recv(self, deadline, waiting_for):
        """The next line, or Forfeit('time') at `deadline` (monotonic seconds), Forfeit('crash') at EOF."""
        try:
            line = self.lines.get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            raise Forfeit("time", f"no {waiting_for} in time") from None
        if line is None:
            self.lines.put(None)  # stays at EOF for any later read
            raise Forfeit("crash", f"output closed while waiting for {waiting_for}; {self._exit_note()}")
        return line

    def pending(self):
        """Lines already received and not read (output between two requests)."""
        out = []
        while True:
            try:
                line = self.lines.get_nowait()
            except queue.Empty:
                return out
            if line is None:
                self.lines.put(None)
                return out
            out.append(line)

    def _exit_note(self):
        try:
            code = self.proc.wait(timeout=0.5)
        except subprocess.TimeoutExpired:
            return "process still running"
        if code < 0:
            return f"killed by signal {-code}"
        return f"exit status {code}"

    def alive(self):
        return self.proc.poll() is None

    def close(self, quit_line=None, grace=2.0):
        if self.alive() and quit_line:
            try:
                self.send(quit_line)
                self.proc.wait(timeout=grace)
            except (Forfeit, subprocess.TimeoutExpired):
                pass
        if self.alive():
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except OSError:
                self.proc.kill()
            self.proc.wait()
        for stream in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            try:
                if stream:
                    stream.close()
            except OSError:
                pass


class Engine:
    """Common shape: start(), new_game(opening moves), think(position, limit, deadline) -> move text,
    on_move(move, colour, by_self) for every move played, close()."""

    quit_line = "quit"

    def __init__(self, spec, log=None, start_timeout=10.0):
        self.spec = spec
        self.log = log
        self.start_timeout = start_timeout
        self.proc = None

    def start(self):
        self.proc = Process(self.spec.argv, self.spec.cwd, self.log, self.spec.name)
        self.handshake(time.monotonic() + self.start_timeout)

    def alive(self):
        return self.proc is not None and self.proc.alive()

    def close(self):
        if self.proc:
            self.proc.close(self.quit_line)
            self.proc = None

    def handshake(self, deadline):
        raise NotImplementedError

    def new_game(self, opening, deadline):
        raise NotImplementedError

    def think(self, pos, limit, deadline):
        raise NotImplementedError

    def on_move(self, move, colour, by_self):
        pass


class NativeEngine(Engine):
    """ebony's line protocol: `setboard` + `go`, answer `bestmove`. Stateless per move: the referee's board
    is sent every time, so an engine can never drift from it."""

    def handshake(self, deadline):
        for line in self.spec.init:
            self.proc.send(line)
        self._sync(deadline)

    def _sync(self, deadline):
        self.proc.send("isready")
        while True:
            line = self.proc.recv(deadline, "readyok")
            if line.strip() == "readyok":
                return
            if not line.startswith("info"):
                raise Forfeit("garbage", f"unexpected {line[:80]!r} before readyok")

    def new_game(self, opening, deadline):
        self.proc.send("new")
        self._sync(deadline)

    def go_command(self, limit):
        if self.spec.depth is not None:
            return f"go depth {self.spec.depth}"
        if self.spec.nodes is not None:
            return f"go nodes {self.spec.nodes}"
        if limit.clock_ms is not None:
            cmd = f"go clock {max(1, int(limit.clock_ms))}"
            return cmd + (f" inc {int(limit.inc_ms)}" if limit.inc_ms else "")
        if limit.movetime_ms is not None:
            return f"go time {int(limit.movetime_ms)}"
        return "go depth 1"

    def think(self, pos, limit, deadline):
        stray = [x for x in self.proc.pending() if not x.startswith("info")]
        if stray:
            raise Forfeit("garbage", f"unexpected {stray[0][:80]!r} between moves")
        board, side = pos.board_string()
        self.proc.send(f"setboard {board} {side}")
        self.proc.send(self.go_command(limit))
        self.last_score = None
        while True:
            line = self.proc.recv(deadline, "bestmove")
            words = line.split()
            if not words:
                continue
            if words[0] == "info":
                if "score" in words[:-1]:
                    try:
                        self.last_score = int(words[words.index("score") + 1])
                    except ValueError:
                        pass  # a score is only for the record; a bad one does not lose the game
                continue
            if words[0] == "bestmove" and len(words) == 2:
                return words[1]
            raise Forfeit("garbage", f"unexpected {line[:80]!r} while waiting for bestmove")


class GtpEngine(Engine):
    """The Go Text Protocol as Othello GUIs use it (`boardsize 8`, `play`, `genmove`); colour names
    black/white. Engines such as gtp-rhino pass on their own, so a refused `play <c> pass` is tolerated."""

    def _command(self, line, deadline, tolerate_error=False):
        self.proc.send(line)
        while True:
            first = self.proc.recv(deadline, f"reply to {line.split()[0]!r}")
            if first.strip():
                break
        status = first[0]
        if status not in "=?":
            raise Forfeit("garbage", f"reply {first[:80]!r} to {line!r}")
        text = first[1:].strip()
        while True:  # a reply ends with an empty line; extra lines belong to it
            more = self.proc.recv(deadline, "the end of a reply")
            if not more.strip():
                break
            text += "\n" + more
        if status == "?" and not tolerate_error:
            raise Forfeit("garbage", f"refused {line!r}: {text[:80]}")
        return status == "=", text

    def handshake(self, deadline):
        self._command("boardsize 8", deadline)
        for line in self.spec.init:
            self._command(line, deadline)

    def new_game(self, opening, deadline):
        self._command("clear_board", deadline)
        self._deadline = deadline
        self._time_settings_sent = False
        pos = othello.Position.start()
        for mv in opening:
            if mv is not othello.PASS and pos.must_pass():
                self.on_move(othello.PASS, pos.side, False)
                pos = pos.play(othello.PASS)
            self.on_move(mv, pos.side, False)
            pos = pos.play(mv)

    def on_move(self, move, colour, by_self):
        if by_self:
            return  # genmove already played it on the engine's board
        self._command(
            f"play {colour} {othello.square_name(move)}", time.monotonic() + 10, tolerate_error=move is othello.PASS
        )

    def think(self, pos, limit, deadline):
        if limit.clock_ms is not None:
            if not self._time_settings_sent:
                self._command(f"time_settings {int(limit.clock_ms // 1000)} 0 0", deadline, tolerate_error=True)
                self._time_settings_sent = True
            self._command(f"time_left {pos.side} {int(limit.clock_ms // 1000)} 0", deadline, tolerate_error=True)
        elif limit.movetime_ms is not None and not self._time_settings_sent:
            self._command(f"time_settings 0 {max(1, int(limit.movetime_ms // 1000))} 1", deadline, tolerate_error=True)
            self._time_settings_sent = True
        _, text = self._command(f"genmove {pos.side}", deadline)
        if text.lower() == "resign":
            raise Forfeit("resign", "resigned")
        return text


class NboardEngine(Engine):
    """The NBoard protocol (version 2): the game as GGF in `set game`, moves as `move F5` / `move PA`,
    `ping N` before `go` so the `=== mv` after `pong N` is the answer to this request."""

    def handshake(self, deadline):
        self.proc.send("nboard 2")
        for line in self.spec.init:
            self.proc.send(line)
        self._ping = 0
        self._sync(deadline)

    def _sync(self, deadline):
        self._ping += 1
        self.proc.send(f"ping {self._ping}")
        while True:
            line = self.proc.recv(deadline, f"pong {self._ping}")
            if line.split() == ["pong", str(self._ping)]:
                return

    def new_game(self, opening, deadline):
        moves = []
        pos = othello.Position.start()
        for mv in opening:
            if mv is not othello.PASS and pos.must_pass():
                moves.append((pos.side, othello.PASS))
                pos = pos.play(othello.PASS)
            moves.append((pos.side, mv))
            pos = pos.play(mv)
        body = "".join(f"{'B' if c == othello.BLACK else 'W'}[{_nboard_move(m)}]" for c, m in moves)
        start = "-" * 27 + "O*------*O" + "-" * 27
        self.proc.send(f"set game (;GM[Othello]PC[ebony-referee]TY[8]BO[8 {start} *]{body};)")
        self._sync(deadline)

    def on_move(self, move, colour, by_self):
        self.proc.send(f"move {_nboard_move(move)}")

    def think(self, pos, limit, deadline):
        self._sync(deadline)
        self.proc.send("go")
        while True:
            line = self.proc.recv(deadline, "=== move")
            if line.startswith("==="):
                words = line[3:].strip().split()
                if not words:
                    raise Forfeit("garbage", f"empty move line {line[:80]!r}")
                return words[0].split("/")[0]


def _nboard_move(move):
    return "PA" if move is othello.PASS else othello.square_name(move).upper()


PROTOCOLS = {"native": NativeEngine, "gtp": GtpEngine, "nboard": NboardEngine}
