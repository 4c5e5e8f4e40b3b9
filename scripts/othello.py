"""Othello rules for the referee: the authoritative board every engine move is checked against.

Bitboards as Python ints with ebony's square numbering (a1 = bit 0, h1 = bit 7, h8 = bit 63), so board
strings and square names mean the same thing on both sides of the pipe. Speed does not matter here (a
game is 60 moves); correctness does, hence the perft test against tests/data/perft.txt.
"""

FULL = (1 << 64) - 1
_NOT_A = 0xFEFEFEFEFEFEFEFE  # every square except file a: where a shift towards file h may land
_NOT_H = 0x7F7F7F7F7F7F7F7F
# (bit shift, mask of squares a shifted bit may land on without having wrapped round a board edge)
_DIRECTIONS = ((1, _NOT_A), (-1, _NOT_H), (8, FULL), (-8, FULL), (9, _NOT_A), (7, _NOT_H), (-7, _NOT_A), (-9, _NOT_H))

BLACK, WHITE = "black", "white"
PASS = None  # a move is a square index 0..63 or PASS


def _shift(bits, step, mask):
    return ((bits << step) if step > 0 else (bits >> -step)) & mask


def moves(p, o):
    """Bitboard of the legal moves of the side owning `p` against `o`."""
    empty = ~(p | o) & FULL
    legal = 0
    for step, mask in _DIRECTIONS:
        run = _shift(p, step, mask) & o
        for _ in range(5):
            run |= _shift(run, step, mask) & o
        legal |= _shift(run, step, mask) & empty
    return legal


def flips(p, o, sq):
    """Bitboard of the discs of `o` turned by `p` playing on square index `sq` (0 if none)."""
    turned = 0
    start = 1 << sq
    for step, mask in _DIRECTIONS:
        run = 0
        cur = _shift(start, step, mask)
        while cur & o:
            run |= cur
            cur = _shift(cur, step, mask)
        if cur & p:
            turned |= run
    return turned


def square_name(sq):
    return "pass" if sq is PASS else "abcdefgh"[sq % 8] + str(sq // 8 + 1)


def parse_square(text):
    """Square index from `f5`/`F5`, PASS from `pass`/`PA`/`ps`, else ValueError."""
    t = text.strip().lower()
    if t in ("pass", "pa", "ps", "@@", "--"):
        return PASS
    if len(t) == 2 and t[0] in "abcdefgh" and t[1] in "12345678":
        return (int(t[1]) - 1) * 8 + "abcdefgh".index(t[0])
    raise ValueError(f"not a square: {text!r}")


def parse_line(line):
    """Moves of a compact transcript such as `f5d6c3` (passes may be written `pass` or `PA`)."""
    t = line.strip().lower().replace(" ", "")
    out = []
    i = 0
    while i < len(t):
        if t.startswith("pass", i):
            out.append(PASS)
            i += 4
        else:
            out.append(parse_square(t[i : i + 2]))
            i += 2
    return out


def popcount(bits):
    return bin(bits).count("1")


class IllegalMove(ValueError):
    pass


class Position:
    """A position: black and white bitboards plus the colour to move. Immutable; `play` returns a new one."""

    __slots__ = ("black", "white", "side")

    def __init__(self, black, white, side):
        self.black, self.white, self.side = black, white, side

    @classmethod
    def start(cls):
        # d5 and e4 black, d4 and e5 white: the standard position seen from a1 at the top left.
        return cls((1 << 28) | (1 << 35), (1 << 27) | (1 << 36), BLACK)

    def _pair(self):
        return (self.black, self.white) if self.side == BLACK else (self.white, self.black)

    def legal_bits(self):
        p, o = self._pair()
        return moves(p, o)

    def legal_moves(self):
        bits = self.legal_bits()
        return [sq for sq in range(64) if bits >> sq & 1]

    def must_pass(self):
        return self.legal_bits() == 0 and not self.is_over()

    def is_over(self):
        p, o = self._pair()
        return moves(p, o) == 0 and moves(o, p) == 0

    def play(self, move):
        """The position after `move`; IllegalMove with the reason if it is not legal here."""
        p, o = self._pair()
        other = WHITE if self.side == BLACK else BLACK
        legal = moves(p, o)
        if move is PASS:
            if legal:
                raise IllegalMove(f"pass while {popcount(legal)} moves are legal")
            if moves(o, p) == 0:
                raise IllegalMove("pass after the game is over")
            return Position(self.black, self.white, other)
        if not 0 <= move < 64:
            raise IllegalMove(f"no square {move}")
        if not legal >> move & 1:
            what = "occupied" if (p | o) >> move & 1 else "flips nothing"
            raise IllegalMove(f"{square_name(move)} is illegal ({what})")
        turned = flips(p, o, move)
        p |= turned | (1 << move)
        o &= ~turned
        if self.side == BLACK:
            return Position(p, o, other)
        return Position(o, p, other)

    def disc_diff(self):
        """Final score from black's side, empties to the winner (the usual tournament rule)."""
        b, w = popcount(self.black), popcount(self.white)
        empties = 64 - b - w
        if b > w:
            return b - w + empties
        if w > b:
            return b - w - empties
        return 0

    def board_string(self):
        """ebony's 64-char board (a1..h8, X black, O white, - empty) and side letter."""
        cells = []
        for sq in range(64):
            if self.black >> sq & 1:
                cells.append("X")
            elif self.white >> sq & 1:
                cells.append("O")
            else:
                cells.append("-")
        return "".join(cells), ("X" if self.side == BLACK else "O")

    def __eq__(self, other):
        return (self.black, self.white, self.side) == (other.black, other.white, other.side)

    def __hash__(self):
        return hash((self.black, self.white, self.side))


def replay(move_list, position=None):
    """Play `move_list` from `position` (default start), inserting the forced passes a transcript leaves out."""
    pos = position or Position.start()
    for mv in move_list:
        if mv is not PASS and pos.must_pass():
            pos = pos.play(PASS)
        pos = pos.play(mv)
    return pos


def perft(pos, depth):
    """Leaf count with ebony's convention: a pass is a ply, a finished game is one leaf where reached."""
    if depth == 0:
        return 1
    legal = pos.legal_moves()
    if not legal:
        if pos.is_over():
            return 1
        return perft(pos.play(PASS), depth - 1)
    if depth == 1:
        return len(legal)
    return sum(perft(pos.play(sq), depth - 1) for sq in legal)
