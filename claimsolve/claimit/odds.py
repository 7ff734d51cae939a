"""The Claim It! odds table (`claimsolve odds`): roll again or stop, with
what odds.

At a roll-or-stop decision the rows are plans for the rest of this turn:
"stop now", "roll once more, then stop", "roll up to k more times, then
stop", "follow the engine's policy" (and, when the exact turn optimum
finished, "play the exact turn optimum (secured)").  With `dice` set the rows
are the legal placements, each followed by the engine's policy.  Inside a
plan, placements follow the greedy rule (players.greedy_placement).

Columns: the chance that the turn ends in a stop rather than a bust; the
expected secured spaces, held spaces and largest-group size gained by the
turn; and the win chance (a tied win counted as its share) from Monte Carlo
play-outs of the rest of the game, every player following the engine's
playout policy, with a 95% confidence interval.  Every row uses the same
dice for sample i (common random numbers), so rows are compared pairwise.
All of it runs in C (claimsolve._claimit): one call per table (twenty
chunks when a progress display is given; the samples are the same).

The bust probability is exact (the 216 ordered rolls enumerated), and so is
the turn optimum when it finishes (claimsolve.claimit.optimum).
"""
import math
import time as _time
from dataclasses import dataclass, field

from ..errors import ClaimsolveError
from . import optimum as optimum_mod

DEFAULT_SAMPLES = 6000       # per row: a mid-game table in about 1.2 s (benchmarks/bench_claimit.py)
DEFAULT_TIME = 0.5           # seconds for the exact turn optimum (both objectives)
MAX_MORE_ROLLS = 4
Z95 = 1.959963984540054
PLACEMENT_POLICY = ("greedy: a black marker on your own colour first, then a black on a white marker, "
                    "then a white on an opponent's space, then a white on an empty space; among equals "
                    "the one touching most of your spaces, then the lowest space")
REST_OF_GAME = "every player follows the engine's playout policy"

_PLAN = {"stop": 0, "roll": 1, "policy": 2, "place": 3, "optimum": 4}


def _roll_label(k):
    if k == 1:
        return "roll once more, then stop"
    return f"roll up to {k} more times, then stop"


def plans_for(position, with_optimum=False):
    """[(plan id, label, first decision, (kind, arg))] for this position."""
    plans = []
    if position.dice is not None:
        for move in position.legal_moves():
            plans.append((f"place:{move}", f"{move}, then the engine's policy", move,
                          (_PLAN["place"], position.move_code(move))))
    else:
        if position.turn_in_progress():
            plans.append(("stop", "stop now", "stop", (_PLAN["stop"], 0)))
        for k in range(1, MAX_MORE_ROLLS + 1):
            plans.append((f"roll:{k}", _roll_label(k), "roll", (_PLAN["roll"], k)))
        rolls = position.engine_game().policy_rolls(position.engine_state().state_bytes())
        plans.append(("policy", "follow the engine's policy", "roll" if rolls else "stop",
                      (_PLAN["policy"], 0)))
    if with_optimum:
        plans.append(("optimum", "play the exact turn optimum (secured)", None, (_PLAN["optimum"], 0)))
    return plans


def _mean_ci(values):
    n = len(values)
    mean = sum(values) / n
    var = sum((v - mean) ** 2 for v in values) / (n - 1) if n > 1 else 0.0
    half = Z95 * math.sqrt(var / n)
    return mean, (max(0.0, mean - half), min(1.0, mean + half))


def _paired(a, b):
    """Mean of a - b and the probability (normal approximation) that the true
    mean difference is positive."""
    n = len(a)
    diffs = [x - y for x, y in zip(a, b)]
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1) if n > 1 else 0.0
    se = math.sqrt(var / n)
    if se == 0.0:
        return mean, 1.0 if mean > 0 else 0.5
    return mean, 0.5 * (1.0 + math.erf(mean / se / math.sqrt(2.0)))


def plan_rows(position, samples=DEFAULT_SAMPLES, seed=0, rest_of_game=True, progress=None, solver=None):
    """Runs every plan `samples` times in C; the rows of the table (dicts),
    each with its per-sample rewards under "_rewards"."""
    if position.is_over():
        raise ClaimsolveError("odds: the game is over")
    if samples < 2:
        raise ClaimsolveError("option '--samples': at least 2")
    plans = plans_for(position, with_optimum=solver is not None)
    game = position.engine_game()
    state = position.engine_state().state_bytes()
    specs = [spec for _, _, _, spec in plans]
    chunks = [(0, samples)]
    if progress is not None:
        step = max(1, samples // 20)
        chunks = [(a, min(samples, a + step)) for a in range(0, samples, step)]
    data = [[[] for _ in range(5)] for _ in plans]
    started = _time.monotonic()
    for first, last in chunks:
        part = game.plan_samples(state, specs, first, last, seed, rest_of_game, solver)
        for j, columns in enumerate(part):
            for f in range(5):
                data[j][f].extend(columns[f])
        if progress is not None:
            progress({"samples": f"{last}/{samples}", "rows": len(plans),
                      "seconds": round(_time.monotonic() - started, 1)})
    rows = []
    for (plan_id, label, decision, _), columns in zip(plans, data):
        survived, secured, held, group, reward = columns
        n = len(survived)
        row = {
            "plan": plan_id,
            "label": label,
            "decision": decision,
            "survive": sum(survived) / n,
            "secured_gain": sum(secured) / n,
            "held_gain": sum(held) / n,
            "group_gain": sum(group) / n,
        }
        if rest_of_game:
            win, ci = _mean_ci(reward)
            row["win"] = win
            row["win_ci95"] = [ci[0], ci[1]]
            row["_rewards"] = reward
        rows.append(row)
    return rows


@dataclass
class OddsResult:
    """The table and what it recommends (`to_json()` is `odds --json`)."""
    to_move: int
    mode: str                      # "roll or stop" | "placement"
    bust_rolls: int                # of the 216 ordered rolls, on the board as it stands
    rows: list
    recommendation: str
    margin: float                  # win chance of the recommendation minus the best alternative
    confidence: float              # probability (normal approx., paired samples) that it is better
    alternative: str               # the best alternative compared against
    turn_optimum: dict
    samples: int
    seed: int
    seconds: float = 0.0
    notes: dict = field(default_factory=dict)

    @property
    def bust_probability(self):
        return self.bust_rolls / 216.0

    def render(self, color=False):
        """The table for people (claimsolve.render.claimit.render_odds)."""
        from ..render.claimit import render_odds
        return render_odds(self, color=color)

    def to_json(self):
        rows = []
        for row in self.rows:
            rows.append({k: (round(v, 6) if isinstance(v, float) else
                             [round(x, 6) for x in v] if k == "win_ci95" else v)
                         for k, v in row.items() if not k.startswith("_")})
        return {
            "to_move": self.to_move,
            "mode": self.mode,
            "bust_probability": self.bust_probability,
            "bust_rolls": self.bust_rolls,
            "rows": rows,
            "recommendation": self.recommendation,
            "margin": None if self.margin is None else round(self.margin, 6),
            "confidence": None if self.confidence is None else round(self.confidence, 6),
            "compared_with": self.alternative,
            "turn_optimum": _round_optimum(self.turn_optimum),
            "samples": self.samples,
            "seed": self.seed,
            "placement_policy": PLACEMENT_POLICY,
            "rest_of_game": REST_OF_GAME,
            "seconds": round(self.seconds, 4),
        }


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


def odds(position, samples=DEFAULT_SAMPLES, seed=0, time=DEFAULT_TIME, progress=None):
    """The odds table of a Claim It! position (cli.md `odds`)."""
    if position.is_over():
        raise ClaimsolveError("odds: the game is over, there is nothing to decide")
    if time is None:
        time = DEFAULT_TIME
    started = _time.monotonic()
    solved = {objective: optimum_mod.solve(position, objective, time / 2)
              for objective in optimum_mod.OBJECTIVES}
    replayable = solved["secured"]["exact"] and "rolls_limit" not in solved["secured"]
    solver = optimum_mod.solver_for(position, "secured") if replayable else None
    rows = plan_rows(position, samples, seed, rest_of_game=True, progress=progress, solver=solver)
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
            turn_optimum[objective] = optimum_mod.fallback(position, objective, rows, solved[objective], time / 2)
    recommendation, margin, confidence, alternative = _recommend(position, rows)
    return OddsResult(
        to_move=position.to_move,
        mode="placement" if position.dice is not None else "roll or stop",
        bust_rolls=position.engine_game().bust_rolls(position.engine_state().state_bytes()),
        rows=rows, recommendation=recommendation, margin=margin, confidence=confidence,
        alternative=alternative, turn_optimum=turn_optimum, samples=samples, seed=seed,
        seconds=_time.monotonic() - started)


def _recommend(position, rows):
    """The decision of the row with the best win chance; its margin and
    confidence against the best row that decides otherwise."""
    ranked = sorted(rows, key=lambda r: -r["win"])
    best = ranked[0]
    others = [r for r in ranked if r["decision"] != best["decision"]]
    if not others:
        return best["decision"], None, None, None       # a forced decision
    margin, confidence = _paired(best["_rewards"], others[0]["_rewards"])
    return best["decision"], best["win"] - others[0]["win"], confidence, others[0]["label"]
