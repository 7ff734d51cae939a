"""Claim (1983) as the rest of claimsolve sees it (claimsolve.catalog)."""
from ..descriptor import GameDescriptor, Lazy

GAME = GameDescriptor(
    id="claim",
    title="Claim (1983)",
    render="claimsolve.render.claim",
    review="claimsolve.claim.review",
    position=Lazy("claimsolve.claim.position:ClaimPosition"),
    openspiel=Lazy("claimsolve.claim.openspiel:game_from_position"),
    analyze=Lazy("claimsolve.claim.analysis:analyze"),
    player_kinds=Lazy("claimsolve.claim.players:PLAYER_KINDS"),
    match_start=Lazy("claimsolve.claim.starts:match_start"),
    scores="evaluation points for the side to move: a tower 300, a win 10,000",
    win_score=10000,
    options={"players": "2, 3 or 4, default 2 (battle-for-two: 2)",
             "island": "standard (the island for the seats, default), standard-2, standard-3, standard-4 or random",
             "variant": "standard (default) or battle-for-two",
             "seed": "the random island's seed (with --island random; default a fresh one)",
             "brawl": "even (default: every player takes 4, as the rulebook says) or cap (the cap alone may "
                      "leave the third of three nothing)"},
    choices={"players": (2, 3, 4),
             "island": ("standard", "standard-2", "standard-3", "standard-4", "random"),
             "variant": ("standard", "battle-for-two"),
             "brawl": ("even", "cap")},
    defaults={"players": 2, "island": "standard", "variant": "standard", "brawl": "even"},
    seed_needs={"island": "random"},
    learned_units=300.0,
    learned_playout_turns=1,
)
