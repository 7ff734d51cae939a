"""Claim It! (Kris Gould, 2006): position, reference rules, Cython engine
(claimsolve._claimit), exact bust odds, the odds table, the exact turn
optimum and baseline players for matches."""
from .position import ClaimItPosition

__all__ = ["ClaimItPosition"]
