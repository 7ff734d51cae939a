"""Where `odds`'s two measures of a Claim It! decision disagree, which of
them the strongest search agrees with.

`odds` values a decision by the learned win objective (the net's estimate
of where the turn ends, searched over the rest of the turn or cut short)
and by Monte Carlo plans (the decision, then the play-outs' fixed policy
to the end of the game).  For positions of saved games (`claimsolve match
claimit --save`) where a seat has a choice, this computes the odds table
(`--samples` play-outs a row, seed 0, the default budget of the turn
optimum); where the net's choice and the plans' differ, it runs MCTS for
`--simulations` simulations and counts whose choice it makes, by how sure
the plans were (the paired comparison of the two decisions, each by its
best plan): the figures behind `odds`'s overrule (claimsolve.claimit.odds
OVERRULE, docs/learning.md).

The net's search is given seconds, not nodes: on a busier machine it may
search less deep and choose otherwise, so two runs can differ a little.

    python benchmarks/claimit_odds_agreement.py games.jsonl --positions 400 --seed 3
"""
import argparse
import json
import random

import claimsolve
from claimsolve.claimit.odds import OVERRULE, odds
from claimsolve.claimit.plans import best_by_decision, best_decision_chances
from claimsolve.records import load


def decisions(paths):
    """(file, game, ply) of every position of the games where the seat to
    move has two or more legal moves."""
    for path in paths:
        for g, record in enumerate(load(path)):
            for ply in range(len(record.moves)):
                position = record.position_at(ply)
                if not position.is_over() and len(position.legal_moves()) > 1:
                    yield path, g, ply


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("games", nargs="+", help="saved Claim It! games (match --save)")
    parser.add_argument("--positions", type=int, default=400, help="positions drawn from the games")
    parser.add_argument("--seed", type=int, default=3, help="draws the positions")
    parser.add_argument("--samples", type=int, default=3000, help="play-outs a row of the odds table")
    parser.add_argument("--simulations", type=int, default=1_000_000, help="MCTS's budget where the two disagree")
    parser.add_argument("--out", help="also write one JSON line a position here")
    args = parser.parse_args()
    spots = list(decisions(args.games))
    random.Random(args.seed).shuffle(spots)
    games = {}
    out = open(args.out, "a") if args.out else None
    bands = {"at most": [0, 0, 0], "over": [0, 0, 0]}       # MCTS with the plans, with the net, with neither
    agreed = 0
    for path, g, ply in spots[:args.positions]:
        if path not in games:
            games[path] = load(path)
        position = games[path][g].position_at(ply)
        table = odds(position, samples=args.samples, seed=0)
        net, plans = table.learned, table.monte_carlo["recommendation"]
        line = {"file": path, "game": g + 1, "ply": ply, "mode": table.mode, "net": net, "plans": plans}
        if net and plans and net != plans and net in best_by_decision(table.rows):
            sure = best_decision_chances(table.rows, [net, plans])[plans]
            best = claimsolve.analyze(position, iterations=args.simulations, seed=0).suggestions[0].move
            line.update(plans_sure=round(sure, 4), mcts=best)
            band = bands["over" if sure > OVERRULE else "at most"]
            band[0 if best == plans else 1 if best == net else 2] += 1
        elif net and net == plans:
            agreed += 1
        if out:
            out.write(json.dumps(line) + "\n")
            out.flush()
        print(json.dumps(line), flush=True)
    print(f"\n{min(args.positions, len(spots))} positions: the net and the plans agree at {agreed}; where they "
          f"disagree, MCTS at {args.simulations:,} simulations chooses:")
    for name, (with_plans, with_net, neither) in bands.items():
        print(f"  plans {name} {OVERRULE:g} sure: {with_plans + with_net + neither} positions, "
              f"the plans' move {with_plans}, the net's {with_net}, another {neither}")


if __name__ == "__main__":
    main()
