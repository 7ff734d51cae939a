"""Claim (Alex Randolph, 1983): islands, position file, reference rules
(rules.py, after seeds/claim/RULES.md) and drawing."""
from .islands import ISLANDS, Island, random_island, standard_island
from .position import ClaimPosition

__all__ = ["ClaimPosition", "ISLANDS", "Island", "random_island", "standard_island"]
