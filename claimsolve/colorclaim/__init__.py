"""Color Claim (Robert Dudley, 2012): position file, reference rules,
drawing; the Cython engine is claimsolve._colorclaim."""
from .position import ColorClaimPosition

__all__ = ["ColorClaimPosition"]
