"""claimsolve: search and analysis for the Claim board games."""
from .errors import ClaimsolveError, MoveError, PositionError
from .positions import dumps, from_dict, load, loads

__version__ = "0.1.0"

__all__ = ["ClaimsolveError", "MoveError", "PositionError", "dumps", "from_dict", "load", "loads"]
