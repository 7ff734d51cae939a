"""The Claim It! odds table (`claimsolve odds`): roll again or stop, with
what odds.

At a roll-or-stop decision the rows are plans for the rest of this turn:
"stop now", "roll once more, then stop", "roll up to k more times, then
stop", "follow the play-outs' policy" (the play-outs' fixed policy, not the
engine's analysis) and, when the exact turn optimum finished, "play the exact
turn optimum (secured)".  With `dice` set the rows are the legal placements,
each followed by the play-outs' policy.  Inside a
plan, placements follow the greedy rule (players.greedy_placement).

Columns: the chance that the turn ends in a stop rather than a bust; the
expected secured spaces, held spaces and largest-group size gained by the
turn; and the win chance (a tied win counted as its share) from Monte Carlo
play-outs of the rest of the game, every player following the engine's
playout policy, with a 95% confidence interval.  Every row uses the same
dice for sample i (common random numbers), so rows are compared pairwise.
The plans are played out in C (claimsolve.claimit.plans), the samples
added up as they go.  A time budget covers the whole table: the
play-outs stop when it is spent.

The bust probability is exact (the 216 ordered rolls enumerated), and so is
the turn optimum when it finishes (claimsolve.claimit.optimum).

The table recommends one decision, in its text, its JSON and its picture
alike: the learned win objective's where the net's weights fit the seat
count (shipped for 2 to 5 players), else the plans'; the plans check it,
and overrule it where they are over 99% sure it wins less than their own
choice (OddsResult.overruled).
"""
import time as _time
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import ClaimsolveError
from ..search.alphabeta import default_threads
from . import optimum as optimum_mod
from .plans import (DEFAULT_SAMPLES, PLACEMENT_POLICY, REST_OF_GAME, best_by_decision, best_decision_chances, decided,
                    named, plan_rows, shown_win, sure_of_best)

# seconds for the exact turn optimum (both objectives), without a budget: enough for the middle-game
# positions with three placements made this turn to finish (docs/benchmarks.md)
DEFAULT_TIME = 4.0
OPTIMUM_SHARE = 0.3          # of a budget (`time`): the exact turn optimum; the rest: the play-outs
RESERVE_SHARE = 0.02         # of a budget: kept for the table's arithmetic and printing


LEARNED = "learned win objective"      # who recommends (OddsResult.recommended_by)
MONTE_CARLO = "Monte Carlo plans"
# how sure the plans must be that the learned objective's decision wins less than their own choice to
# recommend theirs instead: "over 99% sure" as plans.sureness words it (from 0.995).  The net's search is
# cut short mid-game and its placements played 0.13 below MCTS's in matches (docs/findings.md), where the
# plans this sure agree with MCTS (docs/learning.md)
OVERRULE = 0.995


@dataclass
class OddsResult:
    """The table and what it recommends (`to_json()` is `odds --json`;
    claimsolve.render.odds_text draws it for people).

    One recommendation, the same in the text, the JSON and the picture
    (`recommended_by` says whose): the learned win objective's decision
    (turn_optimum["win"]) where the net's weights fit and its best value
    stands alone (to the 3 decimals shown) and the plans do not overrule
    it (`overruled`), else the Monte Carlo plans'.
    `margin`, `confidence`, `alternative` are the plans' check of it: the
    win chance of the recommendation's best plan minus that of the best
    plan that decides otherwise; the probability that it is the best of
    all the `candidates` decisions, each by its best plan (normal approx.
    of the plans' means with the covariance of their paired samples:
    plans.best_decision_chances; of two, the paired comparison, below 0.5
    where the plans prefer the other; of more, it may be below 0.5 where
    they prefer it too); and that best other plan's label; `monte_carlo`
    the plans' own preference, the same four figures of the decision of
    their best row.  They are worked out from the rows and the turn
    optimum whenever asked."""
    to_move: int
    mode: str                      # "roll or stop" | "must roll" (a turn's start: stop is not legal) | "placement"
    bust_rolls: int                # of the 216 ordered rolls, on the board as it stands
    rows: list
    turn_optimum: dict
    samples: int
    seed: int
    seconds: float = 0.0
    notes: dict = field(default_factory=dict)
    asked: int = None              # the play-outs asked for a row (`samples` those played: fewer where --time cut them)
    final_round: tuple = None      # (triggered_by, turns_left, this turn included) in the final round
    release_white: bool = False    # the variant: a black on a white sends the white back at once
    LEARNED = LEARNED              # (for the drawings, which do not import this module: start-up)
    MONTE_CARLO = MONTE_CARLO

    @property
    def bust_probability(self):
        return self.bust_rolls / 216.0

    @property
    def learned(self):
        """The learned win objective's decision, or None (no weights, or
        its best values equal as shown)."""
        win = self.turn_optimum.get(optimum_mod.WIN)
        return learned_choice(win["decisions"]) if win is not None and win.get("decisions") else None

    @property
    def monte_carlo(self):
        """The plans' own preference: {"recommendation", "margin",
        "confidence", "compared_with"} (the decision of the row with the
        best win chance, against the best row that decides otherwise)."""
        none = dict.fromkeys(("recommendation", "margin", "confidence", "compared_with"))
        if not any(r["win"] for r in self.rows):       # no play-out won: nothing to prefer by
            return none
        if self.alike is not None:                     # the best decisions win alike, as shown
            return none
        best = max(self.rows, key=lambda r: r["win"])
        return dict(zip(("recommendation", "margin", "confidence", "compared_with"),
                        _judged(self.rows, best["decision"])))

    @property
    def alike(self):
        """Where some play-out won but the plans prefer no decision: the
        decisions whose best plans win alike to the digits shown (a win
        chance in percent to 0.1), with that win chance, and whether every
        plan wins it: (decisions, win, every); else None."""
        if not any(r["win"] for r in self.rows):
            return None
        best = best_by_decision(self.rows)
        top = max(r["win"] for r in best.values()) if best else None
        tied = sorted(d for d, r in best.items() if shown_win(r["win"]) == shown_win(top))
        if len(tied) < 2:
            return None
        return tied, top, all(shown_win(r["win"]) == shown_win(top) for r in self.rows)

    @property
    def recommended_by(self):
        """LEARNED, MONTE_CARLO, or None where neither prefers a choice (the
        net values them alike, or has no weights, and no play-out won or
        the plans' best decisions win alike as shown: `alike`).  The plans
        recommend where they overrule the net (`overruled`)."""
        learned = self.learned
        if learned is not None and any(r["decision"] == learned for r in self.rows) and self.overruled is None:
            return LEARNED
        return MONTE_CARLO if self.monte_carlo["recommendation"] is not None else None

    @property
    def overruled(self):
        """Where the plans overrule the learned win objective: they prefer
        another decision and are over OVERRULE sure that the net's wins
        less than theirs (the paired comparison of the two, each by its
        best plan): {"learned": the net's decision, "by": the plans',
        "confidence": that the net's wins less, "margin": the plans'
        decision's win chance less the net's}; else None."""
        learned, theirs = self.learned, self.monte_carlo["recommendation"]
        if learned is None or theirs is None or theirs == learned:
            return None
        best = best_by_decision(self.rows)
        if learned not in best:
            return None
        sure = best_decision_chances(self.rows, [learned, theirs])[theirs]
        if sure <= OVERRULE:
            return None
        return {"learned": learned, "by": theirs, "confidence": sure,
                "margin": best[theirs]["win"] - best[learned]["win"]}

    @property
    def learned_tied(self):
        """The decisions the learned win objective values best, equal to
        the 3 decimals shown, where two or more share that value (the net
        then recommends none); else []."""
        win = self.turn_optimum.get(optimum_mod.WIN)
        if win is None or not win.get("decisions"):
            return []
        return tied_best(win["decisions"])

    @property
    def why_no_recommendation(self):
        """Why neither the net nor the plans recommend, in words (None where
        one does): no play-out won, or the best plans of two or more
        decisions win alike as shown ("roll and stop alike: every plan wins
        100.0% of its 6,000 play-outs"), what the net values them, and
        which of them to play if one must be (`tie_break`)."""
        if self.recommendation is not None:
            return None
        alike = self.alike
        if alike is None:
            return (f"no plan won any of its {self.samples:,} play-outs: player {self.to_move}'s win chance is "
                    f"under {100 * max(r['win_ci95'][1] for r in self.rows):.1f}% whatever he does here")
        decisions, win, every = alike
        who = "every plan wins" if every else "the best plan of each wins"
        why = f"{named(decisions)} alike: {who} {shown_win(win)}% of its {self.samples:,} play-outs"
        values = (self.turn_optimum.get(optimum_mod.WIN) or {}).get("decisions")
        if values and all(d in values for d in decisions):
            shown = [f"{values[d]:.3f}" for d in decisions]
            why += (f", and the net values each {shown[0]}" if len(set(shown)) == 1 else
                    ", the net values them " + ", ".join(f"{d} {v}" for d, v in zip(decisions, shown)))
        pick = self.tie_break
        if pick is None:
            return why + (": either will do" if len(decisions) == 2 else ": any of them will do")
        return why + f": to play one, {pick[0]}: {pick[1]}"

    @property
    def tie_break(self):
        """Where the plans' best decisions win alike as shown and nothing is
        recommended (`alike`): the one of them to play if one must be, and
        why, in words: the net's highest of them where it values one above
        the others as shown, else the one whose best plan wins more before
        rounding, with how sure the play-outs are that it is the best of
        them (each by its best plan); None where they win exactly alike
        (either will do)."""
        alike = self.alike
        if alike is None:
            return None
        decisions = alike[0]
        values = (self.turn_optimum.get(optimum_mod.WIN) or {}).get("decisions")
        if values and all(d in values for d in decisions):
            top = tied_best({d: values[d] for d in decisions})
            if not top:
                best = max(decisions, key=values.get)
                return best, "the net values it highest of them"
        best = best_by_decision(self.rows)
        ranked = sorted(decisions, key=lambda d: -best[d]["win"])
        first, second = best[ranked[0]], best[ranked[1]]
        if first["win"] == second["win"]:
            return None
        sure = best_decision_chances(self.rows, decisions)[ranked[0]]
        how = sure_of_best(sure, len(decisions)) if len(decisions) > 2 else f"{sure_of_best(sure, 2)} of it"
        return ranked[0], (f"its best plan wins {100 * (first['win'] - second['win']):.2f} percentage points more "
                           f"than {ranked[1]}'s before rounding, {how}")

    @property
    def recommendation(self):
        by = self.recommended_by
        return self.learned if by == LEARNED else self.monte_carlo["recommendation"] if by else None

    def _check(self):
        if self.recommendation is None:
            return (None,) * 4
        if not any(r["win"] for r in self.rows):      # no play-out won: the plans compare nothing
            return self.recommendation, None, None, None
        return _judged(self.rows, self.recommendation)

    @property
    def margin(self):
        return self._check()[1]

    @property
    def confidence(self):
        return self._check()[2]

    @property
    def alternative(self):
        return self._check()[3]

    @property
    def candidates(self):
        """The number of decisions `confidence` (and monte_carlo's) weighs
        the recommendation among: every decision of the rows; None where
        there is no confidence."""
        return None if self.confidence is None else len(decided(self.rows))

    def to_json(self):
        rows = []
        for row in self.rows:
            rows.append({k: (round(v, 6) if isinstance(v, float) else
                             [round(x, 6) for x in v] if k == "win_ci95" else v)
                         for k, v in row.items() if not k.startswith("_")})
        recommendation, margin, confidence, alternative = self._check()
        plans, overruled = self.monte_carlo, self.overruled
        return {
            "to_move": self.to_move,
            "mode": self.mode,
            "bust_probability": self.bust_probability,
            "bust_rolls": self.bust_rolls,
            "rows": rows,
            "recommendation": recommendation,
            "recommended_by": self.recommended_by,
            "overruled": (None if overruled is None else
                          {**overruled, "confidence": _rounded(overruled["confidence"]),
                           "margin": _rounded(overruled["margin"])}),
            "margin": _rounded(margin),
            "confidence": _rounded(confidence),
            "compared_with": alternative,
            "candidates": None if confidence is None else len(decided(self.rows)),
            "no_recommendation": self.why_no_recommendation,
            "monte_carlo": {**plans, "margin": _rounded(plans["margin"]),
                            "confidence": _rounded(plans["confidence"])},
            "turn_optimum": _round_optimum(self.turn_optimum),
            "samples": self.samples,
            "samples_asked": self.asked if self.asked is not None else self.samples,
            "seed": self.seed,
            "placement_policy": PLACEMENT_POLICY,
            "rest_of_game": REST_OF_GAME,
            "seconds": round(self.seconds, 4),
            "final_round": (None if self.final_round is None else
                            dict(zip(("triggered_by", "turns_left"), self.final_round))),
            "release_white": self.release_white,
        }


def _rounded(x):
    return None if x is None else round(x, 6)


def learned_choice(decisions):
    """The learned objective's decision, or None where the best are equal
    as shown (to 3 decimals): a tie recommends neither."""
    return None if tied_best(decisions) else max(decisions, key=decisions.get)


def tied_best(decisions):
    """The decisions of {decision: value} whose value is the best, equal as
    shown (to 3 decimals), in their order, where two or more are; else []."""
    best = max(decisions.values())
    tied = [m for m, v in decisions.items() if f"{v:.3f}" == f"{best:.3f}"]
    return tied if len(tied) > 1 else []


def _round_optimum(opt):
    out = {}
    for objective, entry in opt.items():
        e = dict(entry)
        e["value"] = round(e["value"], 9)
        e["decisions"] = {m: round(v, 9) for m, v in e["decisions"].items()}
        for part in ("lower_bound", "monte_carlo"):
            if e.get(part):
                b = dict(e[part])
                b["value"] = round(b["value"], 9)
                b["decisions"] = {m: round(v, 9) for m, v in b["decisions"].items()}
                e[part] = b
        out[objective] = e
    return out


def odds(position, samples=DEFAULT_SAMPLES, seed=0, time=None, progress=None, optimum_time=None,
         hash_mb=optimum_mod.DEFAULT_MEMORY_MB, threads=None):
    """The odds table of a Claim It! position (cli.md `odds`).

    `time` is the whole call's wall-clock budget in seconds: the exact turn
    optimum gets OPTIMUM_SHARE of it (a share per objective), the play-outs
    stop when the rest is spent but for the learned objective's share
    (after plans.MIN_SAMPLES per row at least; the result's `samples` says
    how many were played, at most `samples`), and the learned objective
    gets what is left, at least its share (the play-outs often finish
    early: it had its share alone, less than without `time`).  Without `time` the optimum
    gets DEFAULT_TIME and every sample is played, so that a seed gives the
    same table on any machine.  `optimum_time` sets the optimum's seconds
    apart, `hash_mb` the size of its table per objective, `threads` (1 or
    2) its threads (None: the cores this process may run on, at most 2,
    as search.alphabeta.default_threads says; the values are the same on
    one or two, the turn states counted vary from run to run on two, and
    more searches finish within the budget there); the play-outs run on
    one.  Ctrl-C raises KeyboardInterrupt within about 0.1 s."""
    if position.is_over():
        raise ClaimsolveError("odds: the game is over, there is nothing to decide")
    started = _time.monotonic()
    if samples is None:
        samples = DEFAULT_SAMPLES
    if optimum_time is None:
        optimum_time = DEFAULT_TIME if time is None else time * OPTIMUM_SHARE
    end = None if time is None else started + time * (1 - RESERVE_SHARE)
    if threads is None:
        threads = default_threads()
    weights = optimum_mod.win_weights(position)
    shares = len(optimum_mod.OBJECTIVES) + (weights is not None)
    solved = {objective: optimum_mod.solve(position, objective, optimum_time / shares, hash_mb, threads)
              for objective in optimum_mod.OBJECTIVES}
    replayable = solved["secured"]["exact"] and "rolls_limit" not in solved["secured"]
    solver = optimum_mod.solver_for(position, "secured", hash_mb) if replayable else None
    # the play-outs leave the learned objective its share at least (with a budget)
    win_share = optimum_time / shares if weights is not None else 0.0
    rows = plan_rows(position, samples, seed, rest_of_game=True, progress=progress, solver=solver,
                     deadline=None if end is None else end - win_share)
    if weights is not None:
        # the learned objective, which the recommendation follows, last: with a budget it gets
        # whatever the play-outs left (they often finish early), at least its share; exact, or the
        # deepest depth-limited search (depth 1 always finishes)
        win_time = win_share if end is None else max(win_share, end - _time.monotonic())
        solved[optimum_mod.WIN] = optimum_mod.solve_win(position, win_time)
        solved[optimum_mod.WIN]["weights"] = Path(weights).name
    if position.dice is not None:
        # the placements ranked by win chance (the optimum row, if any, last)
        placements = sorted((r for r in rows if r["plan"] != "optimum"), key=lambda r: -r["win"])
        rows = placements + [r for r in rows if r["plan"] == "optimum"]
    if solver is not None:
        decisions = solved["secured"]["decisions"]
        rows[-1]["decision"] = max(decisions, key=decisions.get)
    turn_optimum = {}
    for objective in optimum_mod.OBJECTIVES:
        if solved[objective]["exact"]:
            turn_optimum[objective] = solved[objective]
        else:
            turn_optimum[objective] = optimum_mod.fallback(position, objective, rows, solved[objective])
    if optimum_mod.WIN in solved:
        # the net's estimate, searched over the whole rest of the turn or not: never a proven value
        win = solved[optimum_mod.WIN]
        turn_optimum[optimum_mod.WIN] = dict(win, whole_turn=win["exact"], exact=False)
    return OddsResult(
        to_move=position.to_move,
        mode=("placement" if position.dice is not None else "roll or stop" if position.turn_in_progress()
              else "must roll"),
        bust_rolls=position.engine_game().bust_rolls(position.engine_state().state_bytes()),
        rows=rows, turn_optimum=turn_optimum, samples=rows[0]["_samples"], seed=seed,
        seconds=_time.monotonic() - started, asked=samples,
        final_round=None if position.final_round is None else tuple(position.final_round),
        release_white=bool(position.release_white))


def _judged(rows, decision):
    """(decision, margin, confidence, compared_with) by the plans: the win
    chance of the best row deciding `decision` minus that of the best row
    deciding otherwise, the probability that `decision` is the best of
    every decision of the rows, each by its best row
    (best_decision_chances: not only better than the next: the highest of
    several noisy rows is not as sure to be the best as its lead over the
    next suggests), and the second's label; (decision, None, None, None)
    where no row decides otherwise (a forced decision)."""
    ranked = sorted(rows, key=lambda r: -r["win"])
    ours = next(r for r in ranked if r["decision"] == decision)
    others = [r for r in ranked if r["decision"] not in (decision, None)]
    if not others:
        return decision, None, None, None
    confidence = best_decision_chances(rows)[decision]
    return decision, ours["win"] - others[0]["win"], confidence, others[0]["label"]
