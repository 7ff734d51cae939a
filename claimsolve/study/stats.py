"""The statistics of study reports: proportions with Wilson intervals, Elo,
and the sequential probability ratio test of `study match --sprt`."""
import math

from ..stats import elo, json_elo, wilson_interval

__all__ = ["wilson_interval", "proportion", "elo", "json_elo", "score_of_elo", "sprt_llr", "sprt_bounds", "sprt_decision"]


def proportion(k, n):
    """{count, share, ci95} of k in n (Wilson 95%)."""
    share = k / n if n else 0.0
    lo, hi = wilson_interval(share, n)
    return {"count": k, "share": round(share, 4), "ci95": [round(lo, 4), round(hi, 4)]}


def mean_points(total, n):
    """{games, points, mean, ci95} of points in [0, 1] over n games."""
    mean = total / n if n else 0.0
    lo, hi = wilson_interval(mean, n)
    return {"games": n, "points": round(total, 4), "mean": round(mean, 4), "ci95": [round(lo, 4), round(hi, 4)]}


def score_of_elo(difference):
    return 1.0 / (1.0 + 10.0 ** (-difference / 400.0))


# The SPRT prior: one win, one draw and one loss are counted with the games,
# so that a handful of early games cannot decide (a clean sweep of three
# games has no variance at all).
PRIOR = (1, 1, 1)


def sprt_llr(wins, draws, losses, elo0, elo1):
    """The log-likelihood ratio of H1 (Elo difference elo1) against H0
    (elo0) after `wins`, `draws`, `losses` of A: the generalized SPRT of
    chess engine testing (fishtest), in its normal approximation on the
    logistic Elo scale:

        LLR = N (s1 - s0) (2 x - s0 - s1) / (2 var)

    with x the mean score, var its per-game variance and s0, s1 the
    scores the two Elo bounds expect (PRIOR added to the counts)."""
    w, d, l = wins + PRIOR[0], draws + PRIOR[1], losses + PRIOR[2]
    n = w + d + l
    x = (w + d / 2) / n
    var = (w * (1 - x) ** 2 + d * (0.5 - x) ** 2 + l * x ** 2) / n
    s0, s1 = score_of_elo(elo0), score_of_elo(elo1)
    return n * (s1 - s0) * (2 * x - s0 - s1) / (2 * var)


def sprt_bounds(alpha, beta):
    """(lower, upper): accept H0 at or below lower, H1 at or above upper
    (Wald's bounds for error rates alpha and beta)."""
    return math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)


def sprt_decision(wins, draws, losses, elo0, elo1, alpha=0.05, beta=0.05):
    """{llr, lower, upper, decision}: decision "H1" (A is better by elo1 or
    more), "H0" (by elo0 or less) or None (play on)."""
    llr = sprt_llr(wins, draws, losses, elo0, elo1)
    lower, upper = sprt_bounds(alpha, beta)
    decision = "H1" if llr >= upper else "H0" if llr <= lower else None
    return {"llr": round(llr, 3), "lower": round(lower, 3), "upper": round(upper, 3), "decision": decision,
            "elo0": elo0, "elo1": elo1, "alpha": alpha, "beta": beta}
