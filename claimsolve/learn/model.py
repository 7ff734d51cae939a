"""The learned evaluation's model and weights file: the reference of the
forward pass (docs/learning.md, "The model"), which the engine's C
inference is tested against.

Features of a state seen from seat `player` (0-based), input "sums": for
each observation plane k the sum of that plane over its height x width
cells, then the observation's scalars as they are, `planes + scalars`
floats whatever the board's size; input "observation": the observation's
floats themselves, `planes * height * width + scalars` of them, for one
board size; then, when the weights say `classic` 1 (format 2), the base
game's hand-written evaluation of the state for `player` (the engine's
evaluate, in the game's score units) as one more (`features`).  The model
standardises them,
(x - mean) / scale, applies a hidden layer of H units with ReLU (none when
H = 0: a linear model) and gives one logit, whose sigmoid is the expected
reward of `player` (0 to 1).

The weights file is numpy's `.npz` (no pickled objects) with the keys of
KEYS; `load_weights` checks every one of them.  Format 1
("claimsolve-eval-1") has input "sums"; format 2 ("claimsolve-eval-2")
adds the keys of KEYS_2 (its input, and the observation's height and
width), and in a two-sided game the engine asks its net one view a node,
the seat to move's (ext/learned.pyx), where format 1 asks both sides'.
"""
import json
import math
import os
import zipfile

import numpy as np

from ..errors import ClaimsolveError

FORMAT = FORMAT_1 = "claimsolve-eval-1"     # what train writes by default (the plane sums alone)
FORMAT_2 = "claimsolve-eval-2"
FORMATS = (FORMAT_1, FORMAT_2)
INPUTS = ("sums", "observation")

# key: what it holds (the order of the file)
KEYS = {
    "format": f"the text {FORMAT_1!r} or {FORMAT_2!r}",
    "game": "the game's id (text)",
    "players": "the seats of the games it learned from (a whole number)",
    "variant": "the rules variant (text, \"\" when none)",
    "planes": "the observation's planes (a whole number)",
    "scalars": "the observation's scalars (a whole number)",
    "mean": "float32[n]: the features' means (n features: planes + scalars, or the observation's size)",
    "scale": "float32[n]: the features' scales (positive)",
    "W1": "float32[H, n]: the hidden layer's weights (H = 0: none)",
    "b1": "float32[H]: the hidden layer's biases",
    "W2": "float32[H] (float32[n] when H = 0): the output's weights",
    "b2": "float32 scalar: the output's bias",
    "made_by": "the command line that made the file (text)",
    "study": "the study it learned from, as JSON text: kind, parameters, games",
    "validation": "float64[3]: the held-out games' log-loss, accuracy and positions",
}
# the keys format 2 adds (written after those of KEYS)
KEYS_2 = {
    "input": "the features: the text 'sums' (plane sums, then scalars) or 'observation' (the whole observation)",
    "height": "the observation's height (a whole number; input 'observation' takes that board only)",
    "width": "the observation's width (a whole number)",
    "classic": "1: the last feature is the game's hand-written evaluation for the seat; else 0",
}


# the weights the package ships (docs/learning.md says how each was made)
SHIPPED = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data", "weights")


def shipped_path(game, players):
    """The weights file the package ships for `game` at `players` seats
    (SHIPPED/GAME-Np.npz), or None when it ships none."""
    path = os.path.join(SHIPPED, f"{game}-{players}p.npz")
    return path if os.path.isfile(path) else None


def features(state, player, input="sums", classic=0):
    """The model's input for the engine state `state` (a GameState, of the
    base game: its evaluate is the hand-written one) from the seat of
    `player` (0-based): float32[planes + scalars] (input "sums"), or the
    observation itself (input "observation"), then with `classic` the
    state's hand-written evaluation for `player`."""
    planes, height, width, scalars = state.observation_shape
    obs = state.observation(player)
    if input == "observation":
        out = np.asarray(obs, dtype=np.float32)
    else:
        cells = planes * height * width
        out = np.concatenate([obs[:cells].reshape(planes, height * width).sum(1, dtype=np.float32),
                              obs[cells:]]).astype(np.float32)
    if classic:
        out = np.append(out, np.float32(state.evaluate(player)))
    return out.copy()


class Weights(dict):
    """A checked weights file: {key: value} with the texts as str, the whole
    numbers as int, the arrays as numpy arrays; `hidden` is H, `input`
    "sums" or "observation", `inputs` the features' count, `path` the file
    it was read from."""

    @property
    def hidden(self):
        return self["W1"].shape[0]

    @property
    def input(self):
        return self.get("input", "sums")

    @property
    def classic(self):
        return self.get("classic", 0)

    @property
    def inputs(self):
        if self.input == "observation":
            return self["planes"] * self["height"] * self["width"] + self["scalars"] + self.classic
        return self["planes"] + self["scalars"] + self.classic


def _bad(path, key, what):
    return ClaimsolveError(f"key '{key}': {what}", path)


def _text(data, path, key):
    value = data[key]
    if value.dtype.kind != "U" or value.shape != ():
        raise _bad(path, key, f"is not a text ({KEYS[key]})")
    return str(value)


def _whole(data, path, key, low=0):
    value = data[key]
    if value.dtype.kind not in "iu" or value.shape != () or int(value) < low:
        raise _bad(path, key, f"is not a whole number of at least {low} ({KEYS[key]})")
    return int(value)


def _floats(data, path, key, shape, dtype=np.float32):
    value = data[key]
    if value.dtype != dtype or value.shape != shape:
        raise _bad(path, key, f"is {value.dtype}{list(value.shape)}, not {np.dtype(dtype).name}{list(shape)}")
    if not np.all(np.isfinite(value)):
        raise _bad(path, key, "holds a value that is not a finite number")
    return value


def load_weights(path):
    """The Weights in the file at `path`, every key checked: a
    ClaimsolveError naming the file and the key for anything else (a file
    that is not a weights file of ours, a missing key, a wrong type or
    shape, a value that is not finite)."""
    path = os.fspath(path)
    if not path:
        raise ClaimsolveError("the weights file's name is an empty string")
    if not os.path.isfile(path):
        raise ClaimsolveError("no such weights file" if not os.path.exists(path) else
                              "not a weights file (a folder)" if os.path.isdir(path) else
                              "not a weights file (not a regular file)", path)
    if not zipfile.is_zipfile(path):
        raise ClaimsolveError(f"not a weights file (not numpy's .npz; format {FORMAT_1} or {FORMAT_2})", path)
    try:
        with np.load(path, allow_pickle=False) as npz:
            data = {key: npz[key] for key in npz.files}
    except (OSError, ValueError, zipfile.BadZipFile, EOFError) as exc:
        raise ClaimsolveError(f"not a weights file (numpy cannot read it: {exc})", path) from None
    if "format" not in data:
        raise _bad(path, "format", f"missing ({KEYS['format']})")
    out = Weights()
    out.path = path
    out["format"] = _text(data, path, "format")
    if out["format"] not in FORMATS:
        raise _bad(path, "format", f"is {out['format']!r}, not {FORMAT_1!r} or {FORMAT_2!r}")
    keys = keys_of(out["format"])
    for key in keys:
        if key not in data:
            raise _bad(path, key, f"missing ({keys[key]})")
    extra = sorted(set(data) - set(keys))
    if extra:
        raise _bad(path, extra[0], f"is no key of a {out['format']} file")
    out["game"] = _text(data, path, "game")
    out["players"] = _whole(data, path, "players", 1)
    out["variant"] = _text(data, path, "variant")
    out["planes"] = _whole(data, path, "planes")
    out["scalars"] = _whole(data, path, "scalars")
    if out["format"] == FORMAT_2:
        out["input"] = _text(data, path, "input")
        if out["input"] not in INPUTS:
            raise _bad(path, "input", f"is {out['input']!r}, not one of {', '.join(INPUTS)}")
        out["height"] = _whole(data, path, "height", 1)
        out["width"] = _whole(data, path, "width", 1)
        out["classic"] = _whole(data, path, "classic")
        if out["classic"] > 1:
            raise _bad(path, "classic", f"is {out['classic']}, not 0 or 1")
    n_in = out.inputs
    if n_in < 1:
        raise _bad(path, "scalars", "the observation has no planes and no scalars")
    out["mean"] = _floats(data, path, "mean", (n_in,))
    out["scale"] = _floats(data, path, "scale", (n_in,))
    if not np.all(out["scale"] > 0):
        raise _bad(path, "scale", "holds a scale that is not positive")
    # H: W1's rows where its columns are the features, else b1's length
    w1, b1 = data["W1"], data["b1"]
    if w1.ndim == 2 and w1.shape[1] == n_in:
        hidden = w1.shape[0]
    elif b1.ndim == 1:
        hidden = b1.shape[0]
    else:
        raise _bad(path, "W1", f"is {w1.dtype}{list(w1.shape)}, not float32[H, {n_in}]")
    out["W1"] = _floats(data, path, "W1", (hidden, n_in))
    out["b1"] = _floats(data, path, "b1", (hidden,))
    out["W2"] = _floats(data, path, "W2", (hidden if hidden else n_in,))
    out["b2"] = _floats(data, path, "b2", ())
    out["made_by"] = _text(data, path, "made_by")
    out["study"] = _text(data, path, "study")
    try:
        study = json.loads(out["study"])
    except ValueError:
        study = None
    if not isinstance(study, dict):
        raise _bad(path, "study", "is not a JSON object (the study's kind, parameters, games)")
    out["validation"] = _floats(data, path, "validation", (3,), np.float64)
    return out


def keys_of(fmt):
    """The keys of a file of format `fmt`, with what each holds."""
    return {**KEYS, **KEYS_2} if fmt == FORMAT_2 else KEYS


def weights_fault(path):
    """Why the file at `path` is not a whole weights file of ours (None
    when it is one): `train --out` replaces only such a file unasked."""
    try:
        load_weights(path)
    except ClaimsolveError as exc:
        return exc.message
    return None


def logits(weights, x):
    """The model's logits of features `x` (float[n_in] or float[N, n_in]),
    computed in float64 from the float32 weights."""
    x = np.asarray(x, dtype=np.float64)
    if x.shape[-1] != weights["mean"].shape[0]:
        raise ValueError(f"features have {x.shape[-1]} values, the model takes {weights['mean'].shape[0]}")
    z = (x - weights["mean"].astype(np.float64)) / weights["scale"].astype(np.float64)
    if weights["W1"].shape[0]:
        z = np.maximum(z @ weights["W1"].astype(np.float64).T + weights["b1"].astype(np.float64), 0.0)
    return z @ weights["W2"].astype(np.float64) + float(weights["b2"])


def sigmoid(z):
    z = np.asarray(z, dtype=np.float64)
    return np.where(z >= 0, 1.0 / (1.0 + np.exp(-np.abs(z))), np.exp(-np.abs(z)) / (1.0 + np.exp(-np.abs(z))))


def predict(weights, x):
    """The expected reward (0 to 1) the model gives features `x` (one
    position's, float[n_in], or many, float[N, n_in])."""
    return sigmoid(logits(weights, x))


def evaluate(weights, state, player):
    """The expected reward of seat `player` (0-based) in engine state
    `state` by the model."""
    return float(predict(weights, features(state, player, weights.input, weights.classic)))


def save_weights(path, arrays):
    """Writes the weights file `arrays` ({key: value} of KEYS) to `path`
    through a temporary file in the same folder, renamed into place once
    complete."""
    keys = keys_of(str(arrays.get("format", FORMAT_1)))
    missing = [key for key in keys if key not in arrays]
    if missing:
        raise ValueError(f"weights without {missing}")
    folder = os.path.dirname(os.path.abspath(path))
    tmp = os.path.join(folder, f".{os.path.basename(path)}.{os.getpid()}.tmp")
    try:
        with open(tmp, "wb") as f:
            np.savez(f, **{key: arrays[key] for key in keys})
        os.replace(tmp, path)
    except BaseException as exc:        # a full disk, Ctrl-C: no half-written file left behind
        if os.path.exists(tmp):
            os.unlink(tmp)
        if isinstance(exc, OSError):
            raise ClaimsolveError(f"cannot write the weights: {exc.strerror or exc}", path) from None
        raise


def log_loss(p, y):
    """Mean cross-entropy of predictions `p` against rewards `y` (0 to 1)."""
    p = np.clip(np.asarray(p, dtype=np.float64), 1e-12, 1 - 1e-12)
    y = np.asarray(y, dtype=np.float64)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p))) if len(y) else math.nan
