"""Fits the weights of Claim It!'s playout value (ext/claimit_value.pxi,
VALUE_WEIGHTS) for one number of players.

Plays GAMES games from the start by the playout policy (in C), takes a row
at every turn start before the final round (ClaimItGame.turn_start_samples:
each seat's largest group, secured and held spaces, and its final reward),
and fits the conditional logit of claimit_value.pxi by maximum likelihood
(scipy L-BFGS) on four fifths of the rows; prints the cross-entropy on the
other fifth beside that of equal shares, and the weights as a
VALUE_WEIGHTS entry.

    python benchmarks/fit_claimit_value.py --players 3 --games 20000 --seed 12345

With `--records FILE ...` the rows come instead from games saved by
`claimsolve match --save` (say, the engine against itself), replayed
through the reference rules (claimsolve/claimit/rules.py), the same
features at the same turn starts; the shipped weights' cross-entropy on
the same held-out rows is printed beside the refit's:

    python benchmarks/fit_claimit_value.py --players 3 --records selfplay.jsonl

With `--drift` nothing is fitted: over GAMES playout-policy games it prints
how the shipped value of each seat moves on average from one turn start to
the next (or to the final points, after the turn that starts the final
round), by the seat's place from the player whose turn it is and by the
most secured spaces at the table. A value that is a martingale under the
playout policy moves by 0 on average; MCTS values a "stop" one turn later
than a "roll" (docs/mcts.md), so a seat's drift through the next player's
turn is what a stop is valued above or below a roll:

    python benchmarks/fit_claimit_value.py --players 3 --games 20000 --drift
"""
import argparse

import numpy as np
from scipy.optimize import minimize

from claimsolve._claimit import VALUE_WEIGHTS
from claimsolve.catalog import get_game
from claimsolve.claimit import rules
from claimsolve.records import load


def samples(players, games, seed):
    start = get_game("claimit").new(players=players).engine_state()
    game = start.game
    out = np.zeros((games * 80, 4 * players))
    rows = game.turn_start_samples(start.state_bytes(), games, seed, out)
    return out[:rows], game.target


def record_turn_starts(paths, players):
    """The turn starts before the final round of the games saved in
    `paths` (each checked: `players` players, one target, finished), as
    (game index, position, seats from the mover on, those seats' final
    points, target)."""
    target, game = None, 0
    for path in paths:
        for record in load(path):          # (each record replayed once, by its reader's check)
            *played, final = record.positions()
            if final.num_players != players:
                raise SystemExit(f"{path}: a game of {final.num_players} players, not {players}")
            if target is not None and final.target != target:
                raise SystemExit(f"{path}: a game to {final.target} secured spaces among games to {target}")
            if not final.is_over():
                raise SystemExit(f"{path}: a game that does not end")
            target = final.target
            points = rules.points(final.board, players)
            for position in played:
                if position.final_round is None and position.turn_begins():
                    seats = [(position.to_move - 1 + k) % players + 1 for k in range(players)]
                    yield game, position, seats, [points[p - 1] for p in seats], target
            game += 1


def record_samples(paths, players):
    """The rows of `samples` from saved games of `players` players: at
    every turn start before the final round, each seat's (largest group,
    secured, held) from the mover on, then each seat's points."""
    rows, target = [], None
    for _, position, seats, points, target in record_turn_starts(paths, players):
        rows.append([v for p in seats for v in rules.standing(position.board, p)] + points)
    return np.array(rows, dtype=float), target


def design(data, players, target):
    """Each row's features by seat (1, phase, phase^2 times group, secured,
    held; then the seat indicators 1..players-1) and rewards."""
    x = data[:, :3 * players].reshape(-1, players, 3)
    rewards = data[:, 3 * players:]
    phase = x[:, :, 1].max(axis=1) / target
    powers = np.stack([np.ones_like(phase), phase, phase ** 2], 1)
    z = np.einsum("ri,rkj->rkij", powers, x).reshape(len(data), players, 9)
    seats = np.zeros((len(data), players, players - 1))
    for k in range(1, players):
        seats[:, k, k - 1] = 1.0
    return np.concatenate([z, seats], 2), rewards


def shares(w, z):
    """The value's win shares of each row's seats under weights w."""
    u = z @ w
    u -= u.max(axis=1, keepdims=True)
    p = np.exp(u)
    return p / p.sum(axis=1, keepdims=True)


def loss_and_gradient(w, z, rewards):
    p = shares(w, z)
    loss = -(rewards * np.log(p)).sum(axis=1).mean()
    gradient = -np.einsum("rk,rkf->f", rewards - p, z) / len(z)
    return loss, gradient


def drift(players, games, seed):
    """Prints the shipped value's mean change over a turn by seat (from the
    player whose turn it is) and by the most secured spaces at the table."""
    start = get_game("claimit").new(players=players).engine_state()
    game, state = start.game, start.state_bytes()
    weights = np.array(VALUE_WEIGHTS[players])
    changes, most = [], []
    out = np.zeros((4096, 4 * players))
    for g in range(games):
        rows = game.turn_start_samples(state, 1, seed + g, out)
        data = out[:rows]
        z, rewards = design(data, players, game.target)
        value = shares(weights, z)
        # seat k of a turn start is seat k - 1 of the next; after the last
        # one (its turn started the final round) come the final points
        after = np.concatenate([np.roll(value[1:], 1, axis=1), rewards[-1:]])
        changes.append(after - value)
        most.append(data[:, 1:3 * players:3].max(axis=1))
    changes, most = np.concatenate(changes), np.concatenate(most)
    print(f"{players} players, {games} playout-policy games, {len(changes)} turns: the value's mean change "
          f"over a turn (standard error), by the seat's place after the player whose turn it is")
    print("most secured " + "".join(f"{'the mover' if k == 0 else f'+{k}':>17}" for k in range(players)) + "  turns")
    for low in range(int(most.max()) + 1):
        sel = most == low
        if sel.sum() < 2:
            continue
        cells = "".join(f"  {changes[sel, k].mean():+.4f} ({changes[sel, k].std() / np.sqrt(sel.sum()):.4f})"
                        for k in range(players))
        print(f"{low:12d} {cells}  {sel.sum():6d}")
    cells = "".join(f"  {changes[:, k].mean():+.4f} ({changes[:, k].std() / np.sqrt(len(changes)):.4f})"
                    for k in range(players))
    print(f"{'all':>12} {cells}  {len(changes):6d}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--games", type=int, default=20000)
    parser.add_argument("--seed", type=int, default=12345)
    parser.add_argument("--records", nargs="+", metavar="FILE",
                        help="fit to these saved games instead of playout-policy ones")
    parser.add_argument("--drift", action="store_true",
                        help="print the shipped value's mean change over a turn instead of fitting")
    args = parser.parse_args()
    if args.drift:
        if args.records:
            parser.error("--drift plays its own playout-policy games: no --records")
        drift(args.players, args.games, args.seed)
        return
    if args.records:
        data, target = record_samples(args.records, args.players)
    else:
        data, target = samples(args.players, args.games, args.seed)
    z, rewards = design(data, args.players, target)
    order = np.random.default_rng(0).permutation(len(z))
    train, test = order[:len(z) * 4 // 5], order[len(z) * 4 // 5:]
    fit = minimize(loss_and_gradient, np.zeros(z.shape[2]), args=(z[train], rewards[train]), jac=True,
                   method="L-BFGS-B")
    test_loss = loss_and_gradient(fit.x, z[test], rewards[test])[0]
    source = ", ".join(args.records) if args.records else f"{args.games} games"
    shipped = loss_and_gradient(np.array(VALUE_WEIGHTS[args.players]), z[test], rewards[test])[0]
    print(f"{args.players} players: {len(z)} turn starts of {source}; cross-entropy on the held-out fifth "
          f"{test_loss:.4f} (the shipped weights {shipped:.4f}, equal shares {np.log(args.players):.4f})")
    print(f"    {args.players}: ({', '.join(f'{v:.4f}' for v in fit.x)}),")


if __name__ == "__main__":
    main()
