"""How well could any value do? Claim It!'s playout value
(ext/claimit_value.pxi) beside gradient-boosted trees on richer features,
scored on the same held-out games.

The playout value is a conditional logit on three numbers a seat (largest
group, secured and held spaces). Before a better model of the win shares at
a turn start is built into the engine, this measures how much better one
could be: LightGBM (trees, multiclass) on the value's own three numbers,
then on eight numbers a seat and three of the table:

- a seat's largest group, secured and held spaces (the value's);
- the claimable spaces next to its largest group (neither its own nor
  blocked), that group's spaces not yet secured, its largest group of
  secured spaces;
- its largest group less the best other seat's, the secured spaces it
  still needs;
- the table's most and total secured spaces, the black markers left.

Rows are the turn starts before the final round of games saved by
`claimsolve match --save` (replayed through the reference rules), each
seat's final points the label (a shared win split). Whole games are held
out (a fifth, seeded), so that no turn start of a held-out game is seen in
training; the trees stop early on another tenth of the games, kept out of
their training (the logit is refitted on every game not held out). Prints
the held-out cross-entropy of each model, then by the most secured spaces
at the table.

    pip install -e ".[bench]"      # or: pip install lightgbm
    python benchmarks/claimit_value_ceiling.py --players 3 --records selfplay.jsonl
"""
import argparse

import numpy as np
from scipy.optimize import minimize

from fit_claimit_value import design, loss_and_gradient, record_turn_starts, shares
from claimsolve._claimit import VALUE_WEIGHTS
from claimsolve.claimit import rules

VALUE_FEATURES = 3      # a seat's first three columns: the playout value's
SEAT_FEATURES = 8
TABLE_FEATURES = 3


def seat_features(board, player, target):
    """The eight numbers of a seat before the two relative ones."""
    group = rules.largest_connected(lambda i: rules.holder(board[i]) == player)
    frontier = {j for i in group for j in rules.neighbours(i)
                if rules.holder(board[j]) != player and not rules.is_blocked(board[j])}
    unsecured = sum(1 for i in group if not rules.is_secured(board[i]))
    secured_group = rules.largest_connected(
        lambda i: rules.holder(board[i]) == player and rules.is_secured(board[i]))
    secured = rules.secured_count(board, player)
    return [len(group), secured, rules.held_count(board, player), len(frontier), unsecured,
            len(secured_group), 0, target - secured]


def rows(paths, players):
    """Features (seats from the mover on, then the table), points (the same
    seats) and the game each row comes from."""
    features, points, games, target = [], [], [], None
    for game, position, seats, seat_points, target in record_turn_starts(paths, players):
        x = np.array([seat_features(position.board, p, target) for p in seats], dtype=float)
        for k in range(players):
            x[k, 6] = x[k, 0] - np.delete(x[:, 0], k).max()
        table = [x[:, 1].max(), x[:, 1].sum(), rules.black_supply(position.board)]
        features.append(np.concatenate([x.ravel(), table]))
        points.append(seat_points)
        games.append(game)
    if not features:
        raise SystemExit("no turn start before a final round in these games")
    return np.array(features), np.array(points), np.array(games), target


def cross_entropy(p, rewards):
    return float(-(rewards * np.log(np.clip(p, 1e-12, 1.0))).sum(axis=1).mean())


def boosted_shares(lgb, x, rewards, train, stop, test, seed):
    """LightGBM's multiclass shares on x[test], trained on the rows `train`
    (each row once a seat with points, weighted by them), stopping early
    on the rows `stop`."""
    players = rewards.shape[1]

    def dataset(index):
        r, k = np.nonzero(rewards[index])
        return lgb.Dataset(x[index][r], label=k, weight=rewards[index][r, k], free_raw_data=False)

    params = {"objective": "multiclass", "num_class": players, "learning_rate": 0.03, "num_leaves": 31,
              "min_data_in_leaf": 50, "verbose": -1, "seed": seed, "num_threads": 2}
    validation = dataset(stop)
    booster = lgb.train(params, dataset(train), num_boost_round=2000, valid_sets=[validation],
                        callbacks=[lgb.early_stopping(50, verbose=False)])
    return booster.predict(x[test], num_iteration=booster.best_iteration), booster.best_iteration


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--records", nargs="+", metavar="FILE", required=True,
                        help="games saved by claimsolve match --save")
    parser.add_argument("--seed", type=int, default=0, help="which games are held out")
    args = parser.parse_args()
    try:
        import lightgbm as lgb
    except ImportError:
        raise SystemExit("this benchmark needs LightGBM: pip install -e \".[bench]\" (or pip install lightgbm)")
    n = args.players
    x, rewards, games, target = rows(args.records, n)
    per_seat = x[:, :n * SEAT_FEATURES].reshape(-1, n, SEAT_FEATURES)
    value_x = per_seat[:, :, :VALUE_FEATURES]

    rng = np.random.default_rng(args.seed)
    order = rng.permutation(games.max() + 1)
    held_out = np.isin(games, order[:len(order) // 5])
    stopping = np.isin(games, order[len(order) // 5:len(order) // 5 + len(order) // 10])
    test = np.flatnonzero(held_out)
    stop = np.flatnonzero(stopping)
    train = np.flatnonzero(~held_out & ~stopping)
    fit_rows = np.flatnonzero(~held_out)

    z, _ = design(np.concatenate([value_x.reshape(len(x), -1), rewards], 1), n, target)
    refit = minimize(loss_and_gradient, np.zeros(z.shape[2]), args=(z[fit_rows], rewards[fit_rows]), jac=True,
                     method="L-BFGS-B").x
    models = {
        "equal shares": np.full((len(test), n), 1.0 / n),
        "the playout value (shipped weights)": shares(np.array(VALUE_WEIGHTS[n]), z[test]),
        "the playout value refitted to these games": shares(refit, z[test]),
    }
    value_cols = [k * SEAT_FEATURES + j for k in range(n) for j in range(VALUE_FEATURES)]
    p, rounds = boosted_shares(lgb, x[:, value_cols], rewards, train, stop, test, args.seed)
    models[f"boosted trees, the value's 3 numbers a seat ({rounds} rounds)"] = p
    p, rounds = boosted_shares(lgb, x, rewards, train, stop, test, args.seed)
    models[f"boosted trees, {SEAT_FEATURES} a seat and {TABLE_FEATURES} of the table ({rounds} rounds)"] = p

    print(f"{n} players: {len(x)} turn starts of {games.max() + 1} games ({', '.join(args.records)}); "
          f"{len(test)} turn starts of {len(np.unique(games[held_out]))} games held out")
    print("held-out cross-entropy (lower is better):")
    for name, p in models.items():
        print(f"  {cross_entropy(p, rewards[test]):.4f}  {name}")
    most = x[test, n * SEAT_FEATURES]
    value_name, trees_name = list(models)[1], list(models)[-1]
    print("by the most secured spaces at the table: turn starts, the playout value, the richer trees")
    for low, high in ((0, 3), (3, 5), (5, 7), (7, target)):
        sel = (most >= low) & (most < high)
        if sel.any():
            print(f"  {low}-{high - 1}: {sel.sum():6d}  {cross_entropy(models[value_name][sel], rewards[test][sel]):.4f}"
                  f"  {cross_entropy(models[trees_name][sel], rewards[test][sel]):.4f}")


if __name__ == "__main__":
    main()
