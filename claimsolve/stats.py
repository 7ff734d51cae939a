"""The statistics every part shares: the Wilson interval of a mean of
results in [0, 1] (match scores, MCTS means, study proportions) and the
logistic Elo scale.  A leaf module: it imports nothing of claimsolve."""
import math

Z95 = 1.959963984540054


def wilson_interval(p, n):
    """95% interval of a mean `p` of `n` games' points: the Wilson score
    interval, which stays honest at 0% and 100% (a game's points lie in
    [0, 1]); (0, 1) before any game."""
    if n == 0:
        return (0.0, 1.0)
    denom = 1 + Z95 ** 2 / n
    centre = (p + Z95 ** 2 / (2 * n)) / denom
    half = Z95 * math.sqrt(max(0.0, p * (1 - p)) / n + Z95 ** 2 / (4 * n * n)) / denom
    low = 0.0 if p <= 0.0 else max(0.0, centre - half)       # (not 1e-18 from rounding)
    high = 1.0 if p >= 1.0 else min(1.0, centre + half)
    return (low, high)


def json_elo(x):
    """Elo for JSON: an infinite difference (a clean sweep) is null."""
    return None if x is None or math.isinf(x) else round(x, 1)


def elo(score):
    """The logistic Elo difference of a mean score; +-inf at 1 and 0."""
    if score <= 1e-9:
        return -math.inf
    if score >= 1.0 - 1e-9:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


def signed(value, digits):
    """`value` with its sign to `digits` decimals, never "-0.000": a
    difference that rounds to nothing reads +0.000 (an edge of -0.00004
    is no edge against the first player)."""
    text = f"{value:+.{digits}f}"
    return f"{0:+.{digits}f}" if float(text) == 0 else text
