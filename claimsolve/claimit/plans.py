"""The plans of the rest of a Claim It! turn, played out in C: the rows of
the odds table (claimsolve.claimit.odds) and the Monte Carlo estimate the
turn optimum (claimsolve.claimit.optimum) falls back on.

At a roll-or-stop decision the plans are "stop now", "roll once more, then
stop", "roll up to k more times, then stop" (at a turn's start, where stop is
not legal yet: "roll (the turn's compulsory first roll), then stop", "roll
up to k times (the first compulsory), then stop"), "follow the play-outs'
policy" (the fixed playout policy every play-out follows, not the engine a
player consults: it may stop where the recommendation rolls), and, given the
exact turn optimum's solver, "play the exact turn optimum (secured)"; with
`dice` set they are the legal placements, each followed by the play-outs'
policy.  Inside a plan, placements follow the greedy rule
(PLACEMENT_POLICY).  Every plan uses the same dice for sample i (common
random numbers), so plans are compared pairwise.  One call to C
(claimsolve._claimit) plays them all (twenty chunks when a progress display
is given; the samples are the same) and adds the samples up as it goes
(memory stays flat however many).
"""
import math
import time as _time

from ..errors import ClaimsolveError
from ..stats import Z95, wilson_interval

DEFAULT_SAMPLES = 6000       # per row: a mid-game table in a second or two (docs/benchmarks.md)
MIN_SAMPLES = 100            # play-outs per row however small the budget (fewer when fewer are asked)
MAX_MORE_ROLLS = 4
RARE = 10                    # wins (or losses) below which a row's interval is Wilson's, not the normal one
PLACEMENT_POLICY = ("greedy: a black marker on your own colour first, then a black on a white marker, "
                    "then a white on an opponent's space, then a white on an empty space; among equals "
                    "the one touching most of your spaces, then the lowest space")
REST_OF_GAME = "every player follows the play-outs' policy"
BEST_OF_DRAWS = 100_000      # draws of the plans' true means (_Tally.best_of): a probability to +-0.0016 (1 s.e.)
BEST_OF_SEED = 20261207      # ... always the same ones: a table says the same however often it is asked

_PLAN = {"stop": 0, "roll": 1, "policy": 2, "place": 3, "optimum": 4}


def _roll_label(k, first=False):
    """The plan "roll k more times, then stop"; `first`: at a turn's start,
    where the first of the k rolls is the turn's compulsory one."""
    if first:
        return ("roll (the turn's compulsory first roll), then stop" if k == 1 else
                f"roll up to {k} times (the first compulsory), then stop")
    if k == 1:
        return "roll once more, then stop"
    return f"roll up to {k} more times, then stop"


def plans_for(position, with_optimum=False):
    """[(plan id, label, first decision, (kind, arg))] for this position."""
    plans = []
    if position.dice is not None:
        for move in position.legal_moves():
            plans.append((f"place:{move}", f"{move}, then the play-outs' policy", move,
                          (_PLAN["place"], position.move_code(move))))
    else:
        if position.turn_in_progress():
            plans.append(("stop", "stop now", "stop", (_PLAN["stop"], 0)))
        for k in range(1, MAX_MORE_ROLLS + 1):
            plans.append((f"roll:{k}", _roll_label(k, first=not position.turn_in_progress()), "roll",
                          (_PLAN["roll"], k)))
        rolls = position.engine_game().policy_rolls(position.engine_state().state_bytes())
        plans.append(("policy", "follow the play-outs' policy", "roll" if rolls else "stop",
                      (_PLAN["policy"], 0)))
    if with_optimum:
        plans.append(("optimum", "play the exact turn optimum (secured)", None, (_PLAN["optimum"], 0)))
    return plans


class _Tally:
    """The samples of every plan added up (plan_tally sums them in C: memory
    stays flat however many samples are asked for)."""

    def __init__(self, plans):
        self.n = 0
        self.sums = [[0.0] * 5 for _ in range(plans)]
        self.cross = [[0.0] * plans for _ in range(plans)]   # sums of reward_j * reward_k
        self._best = {}                                      # best_of's answers, by (samples, plans)

    def add(self, part):
        self.n += part["samples"]
        for mine, theirs in zip(self.sums + self.cross, part["sums"] + part["cross"]):
            for i, value in enumerate(theirs):
                mine[i] += value

    def mean(self, j, field):
        return self.sums[j][field] / self.n

    def mean_ci(self, j):
        """The mean reward of plan j and its 95% interval: the normal one on
        the rewards' own spread, or, where the play-outs hold too few wins
        or too few losses for it (fewer than RARE, in wins' worth of
        reward: none in 6,000 has a spread of 0; one in 6,000 gave
        0-0.05%, below the 0-0.06% of none), the Wilson interval, which
        stays honest there (rewards lie in [0, 1]: it is the wider)."""
        n = self.n
        mean = self.sums[j][4] / n
        var = max(0.0, (self.cross[j][j] - n * mean * mean) / (n - 1)) if n > 1 else 0.0
        if var <= 1e-12 or n * min(mean, 1.0 - mean) < RARE:
            return mean, wilson_interval(mean, n)
        half = Z95 * math.sqrt(var / n)
        return mean, (max(0.0, mean - half), min(1.0, mean + half))

    def paired(self, j, k):
        """Mean of reward_j - reward_k and the probability (normal
        approximation) that the true mean difference is positive."""
        n = self.n
        mean = (self.sums[j][4] - self.sums[k][4]) / n
        square = self.cross[j][j] - 2 * self.cross[j][k] + self.cross[k][k]
        var = (square - n * mean * mean) / (n - 1) if n > 1 else 0.0
        if var <= 1e-12 * max(1.0, square) / n:       # every difference the same
            return mean, 1.0 if mean > 0 else 0.0 if mean < 0 else 0.5
        se = math.sqrt(var / n)
        return mean, 0.5 * (1.0 + math.erf(mean / se / math.sqrt(2.0)))

    def best_of(self, plans):
        """For candidates each played by one plan (plan indices): the
        probability of each that its true mean reward is the highest of
        them all, as a list.  The plans' mean rewards are taken as normal
        with the covariance the samples give (their sums and cross
        products: the same dice for every plan), and BEST_OF_DRAWS draws of
        them, always the same ones (BEST_OF_SEED), are counted; a draw where
        plans share the highest value is shared between them.  Where the
        one picked is the highest of several noisy ones, this is how sure to
        be that it is the best of them all: its lead over the next alone
        says surer than that (six placements worth exactly the same, the
        highest "72% sure" better than the next).  Of two plans: the paired
        comparison (`paired`), exactly."""
        key = (self.n, tuple(plans))
        if key not in self._best:
            self._best[key] = self._best_of(list(plans))
        return list(self._best[key])

    def _best_of(self, plans):
        if len(plans) == 1:
            return [1.0]
        if len(plans) == 2:
            sure = self.paired(plans[0], plans[1])[1]
            return [sure, 1.0 - sure]
        import numpy as np                        # (here: the tables' start-up does without it)

        n = self.n
        mean = np.array([self.sums[j][4] for j in plans]) / n
        cross = np.array([[self.cross[j][k] for k in plans] for j in plans])
        # the covariance of the mean rewards: that of one sample's rewards, over n
        cov = (cross - n * np.outer(mean, mean)) / (n - 1) / n if n > 1 else np.zeros_like(cross)
        values, vectors = np.linalg.eigh((cov + cov.T) / 2)
        factor = vectors * np.sqrt(np.clip(values, 0.0, None))
        # plans closer than this in a draw are level (the same rewards in every sample)
        level = 1e-9 * max(1e-12, float(np.sqrt(max(0.0, cov.diagonal().max()))))
        rng = np.random.default_rng(BEST_OF_SEED)
        won = np.zeros(len(plans))
        chunk = 20_000
        for first in range(0, BEST_OF_DRAWS, chunk):
            draws = mean + rng.standard_normal((min(chunk, BEST_OF_DRAWS - first), len(plans))) @ factor.T
            top = draws >= draws.max(axis=1, keepdims=True) - level
            won += (top / top.sum(axis=1, keepdims=True)).sum(axis=0)
        return [float(w) / BEST_OF_DRAWS for w in won]

def plan_rows(position, samples=DEFAULT_SAMPLES, seed=0, rest_of_game=True, progress=None, solver=None,
              deadline=None):
    """Runs every plan `samples` times in C; the rows of the table (dicts).
    With `deadline` (a time.monotonic() reading) the samples stop when it
    passes, after MIN_SAMPLES of them at least: "_samples" of a row says how
    many were played.  The samples are the same however the work is cut
    (twenty chunks when a progress display is given)."""
    if position.is_over():
        raise ClaimsolveError("odds: the game is over")
    if samples < 2:
        raise ClaimsolveError("option '--samples': at least 2")
    plans = plans_for(position, with_optimum=solver is not None)
    game = position.engine_game()
    state = position.engine_state().state_bytes()
    specs = [spec for _, _, _, spec in plans]
    step = samples if progress is None else max(1, samples // 20)
    floor = min(samples, MIN_SAMPLES)
    tally = _Tally(len(plans))
    started = _time.monotonic()
    first = 0
    while first < samples:
        last = min(samples, first + step)
        max_seconds = -1.0
        if deadline is not None:
            if first < floor:
                last = min(last, floor)       # these whatever the budget
            else:
                max_seconds = max(0.0, deadline - _time.monotonic())
        part = game.plan_tally(state, specs, first, last, seed, rest_of_game, solver, max_seconds)
        tally.add(part)
        first += part["samples"]
        if progress is not None:
            progress({"samples": f"{first}/{samples}", "rows": len(plans),
                      "seconds": round(_time.monotonic() - started, 1)})
        if first < last:
            break                             # the budget ran out
    rows = []
    for j, (plan_id, label, decision, _) in enumerate(plans):
        row = {
            "plan": plan_id,
            "label": label,
            "decision": decision,
            "survive": tally.mean(j, 0),
            "secured_gain": tally.mean(j, 1),
            "held_gain": tally.mean(j, 2),
            "group_gain": tally.mean(j, 3),
            "_samples": tally.n,
        }
        if rest_of_game:
            win, ci = tally.mean_ci(j)
            row["win"] = win
            row["win_ci95"] = [ci[0], ci[1]]
            row["_tally"] = (tally, j)
        rows.append(row)
    return rows


def shown_win(x):
    """A win chance as the table shows it: in percent, to 0.1."""
    return f"{100 * x:.1f}"


def sureness(confidence):
    """A Monte Carlo comparison's confidence in words: "58% sure"; never
    "100% sure" nor "0% sure" (a sample that never differs is still a
    sample): "over 99% sure" from 0.995 up, "under 1% sure" below 0.01."""
    if confidence >= 0.995:
        return "over 99% sure"
    return "under 1% sure" if confidence < 0.01 else f"{100 * confidence:.0f}% sure"


def sure_of_best(confidence, candidates):
    """How sure the plans are that a choice is the best of `candidates`
    choices, in words: "61% sure it is the best of the 6"; of two, the
    comparison alone: "72% sure" (sureness)."""
    words = sureness(confidence)
    return words if candidates <= 2 else f"{words} it is the best of the {candidates}"


def decided(rows):
    """The decisions of the rows, each once, in the rows' order (a row that
    decides nothing left out)."""
    return list(dict.fromkeys(row["decision"] for row in rows if row.get("decision") is not None))


def best_decision_chances(rows, decisions=None):
    """{decision: the probability that its best row is the best of those
    of `decisions` (default: every decision of the rows)}: each decision
    is the row that shows its figure, its highest win chance
    (best_by_decision), and these are weighed against each other
    (_Tally.best_of: the same samples); of two decisions, the paired
    comparison of their best rows."""
    best = best_by_decision(rows)
    decisions = decided(rows) if decisions is None else list(decisions)
    tally = best[decisions[0]]["_tally"][0]
    return dict(zip(decisions, tally.best_of([best[d]["_tally"][1] for d in decisions])))


def named(decisions):
    """Decisions in words: "a", "a and b", "a, b and c"."""
    return " and ".join(decisions) if len(decisions) < 3 else ", ".join(decisions[:-1]) + f" and {decisions[-1]}"


def best_by_decision(rows):
    """Each decision's best row (the highest win chance): {decision: row}."""
    best = {}
    for row in rows:
        decision = row.get("decision")
        if decision is not None and (decision not in best or row["win"] > best[decision]["win"]):
            best[decision] = row
    return best
