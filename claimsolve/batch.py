"""Batched stepping on the Cython engines (docs/tensors.md): `Batch`, N games
of one game instance stepped at once in C with numpy arrays in and out, and
`Single`, one game stepped in C (the core of claimsolve.env).

    from claimsolve.batch import Batch
    from claimsolve.colorclaim import ColorClaimPosition
    batch = Batch(ColorClaimPosition.new(size="6x5", seed=1), 1024, seed=0)
    observations, masks, rewards, done, to_move = batch.step(batch.random_actions())
"""
from ._batch import CHANCE, IN_TURN, TURN_END, Batch, Single

__all__ = ["Batch", "Single", "CHANCE", "IN_TURN", "TURN_END"]
