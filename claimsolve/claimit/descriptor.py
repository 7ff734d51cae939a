"""Claim It! as the rest of claimsolve sees it (claimsolve.catalog)."""
from ..descriptor import GameDescriptor, Lazy

GAME = GameDescriptor(
    id="claimit",
    title="Claim It! (2006)",
    render="claimsolve.render.claimit",
    review="claimsolve.claimit.review",
    position=Lazy("claimsolve.claimit.position:ClaimItPosition"),
    options={"players": "2 to 5, default 2"},
    analyze=Lazy("claimsolve.claimit.analysis:analyze"),
    odds=Lazy("claimsolve.claimit.odds:odds"),
    player_kinds=Lazy("claimsolve.claimit.players:PLAYER_KINDS"),
    openspiel=Lazy("claimsolve.claimit.openspiel:game_from_position"),
)
