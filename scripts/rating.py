"""Bayesian Elo over all games of a tournament, in the manner of Rémi Coulom's BayesElo (Python 3 standard
library only). Reference: R. Coulom, "Bayesian Elo Rating", https://www.remi-coulom.fr/Bayesian-Elo/

The model is BayesElo's: with f(x) = 1 / (1 + 10^(-x/400)) and x = R_black - R_white + advantage,
    P(black wins) = f(x - drawelo),   P(white wins) = f(-x - drawelo),   P(draw) = the rest,
so a draw is likelier between close engines, and `advantage` is what moving first is worth. The ratings,
the advantage and the draw width are the maximum of the posterior: the likelihood of the games times a
prior of PRIOR virtual draws between every two engines that met, played half with each colour, each
draw counted as half a win for black and half a win for white (the prior then bounds the draw width
too). Every engine connected to the anchor by a path of games has a finite rating, whatever its score:
the virtual draws keep a sweep from running off to infinity. With no real draw the draw width is 0 (the
model is then Bradley-Terry on wins with the same prior).

The log-posterior is concave (a sum of logs of logistic probabilities and of logistic interval
probabilities, all of linear functions of the parameters), and strictly so once the prior links the
engines, so Newton's method with step halving from all ratings equal finds its one maximum: the fit is
deterministic. The covariance of the estimates is the inverse of the negative Hessian at the maximum
(the Laplace approximation BayesElo's `covariance` command also makes): each rating's 95% interval is
+-1.96 standard errors relative to the anchor (an engine rated 0, or the mean of the rated engines), and
the likelihood of superiority of i over j is Phi((R_i - R_j) / sd(R_i - R_j)) with the covariance of
the two ratings taken into account.

Engines are grouped by the games between them (an undirected path of games, whatever the results). The
group holding the anchor is rated (with the mean anchor, the largest group, the earliest engine's on a
tie); an engine in another group is listed apart, not rated, since nothing relates its strength to the
anchor's.
"""

import math

Z95 = 1.959964
ELO_PER_NAT = 400.0 / math.log(10.0)
PRIOR = 2.0  # virtual draws between every two engines that met, BayesElo's default


def _sig(x):
    return 1.0 / (1.0 + math.exp(-x)) if x >= 0 else math.exp(x) / (1.0 + math.exp(x))


def _log_sig(x):
    return -(math.log1p(math.exp(-x)) if x >= 0 else -x + math.log1p(math.exp(x)))


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


def colour_totals(games):
    """{(black, white): [black wins, draws, white wins]} from (black, white, score of black) triples."""
    totals = {}
    for b, w, s in games:
        if b == w:
            raise ValueError("an engine cannot play itself")
        t = totals.setdefault((b, w), [0.0, 0.0, 0.0])
        t[0 if s == 1 else 1 if s == 0.5 else 2] += 1
    return totals


def _terms(x, d, counts):
    """Log-posterior of one (black, white) cell at x = R_b - R_w + advantage and draw width d, with its
    derivatives in x and d: (value, f_x, f_d, f_xx, f_xd, f_dd)."""
    wins, draws, losses = counts
    value = f_x = f_d = f_xx = f_xd = f_dd = 0.0
    if wins:  # ln f(x - d)
        t = x - d
        value += wins * _log_sig(t)
        g, s = _sig(-t), _sig(t) * _sig(-t)
        f_x += wins * g
        f_d -= wins * g
        f_xx -= wins * s
        f_dd -= wins * s
        f_xd += wins * s
    if losses:  # ln f(-x - d)
        t = -x - d
        value += losses * _log_sig(t)
        g, s = _sig(-t), _sig(t) * _sig(-t)
        f_x -= losses * g
        f_d -= losses * g
        f_xx -= losses * s
        f_dd -= losses * s
        f_xd -= losses * s
    if draws:  # ln (f(d - x) - f(-d - x))
        u, low = d - x, -d - x
        p = _sig(u) - _sig(low)
        if p <= 0:
            return -math.inf, 0.0, 0.0, 0.0, 0.0, 0.0
        g1, g2 = _sig(u) * _sig(-u), _sig(low) * _sig(-low)
        h1, h2 = g1 * (1 - 2 * _sig(u)), g2 * (1 - 2 * _sig(low))
        p_x, p_d = g2 - g1, g1 + g2
        p_xx, p_dd, p_xd = h1 - h2, h1 - h2, -h1 - h2
        value += draws * math.log(p)
        f_x += draws * p_x / p
        f_d += draws * p_d / p
        f_xx += draws * (p_xx / p - p_x * p_x / (p * p))
        f_dd += draws * (p_dd / p - p_d * p_d / (p * p))
        f_xd += draws * (p_xd / p - p_x * p_d / (p * p))
    return value, f_x, f_d, f_xx, f_xd, f_dd


class Fit:
    """The maximum of the posterior for engines 0..m-1 (one group, engine `fixed` held at 0): ratings
    `theta` (natural-log units), `advantage`, `drawelo` (natural-log units; 0 and not fitted without a
    real draw) and `cov`, the covariance of (theta of every engine, advantage, drawelo) with zero rows for
    what was held fixed."""

    def __init__(self, m, cells, fixed, fit_draw):
        self.m = m
        free = [k for k in range(m) if k != fixed]
        size = len(free) + 1 + fit_draw
        slot = {k: n for n, k in enumerate(free)}
        a_slot, d_slot = len(free), len(free) + 1

        def unpack(v):
            theta = [0.0] * m
            for k, n in slot.items():
                theta[k] = v[n]
            return theta, v[a_slot], v[d_slot] if fit_draw else 0.0

        def evaluate(v, derivatives):
            theta, adv, d = unpack(v)
            total = 0.0
            grad = [0.0] * size
            hess = [[0.0] * size for _ in range(size)]
            for (b, w), counts in cells.items():
                value, f_x, f_d, f_xx, f_xd, f_dd = _terms(theta[b] - theta[w] + adv, d, counts)
                total += value
                if not derivatives:
                    continue
                # x = theta_b - theta_w + advantage: its gradient in the free parameters
                dx = [(slot[b], 1.0)] if b in slot else []
                dx += [(slot[w], -1.0)] if w in slot else []
                dx.append((a_slot, 1.0))
                for r, cr in dx:
                    grad[r] += cr * f_x
                    for c, cc in dx:
                        hess[r][c] += cr * cc * f_xx
                    if fit_draw:
                        hess[r][d_slot] += cr * f_xd
                        hess[d_slot][r] += cr * f_xd
                if fit_draw:
                    grad[d_slot] += f_d
                    hess[d_slot][d_slot] += f_dd
            return total, grad, hess

        v = [0.0] * size
        if fit_draw:
            v[d_slot] = 0.5
        current = evaluate(v, False)[0]
        for _ in range(500):
            _, grad, hess = evaluate(v, True)
            step = _solve([[-x for x in row] for row in hess], grad)
            scale = 1.0
            while True:
                trial = [x + scale * s for x, s in zip(v, step)]
                value = -math.inf if fit_draw and trial[d_slot] <= 0 else evaluate(trial, False)[0]
                if value >= current - 1e-12 or scale < 1e-9:
                    break
                scale /= 2
            if value >= current - 1e-12:
                v, current = trial, value
            if max(abs(scale * s) for s in step) < 1e-11:
                break
        _, _, hess = evaluate(v, True)
        inner = _inverse([[-x for x in row] for row in hess])
        self.theta, self.advantage, self.drawelo = unpack(v)
        self.log_posterior, self.cells = current, cells
        # covariance over (theta_0..theta_m-1, advantage, drawelo), fixed entries zero
        place = [slot.get(k) for k in range(m)] + [a_slot, d_slot if fit_draw else None]
        self.cov = [[inner[r][c] if r is not None and c is not None else 0.0 for c in place] for r in place]


class Rating:
    def __init__(self, index, elo, low=None, high=None, note=""):
        self.index, self.elo, self.low, self.high, self.note = index, elo, low, high, note


class Result:
    """What `bayes` finds: `ratings` (a Rating per engine; elo None when not rated), `advantage` and
    `drawelo` with their standard errors (Elo), `los` {(i, j): P(R_i > R_j)} over the rated engines,
    and `prior`."""


def _components(n, games):
    link = [set() for _ in range(n)]
    for b, w, _ in games:
        link[b].add(w)
        link[w].add(b)
    seen, groups = set(), []
    for i in range(n):
        if i in seen or not link[i]:
            continue
        group, todo = [], [i]
        seen.add(i)
        while todo:
            k = todo.pop()
            group.append(k)
            for j in link[k] - seen:
                seen.add(j)
                todo.append(j)
        groups.append(sorted(group))
    return groups


def bayes(n, games, anchor=None, z=Z95, prior=PRIOR, names=None):
    """The Bayesian fit of engines 0..n-1 from (black, white, score of black) triples, anchored on engine
    `anchor` or, when None, on the mean of the rated engines. `names` only words the notes."""
    games = list(games)
    cells = colour_totals(games)
    name = (lambda i: names[i]) if names else (lambda i: f"engine {i}")
    groups = _components(n, games)
    out = Result()
    out.prior = prior
    out.los = {}
    out.advantage = out.advantage_sd = out.drawelo = out.drawelo_sd = None
    if anchor is not None:
        rated = next((g for g in groups if anchor in g), [anchor])
    else:
        rated = max(groups, key=lambda g: (len(g), -g[0])) if groups else []
    index = {e: k for k, e in enumerate(rated)}
    m = len(rated)
    anchor_words = name(anchor) if anchor is not None else "the rated engines (" + ", ".join(
        name(i) for i in rated) + ")"
    played = {i for b, w, _ in games for i in (b, w)}
    if m >= 2:
        inner = {}
        for (b, w), counts in cells.items():
            if b in index:
                inner[(index[b], index[w])] = list(counts)
        # the prior: PRIOR virtual draws for every pair that met, half with each engine black, each draw
        # half a win for black and half a win for white
        for i, j in {tuple(sorted(k)) for k in inner}:
            for cell in ((i, j), (j, i)):
                c = inner.setdefault(cell, [0.0, 0.0, 0.0])
                c[0] += prior / 4
                c[2] += prior / 4
        fit_draw = any(c[1] > 0 for c in inner.values())
        fixed = index[anchor] if anchor is not None else 0
        fit = Fit(m, inner, fixed, fit_draw)
        theta = list(fit.theta)
        full = [row[:m] for row in fit.cov[:m]]
        if anchor is None:  # shift to the mean: theta' = (I - J/m) theta, cov' = T cov T^T
            mean = sum(theta) / m
            theta = [t - mean for t in theta]
            row_mean = [sum(full[r]) / m for r in range(m)]
            grand = sum(row_mean) / m
            full = [[full[r][c] - row_mean[r] - row_mean[c] + grand for c in range(m)] for r in range(m)]
        out.advantage = fit.advantage * ELO_PER_NAT
        out.advantage_sd = math.sqrt(max(0.0, fit.cov[m][m])) * ELO_PER_NAT
        out.drawelo = fit.drawelo * ELO_PER_NAT
        out.drawelo_sd = math.sqrt(max(0.0, fit.cov[m + 1][m + 1])) * ELO_PER_NAT if fit_draw else None
        out.fit = fit
        for i in rated:
            for j in rated:
                if i != j:
                    a, b = index[i], index[j]
                    var = fit.cov[a][a] + fit.cov[b][b] - 2 * fit.cov[a][b]
                    diff = fit.theta[a] - fit.theta[b]
                    out.los[(i, j)] = 0.5 * (1 + math.erf(diff / math.sqrt(2 * var))) if var > 0 else 0.5
    else:
        theta, full = [0.0] * m, [[0.0] * m for _ in range(m)]
    out.ratings = []
    for i in range(n):
        if i in index:
            k = index[i]
            elo = theta[k] * ELO_PER_NAT + 0.0
            if anchor is not None and i == anchor:
                out.ratings.append(Rating(i, elo, note="anchor"))
            elif m == 1:
                out.ratings.append(Rating(i, elo, note="rated alone"))
            else:
                half = z * math.sqrt(max(0.0, full[k][k])) * ELO_PER_NAT
                out.ratings.append(Rating(i, elo, elo - half, elo + half))
        elif i not in played:
            out.ratings.append(Rating(i, None, note="no games yet"))
        else:
            out.ratings.append(Rating(i, None, note=f"no path of games to {anchor_words}"))
    return out


def ratings(n, games, anchor=None, z=Z95, prior=PRIOR):
    """Ratings of engines 0..n-1 (a list of Rating, elo None: not rated); see `bayes`."""
    return bayes(n, games, anchor, z, prior).ratings
