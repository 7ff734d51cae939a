"""Ratings of a round robin (`study ladder`): Elo-scale strengths fitted
to every game at once, with 95% intervals, one player held at 0.

The model.  A game at a table of k seats has one winner, or a win shared
among several (each gets the same part of the 1 point).  The chance that
seat s wins is Luce's choice model (Plackett-Luce's first place), the
Bradley-Terry model extended to k players:

    P(seat s wins) = 10^(R_s / 400) / sum over the table's seats t of 10^(R_t / 400)

with R the Elo rating of the spec in the seat.  At 2 seats it is the Elo
formula: 200 points more score 0.76 a game.  A shared win is fractional
data: a game in which seats s and t share the win counts half an
observation "s won" and half "t won" (at 2 seats: half a point each, as
a draw counts in Elo).  The games say who won, not the order of the
others, so the first place is all the model uses; it needs no guess about
the losers (a pairwise split of each table would count two losers as
drawn, which they were not, and count each game k - 1 times).  The seats
carry no term of their own: every seating of a table is played equally
often (the round robin rotates them), so the first mover's edge falls
equally on every spec.

The fit maximises the posterior: the likelihood of all the games times a
prior of one drawn game between every two specs (as BayesElo does), which
keeps a spec that won every game at a finite rating and moves well-measured
ratings by a fraction of a point.  The 95% interval of each rating is
R +- 1.96 standard errors from the Hessian of the log posterior at its
maximum, the anchor held at 0 (the Laplace approximation): an interval of
the rating relative to the anchor.  A parametric bootstrap was the other
choice; the Hessian costs one fit instead of hundreds and, checked on
simulated tournaments (tests/study/test_ladder.py), covers the true ratings
as often as it should.

Why scipy and not choix: choix fits the same model (`opt_top1`,
`ilsr_rankings`) but takes no fractional outcomes (shared wins), no prior
of drawn games and gives no intervals; the likelihood, its gradient and
its Hessian are a few lines of numpy, and scipy's trust-region Newton
(`trust-exact`) maximises it.  choix needs scipy itself, so this is the
smaller dependency; the tests check the fit against choix where both apply.
"""
import math

import numpy as np

ELO = 400 / math.log(10)        # Elo points per unit of the natural log-strength
Z95 = 1.959963984540054         # the normal distribution's 97.5% point
PRIOR_DRAWS = 1.0               # virtual drawn games between every two specs


def table_counts(specs, rows):
    """The games summed up by table: (seats, points, games), numpy arrays of
    one row per table played (a multiset of specs): the seats each spec
    held there, the points it scored there in all, and the games played
    there.  `rows` are the study's rows (`seating`, `points`)."""
    index = {spec: i for i, spec in enumerate(specs)}
    tables = {}
    for row in rows:
        seats = [0] * len(specs)
        for spec in row["seating"]:
            seats[index[spec]] += 1
        entry = tables.setdefault(tuple(seats), [[0.0] * len(specs), 0])
        for spec, p in zip(row["seating"], row["points"]):
            entry[0][index[spec]] += p
        entry[1] += 1
    keys = list(tables)
    n = len(specs)
    return (np.array(keys, dtype=float).reshape(-1, n),
            np.array([tables[key][0] for key in keys], dtype=float).reshape(-1, n),
            np.array([tables[key][1] for key in keys], dtype=float))


def _with_prior(seats, points, n, prior):
    """The virtual drawn games: one 2-seat table of every two specs, `prior`
    games drawn."""
    pairs = [(i, j) for i in range(n) for j in range(i + 1, n)]
    if not prior or not pairs:
        return seats, points
    extra_seats = np.zeros((len(pairs), n))
    for row, (i, j) in enumerate(pairs):
        extra_seats[row, [i, j]] = 1.0
    return np.vstack([seats, extra_seats]), np.vstack([points, extra_seats * prior / 2])


def _terms(theta, seats, points):
    """The log posterior, its gradient and its Hessian at log-strengths
    `theta` (each table's points sum to its weight: games with a winner)."""
    weight = points.sum(axis=1)
    shifted = theta - theta.max()
    strength = seats * np.exp(shifted)                      # each table: seats x strength
    total = strength.sum(axis=1)
    share = strength / total[:, None]                       # each spec's chance of winning there
    value = float((points @ theta).sum() - (weight * (np.log(total) + theta.max())).sum())
    gradient = points.sum(axis=0) - weight @ share
    hessian = -(np.diag(weight @ share) - (share * weight[:, None]).T @ share)
    return value, gradient, hessian


def fit(specs, seats, points, anchor=0, prior=PRIOR_DRAWS):
    """Elo ratings of `specs` from tables (`table_counts`), the spec at index
    `anchor` held at 0: {"ratings": [...], "se": [...], "ci95": [[lo, hi]],
    "converged": bool}, in Elo points."""
    from scipy.optimize import minimize     # deferred: only a ladder's report fits

    n = len(specs)
    seats, points = _with_prior(np.asarray(seats, float), np.asarray(points, float), n, prior)
    free = [i for i in range(n) if i != anchor]

    def full(x):
        theta = np.zeros(n)
        theta[free] = x
        return theta

    scale = max(1.0, float(points.sum()))     # per game: the tolerance is relative to the games

    def objective(x):
        value, gradient, _ = _terms(full(x), seats, points)
        return -value / scale, -gradient[free] / scale

    def hessian(x):
        return -_terms(full(x), seats, points)[2][np.ix_(free, free)] / scale

    result = minimize(objective, np.zeros(len(free)), jac=True, hess=hessian, method="trust-exact",
                      options={"gtol": 1e-8, "maxiter": 200})
    # trust-exact can stop at the maximum saying it cannot improve on it (rounding): the gradient decides
    converged = bool(result.success or np.abs(result.jac).max(initial=0.0) < 1e-6)
    theta = full(result.x)
    information = hessian(result.x) * scale
    try:
        covariance = np.linalg.inv(information)
        se_free = np.sqrt(np.clip(np.diag(covariance), 0, None))
    except np.linalg.LinAlgError:           # no game links some spec to the others
        se_free = np.full(len(free), np.inf)
    se = np.zeros(n)
    se[free] = se_free
    ratings = ELO * theta
    errors = ELO * se
    return {"ratings": [float(r) for r in ratings], "se": [float(e) for e in errors],
            "ci95": [[float(r - Z95 * e), float(r + Z95 * e)] for r, e in zip(ratings, errors)],
            "converged": converged}

