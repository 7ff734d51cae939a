"""Claim It! as the rest of claimsolve sees it (claimsolve.catalog)."""
from ..descriptor import GameDescriptor, Lazy

GAME = GameDescriptor(
    id="claimit",
    title="Claim It! (2006)",
    render="claimsolve.render.claimit",
    review="claimsolve.claimit.review",
    position=Lazy("claimsolve.claimit.position:ClaimItPosition"),
    options={"players": "2 to 5, default 2",
             "variant": "standard (default) or release_white (a black on a white sends the white back at once)"},
    choices={"players": (2, 3, 4, 5), "variant": ("standard", "release_white")},
    defaults={"players": 2, "variant": "standard"},
    analyze=Lazy("claimsolve.claimit.analysis:analyze"),
    play=Lazy("claimsolve.claimit.analysis:play"),
    odds=Lazy("claimsolve.claimit.odds:odds"),
    player_kinds=Lazy("claimsolve.claimit.players:PLAYER_KINDS"),
    openspiel=Lazy("claimsolve.claimit.openspiel:game_from_position"),
    # chosen by matches against threshold:5 at 0.1 s a decision (docs/findings.md)
    mcts_exploration=0.2,
    shared_win="tie",           # players tied share the win (seeds/claimit/RULES.md)
    learned_units=4.0,
)
