"""Searches over the C-level engine interface (ext/game.h): one alpha-beta
(ext/alphabeta.pyx) and one MCTS (ext/mcts.pyx) for every game.

Shared result types live in claimsolve.search.result; players for matches
follow claimsolve.search.player.Player.
"""
