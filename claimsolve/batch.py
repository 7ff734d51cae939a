"""Batched stepping on the Cython engines (docs/tensors.md): `Batch`, N games
of one game instance stepped at once in C with numpy arrays in and out, and
`Single`, one game stepped in C (the core of claimsolve.env).

    from claimsolve.batch import Batch
    from claimsolve.colorclaim import ColorClaimPosition
    batch = Batch(ColorClaimPosition.new(size="6x5", seed=1), 1024, seed=0)
    observations, masks, rewards, done, to_move = batch.step(batch.random_actions())

Batch's seeds are checked as every seed of the API is (claimsolve.limits:
0 or more), and a batch larger than the memory it may take is refused
naming `n` and how many games fit, before anything is allocated.
"""
import numpy

from . import _batch, limits
from ._batch import CHANCE, IN_TURN, TURN_END, Single
from .errors import ClaimsolveError

__all__ = ["Batch", "Single", "CHANCE", "IN_TURN", "TURN_END"]

CHECKED_FROM = 4096          # batches of more games are measured against the memory first


class Batch(_batch.Batch):
    __doc__ = _batch.Batch.__doc__

    def __init__(self, position, n, seed=0, threads=1):
        seed = limits.seed(seed, "parameter 'seed'")
        # as the seed: an int or its text ("4"); a float was cut short (4.5 made 4 games).  Its range is
        # the engine's to refuse (0: ValueError, as before), and the memory's (below)
        if isinstance(n, str) or isinstance(n, bool) or not isinstance(n, int):
            n = limits.integer(n, "parameter 'n'", 0, 1 << 62, what="a whole number of games")
        if n >= CHECKED_FROM:
            _check_size(position, n)
        try:
            super().__init__(position, n, seed, threads)
        except MemoryError:
            raise ClaimsolveError(f"parameter 'n': cannot allocate {n:,} games "
                                  f"({_game_bytes(position) * n / (1 << 20):,.0f} MB or so)"
                                  f"{limits.process_memory_limit()} (give a smaller batch)") from None

    def step(self, actions):
        if not (type(actions) is numpy.ndarray and actions.shape == (self.n,)):
            _check_shape(actions, self.n)
        return super().step(actions)

    step.__doc__ = _batch.Batch.step.__doc__

    def reset(self, seed=None):
        if seed is not None:
            seed = limits.seed(seed, "parameter 'seed'")
        return super().reset(seed)


def _check_shape(actions, n):
    """Refuses actions that are not one for each of the `n` games, naming
    the shape expected and the shape given (whole numbers are the C code's
    to check)."""
    try:
        shape = numpy.shape(actions)
    except ValueError:                        # lists of different lengths
        raise ValueError(f"actions: must be an array of shape ({n},), one action for each game, "
                         "not a ragged sequence") from None
    if shape != (n,) and numpy.asarray(actions).dtype.kind in "iu":
        raise ValueError(f"actions: must be an array of shape ({n},), one action for each game, "
                         f"not shape {shape}")


def _game_bytes(position):
    """About the bytes a game of `position`'s batch takes: its state, its
    moves' lists (at most an action each), its rows of the arrays."""
    probe = _batch.Batch(position, 1, 0)
    state = position.engine_state()
    moves = getattr(state.game, "max_moves", None) or probe.num_actions
    return (len(state.state_bytes()) + 16 + 12 * moves + 8 + 4 * probe.obs_size + probe.num_actions
            + 4 * probe.num_players + 5)


def _check_size(position, n):
    """Refuses `n` games where they take more than half the machine's memory
    (as limits.memory_mb refuses a table) or more than the C code counts."""
    each = _game_bytes(position)
    machine = limits.machine_mb()
    fit = limits.MAX_INT if machine is None else min(limits.MAX_INT, (machine << 20) // 2 // each)
    if n > fit:
        where = ("" if machine is None else
                 f" in half of this machine's {machine:,} MB, at about {each:,} bytes a game")
        raise ClaimsolveError(f"parameter 'n': {n:,} games are more than fit: at most {fit:,}{where} "
                              "(give a smaller batch)")
