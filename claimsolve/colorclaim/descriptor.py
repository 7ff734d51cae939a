"""Color Claim as the rest of claimsolve sees it (claimsolve.catalog)."""
from ..descriptor import GameDescriptor, Lazy

# the boards `new` deals: 2 <= W, H and W*H <= 30 (the 30 pyramids)
SIZES = tuple(f"{w}x{h}" for w in range(2, 16) for h in range(2, 16) if w * h <= 30)

GAME = GameDescriptor(
    id="colorclaim",
    title="Color Claim (2012)",
    render="claimsolve.render.colorclaim",
    review="claimsolve.colorclaim.review",
    position=Lazy("claimsolve.colorclaim.position:ColorClaimPosition"),
    options={"size": "W and H at least 2, W*H at most 30, default 6x5",
             "seed": "the random draw of the pyramids"},
    choices={"size": SIZES},
    defaults={"size": "6x5"},
    analyze=Lazy("claimsolve.colorclaim.analysis:analyze"),
    solve=Lazy("claimsolve.search.alphabeta:solve"),
    openspiel=Lazy("claimsolve.colorclaim.openspiel:game_from_position"),
    scores="estimated final-score margins for the player to move, in points (the static evaluation: "
           "the margin after the mover's best single move)",
    learned_units=4.0,
    learned_win_bonus=1000,
)
