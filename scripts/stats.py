"""Match statistics: score, Elo difference with a 95% interval, and the SPRT log-likelihood ratio.

Elo uses the logistic model (score s = 1 / (1 + 10^(-elo/400))). The interval comes from the per-game
score variance (normal approximation). The SPRT follows fishtest's generalised SPRT on game pairs (the
two colours of one opening, the pentanomial model), because in Othello an opening can favour one colour
strongly and pairing removes that noise; LLR = N (s1 - s0)(2 m - s0 - s1) / (2 var) for N pair scores
with mean m and variance var (regularised, see Sprt.llr).
"""

import math

PRIOR = 0.5  # pseudo-count per pentanomial outcome in the SPRT (see Sprt.llr)


def elo_to_score(elo):
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def score_to_elo(score):
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


def mean_var(samples):
    n = len(samples)
    if n == 0:
        return 0.0, 0.0
    m = sum(samples) / n
    return m, sum((x - m) ** 2 for x in samples) / n


def elo_interval(scores, z=1.959964):
    """(elo, low, high) from per-game scores (1, 0.5, 0); None when there are no games."""
    n = len(scores)
    if n == 0:
        return None
    m, var = mean_var(scores)
    half = z * math.sqrt(var / n)
    return score_to_elo(m), score_to_elo(m - half), score_to_elo(m + half)


def los(wins, losses):
    """Likelihood of superiority in [0, 1] (draws ignored)."""
    if wins + losses == 0:
        return 0.5
    return 0.5 * (1.0 + math.erf((wins - losses) / math.sqrt(2.0 * (wins + losses))))


class Sprt:
    def __init__(self, elo0, elo1, alpha=0.05, beta=0.05):
        if elo1 <= elo0:
            raise ValueError("SPRT needs elo1 > elo0")
        if not (0 < alpha < 1 and 0 < beta < 1):
            raise ValueError("SPRT alpha and beta must be in (0, 1)")
        self.elo0, self.elo1, self.alpha, self.beta = elo0, elo1, alpha, beta
        self.lower = math.log(beta / (1 - alpha))
        self.upper = math.log((1 - beta) / alpha)

    def llr(self, pair_scores):
        """LLR from pair scores (mean of the two games' scores, so 0, .25, .5, .75 or 1)."""
        n = len(pair_scores)
        if n < 2:
            return 0.0
        # Half a pseudo-pair on each of the five outcomes: without it a few identical pairs have zero
        # variance and the LLR explodes (two drawn pairs would "accept" H0); its weight fades as n grows.
        weights = [(x, 1.0) for x in pair_scores] + [(x, PRIOR) for x in (0, 0.25, 0.5, 0.75, 1)]
        total = sum(w for _, w in weights)
        m = sum(x * w for x, w in weights) / total
        var = sum(w * (x - m) ** 2 for x, w in weights) / total
        s0, s1 = elo_to_score(self.elo0), elo_to_score(self.elo1)
        return n * (s1 - s0) * (2 * m - s0 - s1) / (2 * var)

    def decision(self, pair_scores):
        llr = self.llr(pair_scores)
        if llr >= self.upper:
            return llr, "H1"
        if llr <= self.lower:
            return llr, "H0"
        return llr, None
