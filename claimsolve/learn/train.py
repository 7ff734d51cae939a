"""`claimsolve train`: fits the model of claimsolve.learn.model to the
positions of a selfplay study (claimsolve.study.selfplay), with numpy only.

Each position is seen from the seat to move (`seats="mover"`) or from
every seat (`seats="all"`), its target that seat's points at the end of
the game (a win 1, a loss 0, shared when tied; a game the study's match
stopped because the rules did not end it, a draw shared equally, as the
study scored it, and the report counts them), or with `value_weight` W
above 0, (1 - W) x those points + W x the search's own value where the
study recorded it (the mover's view; the points alone elsewhere).  The
features are the plane sums (`input="sums"`, a format-1 weights file) or
the whole observation (`input="observation"`, format 2).  The loss is the
cross-entropy of the model's sigmoid against that target (fractional
targets allowed), minimised by Adam over mini-batches with a little L2 on
the weights.  A tenth of the GAMES (at least one) is held out, drawn with
`seed`: positions of one game are never split between fitting and
validation.
"""
import json
import math
import os
import sqlite3

import numpy as np

from ..errors import ClaimsolveError
from . import model

BATCH = 256
L2 = 1e-4
HELD_OUT = 0.1


def read_study(db, game):
    """The selfplay study in `db` of `game`: (params, rows), rows by id."""
    from ..study.store import Store, failure       # deferred: start-up
    from ..study.kinds import get_kind

    try:
        store = Store.read(db)
        try:
            kind = store.kind
            if kind != "selfplay":
                raise ClaimsolveError(f"option '--db': holds a '{kind}' study, not a selfplay study "
                                      "(claimsolve study selfplay)", db)
            params = store.params
            if params["game"] != game:
                raise ClaimsolveError(f"option '--db': holds a selfplay study of {params['game']}, not {game}", db)
            rows = store.rows(get_kind("selfplay").json_columns)
        finally:
            store.close()
    except sqlite3.Error as exc:
        raise failure(exc, db, reading=True) from None
    if len(rows) < 2:
        raise ClaimsolveError(f"option '--db': {len(rows)} game{'s' if len(rows) != 1 else ''} done; training "
                              "needs 2 or more (one to hold out)", db)
    return params, rows


def dataset(rows, seats="mover", db=None, input="sums", classic=0):
    """(X float32[N, n_in], y float64[N], game ids int[N], search values
float64[N], shape) of the rows' positions; a search value is the
recorded MCTS value of the position for the seat the example is seen
from when that seat is the mover (NaN otherwise)."""
    from .._engine import GameState            # deferred: the engines load at first use
    from ..positions import loads
    from ..study.selfplay import checked_states

    # one float32 array filled in place: a Python array object per example
    # would cost several times the features themselves (20,000 Claim It!
    # games seen from 3 seats are 12 million examples)
    total = sum(len(row["movers"]) * (len(row["points"]) if seats == "all" else 1) for row in rows)
    x, n = None, 0
    y = np.empty(total, dtype=np.float64)
    games = np.empty(total, dtype=np.int64)
    values = np.empty(total, dtype=np.float64)
    shape = None
    for row in rows:
        try:
            start = loads(row["start"])
            game = start.engine_game()
            states = checked_states(row, start)
        except (ValueError, ClaimsolveError) as exc:
            raise ClaimsolveError(f"table 'tasks', row id {row['id']}: cannot read its positions ({exc})",
                                  db) from None
        for state_bytes, mover, value in zip(states, row["movers"], row["values"]):
            state = GameState(game, state_bytes)
            if shape is None:
                shape = state.observation_shape
                if not any(shape):
                    raise ClaimsolveError("the game's engine has no observation tensor to learn from", db)
            elif state.observation_shape != shape:
                raise ClaimsolveError(f"table 'tasks', row id {row['id']}: its observations have the shape "
                                      f"{state.observation_shape}, the others {shape}", db)
            for seat in (range(len(row["points"])) if seats == "all" else (mover - 1,)):
                example = model.features(state, seat, input, classic)
                if x is None:
                    x = np.empty((total, len(example)), dtype=np.float32)
                x[n] = example
                y[n] = row["points"][seat]
                games[n] = row["id"]
                values[n] = value if value is not None and seat == mover - 1 else math.nan
                n += 1
    if not n:
        raise ClaimsolveError("option '--db': the study's games hold no position to learn from", db)
    return x[:n], y[:n], games[:n], values[:n], shape


def split_games(game_ids, seed, share=HELD_OUT):
    """A boolean mask of the positions whose game is held out: a `share` of
    the games (at least one, never all), drawn with `seed`."""
    unique = np.unique(game_ids)
    rng = np.random.default_rng(seed)
    count = min(len(unique) - 1, max(1, int(round(share * len(unique)))))
    held = rng.choice(unique, size=count, replace=False)
    return np.isin(game_ids, held)


def mirrored(x, y, games, shape):
    """Positions x (whole observations, then any more features) with
    their mirror images added: left-right, top-bottom and both (a board's
    planes flipped, the scalars and the classic value kept: the rules, so
    the evaluation, are the same on the mirrored board), each with the
    reward y and the game of its original."""
    planes, height, width, scalars = shape
    cells = planes * height * width
    grid = x[:, :cells].reshape(-1, planes, height, width)
    images = [grid, grid[:, :, :, ::-1], grid[:, :, ::-1, :], grid[:, :, ::-1, ::-1]]
    xs = [np.concatenate([image.reshape(len(x), cells), x[:, cells:]], axis=1) for image in images]
    return np.concatenate(xs), np.tile(y, 4), np.tile(games, 4)


def column_stats(x, rows, chunk=1 << 16):
    """The float64 mean and standard deviation of each column of x[rows]
    (rows: indices), a chunk of rows at a time: the same numbers as
    x[rows].mean(0, dtype=float64) and .std(0, dtype=float64), without
    their whole-data copies (numpy sums a column row after row, so each
    chunk's rows are added on to the sum so far, in the same order)."""
    n = len(rows)

    def column_sum(terms):
        total = None
        for begin in range(0, n, chunk):
            part = terms(x[rows[begin:begin + chunk]].astype(np.float64))
            total = np.add.reduce(part if total is None else np.vstack([total[None], part]), axis=0)
        return total

    mean = column_sum(lambda part: part) / n

    def squares(part):
        part -= mean
        part *= part
        return part

    return mean, np.sqrt(column_sum(squares) / n)


def fit(x, y, hidden=16, epochs=20, seed=0, lr=None, l2=L2, rows=None):
    """The model's arrays fitted to features x (float[N, n_in]) and rewards
    y (0 to 1), or to x[rows] and y[rows] (rows: indices; no copy of those
    rows of x is made): {mean, scale, W1, b1, W2, b2} as float32."""
    rng = np.random.default_rng(seed)
    x = np.asarray(x)
    if x.dtype not in (np.float32, np.float64):
        x = x.astype(np.float64)
    y = np.asarray(y, dtype=np.float64)
    rows = np.arange(len(x)) if rows is None else np.asarray(rows)
    y = y[rows]
    n, n_in = len(rows), x.shape[1]
    # in float64 as if x were, without a float64 copy of x: each batch is
    # standardised when it is drawn (the same arithmetic, a batch's memory)
    mean, scale = column_stats(x, rows)
    scale[scale < 1e-6] = 1.0
    prior = min(max(y.mean(), 1e-3), 1 - 1e-3)
    params = {"W2": np.zeros(hidden if hidden else n_in), "b2": np.array(math.log(prior / (1 - prior)))}
    if hidden:
        params["W1"] = rng.normal(0.0, math.sqrt(2.0 / n_in), (hidden, n_in))
        params["b1"] = np.zeros(hidden)
        params["W2"] = rng.normal(0.0, math.sqrt(1.0 / hidden), hidden) * 0.1
    lr = lr if lr is not None else (0.003 if hidden else 0.01)
    m = {key: np.zeros_like(value) for key, value in params.items()}
    v = {key: np.zeros_like(value) for key, value in params.items()}
    step = 0
    for _ in range(epochs):
        order = rng.permutation(n)
        for begin in range(0, n, BATCH):
            batch = order[begin:begin + BATCH]
            zb, yb = (x[rows[batch]].astype(np.float64) - mean) / scale, y[batch]
            if hidden:
                pre = zb @ params["W1"].T + params["b1"]
                h = np.maximum(pre, 0.0)
            else:
                h = zb
            out = h @ params["W2"] + params["b2"]
            g = (model.sigmoid(out) - yb) / len(batch)          # d loss / d logit
            grads = {"W2": h.T @ g + l2 * params["W2"], "b2": np.array(g.sum())}
            if hidden:
                gh = np.outer(g, params["W2"]) * (pre > 0)
                grads["W1"] = gh.T @ zb + l2 * params["W1"]
                grads["b1"] = gh.sum(0)
            step += 1
            for key, grad in grads.items():
                m[key] = 0.9 * m[key] + 0.1 * grad
                v[key] = 0.999 * v[key] + 0.001 * grad * grad
                m_hat = m[key] / (1 - 0.9 ** step)
                v_hat = v[key] / (1 - 0.999 ** step)
                params[key] = params[key] - lr * m_hat / (np.sqrt(v_hat) + 1e-8)
    f32 = np.float32
    return {"mean": mean.astype(f32), "scale": scale.astype(f32),
            "W1": params.get("W1", np.zeros((0, n_in))).astype(f32), "b1": params.get("b1", np.zeros(0)).astype(f32),
            "W2": params["W2"].astype(f32), "b2": np.array(params["b2"], dtype=f32)}


def _predict(weights, x, mask, chunk=1 << 18):
    """model.predict of the rows of x in `mask`, a chunk at a time (its
    float64 copies are a chunk's, not the whole data's)."""
    rows = np.flatnonzero(mask)
    return np.concatenate([model.predict(weights, x[rows[begin:begin + chunk]])
                           for begin in range(0, len(rows), chunk)] or [np.zeros(0)])


def _losses(p, y):
    p = np.clip(np.asarray(p, dtype=np.float64), 1e-12, 1 - 1e-12)
    return -(y * np.log(p) + (1 - y) * np.log(1 - p))


def gain_interval(p, q, y, games, seed, resamples=1000):
    """A 95% interval of the mean log-loss of predictions `q` minus that
    of `p` on rewards `y` (how much better p does), by a bootstrap over
    the games (`games`: each position's game; positions of one game go
    together, being far from independent); None from a single game, whose
    resamples are all the same (no spread to measure)."""
    unique, index = np.unique(games, return_inverse=True)
    if len(unique) < 2:
        return None
    diff = np.bincount(index, _losses(q, y) - _losses(p, y), len(unique))
    count = np.bincount(index, minlength=len(unique)).astype(np.float64)
    rng = np.random.default_rng(seed)
    picks = rng.integers(0, len(unique), size=(resamples, len(unique)))
    gains = diff[picks].sum(1) / count[picks].sum(1)
    low, high = np.percentile(gains, [2.5, 97.5])
    return [round(float(low), 4), round(float(high), 4)]


def accuracy(p, y):
    """The share of positions whose rounded prediction is the rounded
    reward, positions with a shared reward (neither 0 nor 1) left out;
    None when none is left."""
    p, y = np.asarray(p), np.asarray(y)
    whole = (y == 0) | (y == 1)
    if not whole.any():
        return None
    return float(np.mean((p[whole] > 0.5) == (y[whole] > 0.5)))


# games whose rules are the same on a board flipped left-right or top-bottom (train's `mirror`)
MIRRORED_GAMES = ("colorclaim",)


def train(game, db, out, hidden=16, epochs=20, seed=0, seats="mover", force=False, made_by="", input="sums",
          value_weight=0.0, l2=L2, mirror=False, classic=False):
    """Fits a model to the selfplay study `db` of `game` and writes the
    weights file `out`.  Returns the report (a dict)."""
    if seats not in ("mover", "all"):
        raise ClaimsolveError(f"option '--seats': mover or all, not {seats!r}")
    if input not in model.INPUTS:
        raise ClaimsolveError(f"option '--input': {' or '.join(model.INPUTS)}, not {input!r}")
    if not 0.0 <= value_weight <= 1.0:
        raise ClaimsolveError(f"option '--value-weight': {value_weight} is not between 0 and 1")
    if mirror and (input != "observation" or game not in MIRRORED_GAMES):
        raise ClaimsolveError(f"option '--mirror': takes --input observation and a game whose rules are the same "
                              f"on a mirrored board ({', '.join(MIRRORED_GAMES)})")
    refuse_output(out, force)
    if os.path.exists(db) and os.path.exists(out) and os.path.samefile(db, out):
        raise ClaimsolveError("option '--out': is the study file --db, which it would replace; give another file",
                              out)
    params, rows = read_study(db, game)
    classic = int(bool(classic))
    version2 = input != "sums" or classic
    x, y, game_ids, search, shape = dataset(rows, seats, db, input, classic)
    held = split_games(game_ids, seed)
    target = y
    if value_weight > 0:
        if np.isnan(search).all():
            raise ClaimsolveError("option '--value-weight': the study recorded no search values (MCTS players "
                                  "record them)", db)
        target = np.where(np.isnan(search), y, (1.0 - value_weight) * y + value_weight * np.nan_to_num(search))
    planes, height, width, scalars = shape
    if mirror:
        x_fit, y_fit, _ = mirrored(x[~held], target[~held], game_ids[~held], shape)
        arrays = fit(x_fit, y_fit, hidden, epochs, seed, l2=l2)
    else:       # the fitted rows in place: no copy of nine tenths of x
        arrays = fit(x, target, hidden, epochs, seed, l2=l2, rows=np.flatnonzero(~held))
    if version2:
        arrays.update({"input": np.array(input), "height": np.array(height), "width": np.array(width),
                       "classic": np.array(classic)})
    weights = model.Weights(arrays)
    if version2:
        weights.update({"input": input, "height": height, "width": width, "planes": planes, "scalars": scalars,
                        "classic": classic})
    p_val, y_val = _predict(weights, x, held), y[held]
    p_fit = _predict(weights, x, ~held)
    prior = float(np.clip(y[~held].mean(), 1e-6, 1 - 1e-6))
    baseline = np.full(len(y_val), prior)
    val = {"log_loss": model.log_loss(p_val, y_val), "accuracy": accuracy(p_val, y_val),
           "positions": int(held.sum()), "games": int(len(np.unique(game_ids[held]))),
           "baseline_log_loss": model.log_loss(baseline, y_val), "baseline_accuracy": accuracy(baseline, y_val),
           "mean_reward": prior,
           "gain_ci95": gain_interval(p_val, baseline, y_val, game_ids[held], seed)}
    valued = ~np.isnan(search[held])
    if valued.any():
        val["search"] = {"positions": int(valued.sum()),
                         "gain_ci95": gain_interval(p_val[valued], search[held][valued], y_val[valued],
                                                    game_ids[held][valued], seed),
                         "model_log_loss": model.log_loss(p_val[valued], y_val[valued]),
                         "search_log_loss": model.log_loss(search[held][valued], y_val[valued]),
                         "model_accuracy": accuracy(p_val[valued], y_val[valued]),
                         "search_accuracy": accuracy(search[held][valued], y_val[valued])}
    fitted = {"log_loss": model.log_loss(p_fit, y[~held]), "accuracy": accuracy(p_fit, y[~held]),
              "positions": int((~held).sum()), "games": int(len(np.unique(game_ids[~held])))}
    study = {"kind": "selfplay", "params": params, "games": len(rows), "seats": seats}
    if value_weight > 0:
        study["value_weight"] = value_weight
    if l2 != L2:
        study["l2"] = l2
    if mirror:
        study["mirror"] = True
    arrays.update({
        "format": np.array(model.FORMAT_2 if version2 else model.FORMAT_1), "game": np.array(game),
        "players": np.array(params["seats"]),
        "variant": np.array(params.get("variant") or ""), "planes": np.array(planes), "scalars": np.array(scalars),
        "made_by": np.array(made_by), "study": np.array(json.dumps(study, sort_keys=True)),
        # accuracy -1: no held-out position had a whole reward
        "validation": np.array([val["log_loss"], -1.0 if val["accuracy"] is None else val["accuracy"],
                                val["positions"]], dtype=np.float64)})
    model.save_weights(out, arrays)
    return {"game": game, "db": db, "out": out, "hidden": hidden, "epochs": epochs, "seed": seed, "seats": seats,
            "inputs": int(x.shape[1]), "input": input, "classic": classic, "value_weight": value_weight, "l2": l2,
            "mirror": mirror,
            "planes": planes, "scalars": scalars, "players": params["seats"],
            "fit": fitted, "validation": val, "study": study,
            # games a match stopped (the rules did not end them): learned as the draws the study scored
            "adjudicated": sum(1 for row in rows if row.get("adjudicated"))}


def refuse_output(out, force):
    """The weights file may be written: a new file, or one of ours (a file
    that is something else only with `force`), never a folder or a device."""
    if os.path.isdir(out):
        raise ClaimsolveError("option '--out': is a folder, not a weights file", out)
    if os.path.exists(out):
        if not os.path.isfile(out):
            raise ClaimsolveError("option '--out': not a regular file (a device or a pipe)", out)
        fault = None if force else model.weights_fault(out)
        if fault is not None:
            raise ClaimsolveError(f"option '--out': the file exists and is not a whole weights file ({fault}); "
                                  "give another file, or --force to replace it", out)
    folder = os.path.dirname(os.path.abspath(out))
    if not os.path.isdir(folder):
        raise ClaimsolveError(f"option '--out': no folder {folder}", out)
    if not os.access(folder, os.W_OK | os.X_OK):
        raise ClaimsolveError(f"option '--out': the folder {folder} is not writable", out)


def text(report):
    """The report for people."""
    val, fit_ = report["validation"], report["fit"]
    search = val.get("search")
    model_words = (f"a hidden layer of {report['hidden']} units (ReLU)" if report["hidden"]
                   else "linear (no hidden layer)")
    acc, base_acc = _share(val["accuracy"]), _share(val["baseline_accuracy"])
    seen = "the seat to move" if report["seats"] == "mover" else "every seat"
    what = (f"{report['planes']} plane sums, {report['scalars']} scalars" if report.get("input", "sums") == "sums"
            else "the whole observation") + (", the classic evaluation" if report.get("classic") else "")
    weight = report.get("value_weight")
    target = "" if not weight else f"; targets {1 - weight:g} x the result + {weight:g} x the search's value"
    if report.get("l2", L2) != L2:
        target += f"; L2 {report['l2']:g}"
    if report.get("mirror"):
        target += "; fitted positions mirrored (4 images each)"
    return "\n".join([
        f"{report['game']} ({report['players']} seats): {report['inputs']} features ({what}), {model_words}, "
        f"{_count(report['epochs'], 'epoch')}, seed {report['seed']}{target}",
        f"Positions seen from {seen}: {fit_['positions']:,} to fit ({_count(fit_['games'], 'game')}), "
        f"{val['positions']:,} held out ({_count(val['games'], 'game')})",
        f"Held-out log-loss {val['log_loss']:.4f}   (constant {val['mean_reward']:.3f}: "
        f"{val['baseline_log_loss']:.4f}; the model's gain {_gain(val)})",
        f"Held-out accuracy {acc}   (constant: {base_acc}; positions with a shared reward left out)",
        f"Fitted positions: log-loss {fit_['log_loss']:.4f}, accuracy " + _share(fit_["accuracy"])]
        + ([f"Held-out positions with the search's own value (MCTS, the mover's), {search['positions']:,}: "
            f"log-loss {search['model_log_loss']:.4f} the model, {search['search_log_loss']:.4f} the search "
            f"(gain {_gain(search, search['search_log_loss'] - search['model_log_loss'])}); "
            f"accuracy {_share(search['model_accuracy'])} the model, {_share(search['search_accuracy'])} the search"]
           if search else [])
        + ([f"{_count(report['adjudicated'], 'game')} of {report['study']['games']:,} did not end by the rules "
             "(stopped by the match, see the study's report) and are learned as the draws the study scored"]
           if report.get("adjudicated") else [])
        + [f"Weights: {report['out']}"])


def _gain(figures, gain=None):
    """The log-loss gain with its interval: "0.151, 95% 0.12 to 0.18"."""
    if gain is None:
        gain = figures["baseline_log_loss"] - figures["log_loss"]
    if figures["gain_ci95"] is None:
        return f"{gain:+.4f}, no interval from one held-out game"
    low, high = figures["gain_ci95"]
    return f"{gain:+.4f}, 95% {low:+.4f} to {high:+.4f} by games"


def _count(n, word):
    """"1 game", "2 games"."""
    return f"{n:,} {word}" + ("" if n == 1 else "s")


def _share(value):
    return "n/a" if value is None else f"{value:.3f}"
