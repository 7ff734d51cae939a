"""Bridges to other toolkits.

claimsolve.interop.openspiel: our games as OpenSpiel Python games (needs the
`open_spiel` package, in the `test`, `bench` and `rl` extras).
claimsolve.interop.engine_game: the same games on the Cython engines, with
observation tensors, for learning agents and fast search (docs/openspiel.md).
"""
