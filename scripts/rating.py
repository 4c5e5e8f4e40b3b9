"""Maximum-likelihood Elo over all games of a tournament (Python 3 standard library only).

The model is Bradley-Terry on game scores, the logistic curve the match summary uses (stats.py): engine i
scores against engine j with expectation p = 1 / (1 + 10^(-(R_i - R_j) / 400)), a draw counting half a
point for each side. The ratings R maximise the log-likelihood
    sum over pairs (i, j) of S_ij ln p_ij + (n_ij - S_ij) ln (1 - p_ij)
(S_ij: i's points against j in n_ij games), found by Newton's method with step halving from all ratings
equal: deterministic, and the log-likelihood is concave, so the maximum found is the maximum. The 95%
intervals come from the observed Fisher information (the negative Hessian of the log-likelihood at the
maximum): +-1.96 standard errors of each rating relative to the anchor, an engine named by `anchor` (rated
0, no interval of its own) or the mean of the rated engines (0 by definition).

For two engines the maximum is where p equals the observed score, so the rating difference is
stats.score_to_elo(score), the match summary's figure; the interval is symmetric in Elo, where the
summary's is symmetric in score, so the two agree to first order.

A finite maximum exists only when every engine both took and gave up points within the group
(the graph "i took at least half a point from j" is strongly connected). Otherwise the engines are split
into such groups: the group holding the anchor (with the mean anchor, the largest group, the higher one
on a tie) is rated on its games among themselves, and the engines of a group that took every point from
it, or none, are listed as +inf or -inf; engines with no games linking them to it are not rated.
"""

import math

Z95 = 1.959964
ELO_PER_NAT = 400.0 / math.log(10.0)


def pair_totals(games):
    """{(i, j): [points of i, games]} for i < j from (i, j, score of i) triples."""
    totals = {}
    for i, j, s in games:
        if i == j:
            raise ValueError("an engine cannot play itself")
        if i > j:
            i, j, s = j, i, 1.0 - s
        t = totals.setdefault((i, j), [0.0, 0])
        t[0] += s
        t[1] += 1
    return totals


def _reach(n, totals):
    """reach[i][j]: a chain of 'took points from' leads from i to j."""
    reach = [[i == j for j in range(n)] for i in range(n)]
    for (i, j), (points, games) in totals.items():
        if points > 0:
            reach[i][j] = True
        if points < games:
            reach[j][i] = True
    for k in range(n):
        for i in range(n):
            if reach[i][k]:
                row_k = reach[k]
                row_i = reach[i]
                for j in range(n):
                    if row_k[j]:
                        row_i[j] = True
    return reach


def _solve(matrix, vector):
    """matrix^-1 vector by Gauss-Jordan with partial pivoting (matrix symmetric positive definite here)."""
    n = len(vector)
    a = [list(row) + [v] for row, v in zip(matrix, vector)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(a[r][col]))
        a[col], a[pivot] = a[pivot], a[col]
        div = a[col][col]
        a[col] = [x / div for x in a[col]]
        for r in range(n):
            if r != col and a[r][col]:
                f = a[r][col]
                a[r] = [x - f * y for x, y in zip(a[r], a[col])]
    return [row[n] for row in a]


def _inverse(matrix):
    n = len(matrix)
    columns = [_solve(matrix, [1.0 if r == c else 0.0 for r in range(n)]) for c in range(n)]
    return [[columns[c][r] for c in range(n)] for r in range(n)]


def _log_likelihood(theta, totals):
    total = 0.0
    for (i, j), (points, games) in totals.items():
        d = theta[i] - theta[j]
        # ln p = -ln(1 + e^-d), ln(1 - p) = -ln(1 + e^d), written to stay finite for large |d|
        total -= points * _softplus(-d) + (games - points) * _softplus(d)
    return total


def _softplus(x):
    return x + math.log1p(math.exp(-x)) if x > 0 else math.log1p(math.exp(x))


def _prob(d):
    return 1.0 / (1.0 + math.exp(-d)) if d >= 0 else math.exp(d) / (1.0 + math.exp(d))


def _gradient_and_information(theta, totals, n):
    grad = [0.0] * n
    info = [[0.0] * n for _ in range(n)]
    for (i, j), (points, games) in totals.items():
        p = _prob(theta[i] - theta[j])
        grad[i] += points - games * p
        grad[j] -= points - games * p
        w = games * p * (1.0 - p)
        info[i][i] += w
        info[j][j] += w
        info[i][j] -= w
        info[j][i] -= w
    return grad, info


def fit(n, totals, fixed):
    """Ratings in natural-log units with theta[fixed] = 0 for a strongly connected group of n engines, and
    the covariance of the others (an (n-1) x (n-1) matrix over the engines other than `fixed`)."""
    free = [i for i in range(n) if i != fixed]
    theta = [0.0] * n
    if not free:
        return theta, []
    current = _log_likelihood(theta, totals)
    for _ in range(200):
        grad, info = _gradient_and_information(theta, totals, n)
        step = _solve([[info[r][c] for c in free] for r in free], [grad[r] for r in free])
        scale = 1.0
        while True:
            trial = list(theta)
            for k, i in enumerate(free):
                trial[i] += scale * step[k]
            value = _log_likelihood(trial, totals)
            if value >= current - 1e-12 or scale < 1e-6:
                break
            scale /= 2
        theta, current = trial, value
        if max(abs(scale * s) for s in step) < 1e-10:
            break
    _, info = _gradient_and_information(theta, totals, n)
    return theta, _inverse([[info[r][c] for c in free] for r in free])


class Rating:
    def __init__(self, index, elo, low=None, high=None, note=""):
        self.index, self.elo, self.low, self.high, self.note = index, elo, low, high, note


def ratings(n, games, anchor=None, z=Z95):
    """Ratings of engines 0..n-1 from (i, j, score of i) triples: a list of Rating (elo None: not rated),
    anchored on engine `anchor` or, when None, on the mean of the rated engines."""
    totals = pair_totals(games)
    reach = _reach(n, totals)
    groups = []
    for i in range(n):
        if not any(i in g for g in groups):
            groups.append([j for j in range(n) if reach[i][j] and reach[j][i]])
    played = {i for pair in totals for i in pair}
    if anchor is not None:
        rated = next(g for g in groups if anchor in g)
    else:
        candidates = [g for g in groups if all(i in played for i in g)] or groups
        # the largest group; on a tie, the one no other candidate took every point from
        rated = max(candidates, key=lambda g: (len(g), sum(reach[g[0]][h[0]] for h in candidates)))
    index = {e: k for k, e in enumerate(rated)}
    inner = {(index[i], index[j]): t for (i, j), t in totals.items() if i in index and j in index}
    fixed = index[anchor] if anchor is not None else 0
    theta, cov = fit(len(rated), inner, fixed)
    m = len(rated)
    free = [k for k in range(m) if k != fixed]
    full = [[0.0] * m for _ in range(m)]  # covariance of all the group's thetas, theta[fixed] held at 0
    for a, ka in enumerate(free):
        for b, kb in enumerate(free):
            full[ka][kb] = cov[a][b]
    if anchor is None:  # shift to the mean: theta' = (I - J/m) theta, cov' = T cov T^T
        mean = sum(theta) / m
        theta = [t - mean for t in theta]
        row_mean = [sum(full[r]) / m for r in range(m)]
        grand = sum(row_mean) / m
        full = [[full[r][c] - row_mean[r] - row_mean[c] + grand for c in range(m)] for r in range(m)]
    out = []
    for i in range(n):
        if i in index:
            k = index[i]
            elo = theta[k] * ELO_PER_NAT
            if anchor is not None and i == anchor:
                out.append(Rating(i, elo, note="anchor"))
            elif m == 1:  # nothing to compare it with: 0 by definition, no interval
                out.append(Rating(i, elo, note="rated alone"))
            else:
                half = z * math.sqrt(max(0.0, full[k][k])) * ELO_PER_NAT
                out.append(Rating(i, elo, elo - half, elo + half))
        elif reach[i][rated[0]] and not reach[rated[0]][i]:
            out.append(Rating(i, math.inf, note="took every point from the rated engines' group"))
        elif reach[rated[0]][i] and not reach[i][rated[0]]:
            out.append(Rating(i, -math.inf, note="took no point from the rated engines' group"))
        elif i not in played:
            out.append(Rating(i, None, note="no games yet"))
        else:
            out.append(Rating(i, None, note="no games linking it to the rated engines"))
    return out
