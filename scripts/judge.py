"""ebony as a judge of positions for the analysis scripts (disc-loss.py, endgame-blunders.py,
eval-error.py)."""
import subprocess


class Judge:
    """An ebony process without its book (and with `options`, such as `--eval FILE`); `score` searches
    a position with `go depth D`, `evaluate` gives its static evaluation."""

    def __init__(self, binary, *options):
        self.proc = subprocess.Popen([binary, *options, "--no-book"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, text=True, bufsize=1)

    def _answer(self, pos, command, prefix=""):
        """Sends `prefix`, `pos` and `command`, then yields the words of each line ebony answers."""
        board, side = pos.board_string()
        self.proc.stdin.write(f"{prefix}setboard {board} {side}\n{command}\n")
        self.proc.stdin.flush()
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise SystemExit("the judging engine ended")
            yield line.split()

    def score(self, pos, depth, new_game=False):
        """The score of `go depth` for the side to move of `pos` (an othello.Position that is not
        over); `new_game` clears ebony's table first, so that the answer depends on nothing before."""
        score = 0
        for words in self._answer(pos, f"go depth {depth}", "new\n" if new_game else ""):
            if words[:1] == ["info"]:
                score = int(words[words.index("score") + 1])
            elif words[:1] == ["bestmove"]:
                return score

    def evaluate(self, pos):
        """The static evaluation (`eval`) of `pos` for black, in discs."""
        for words in self._answer(pos, "eval"):
            if words[:1] == ["eval"]:
                return int(words[1]) if words[3] == "black" else -int(words[1])

    def close(self):
        self.proc.stdin.close()
        self.proc.wait()
