"""What the rest of claimsolve needs to know about a game: its GameDescriptor.

Each game's package has a module `descriptor` whose `GAME` is one; the
catalog (claimsolve.catalog) finds it by the game's id.  The game's code is
named by import path (`Lazy`) and imported at first use, so reading a
descriptor loads nothing but the game's package.
"""
import importlib
from dataclasses import dataclass, field

from .errors import OptionError
from .limits import quoted

# The options of `claimsolve new` and `match`, each with what a game that
# does not take it lacks (for the refusal).
NEW_OPTIONS = {
    "players": "has a fixed number of players",
    "size": "has no board sizes",
    "island": "has no islands",
    "variant": "has no variants",
    "seed": "has no random setup",
    "brawl": "has no brawl",
}


class Lazy:
    """An object named by its import path "package.module:name", imported at
    first use.  Calling a Lazy calls the object."""

    def __init__(self, path):
        module, colon, name = path.partition(":")
        if not (module and colon and name):
            raise ValueError(f"import path {path!r}: write package.module:name")
        self.path = path

    def load(self):
        module, _, name = self.path.partition(":")
        return getattr(importlib.import_module(module), name)

    def __call__(self, *args, **kwargs):
        return self.load()(*args, **kwargs)

    def __repr__(self):
        return f"Lazy({self.path!r})"


@dataclass(frozen=True, eq=False)
class GameDescriptor:
    """One game as the rest of the program sees it.

    id           the "game" of its position JSON, e.g. "colorclaim"
    title        its name for people, e.g. "Color Claim (2012)"
    position     Lazy of its Position class (rules, engine, drawing, and the
                 seat/team model: Position.teams())
    options      {option of `new`: help} for each option of NEW_OPTIONS it
                 takes; `new` refuses the others
    choices      {option: (value, ...)} for each option whose values are a
                 closed set (players, island, variant, size: the values
                 `new` takes, as the web API's JSON gives them), for the
                 page's select boxes; an option not here is open (seed)
    defaults     {option: value} of `new` when the option is not given, for
                 the options of `choices`
    analyze      Lazy of analyze(position, time, iterations, engine, seed,
                 threads, hash_mb, top, progress) -> claimsolve.analysis.Analysis,
                 or None when the game has no engine; `threads` None means
                 the defaults (claimsolve.analysis.analyze)
    play         Lazy of the same signature as `analyze`, for a caller that
                 plays the first suggestion and reads nothing else (the
                 analyze player, claimsolve.analysis.analyze(playing=True)):
                 where the game's analysis spends part of its budget on what
                 does not choose the move (Claim It!: the odds table), the
                 move's search alone with the whole budget; None: `analyze`
    solve        Lazy of its exact solver (claimsolve.solve), or None
    odds         Lazy of its stop/roll odds table (claimsolve.odds), or None
    player_kinds Lazy of {kind: factory(options, seed) -> Player}, the match
                 player kinds only this game plays, or None
    openspiel    Lazy of game_from_position(position, returns) -> pyspiel.Game
                 (needs open_spiel), or None
    scores       what alpha-beta's static scores measure, in which units, for
                 people (claimsolve.analysis.answer_labels)
    win_score    alpha-beta's score of a game won (Claim: 10,000), where the
                 static evaluation stays strictly inside it: a search score
                 of +win_score proves a win, -win_score a loss (with two
                 sides; a paranoid search's loss is not one); 0: none
    shared_win   how a game no side wins alone is scored, for the words of a
                 mean result (claimsolve.analysis.result_scale): "draw",
                 shared by every side (1/n each of n; Claim), or "tie",
                 shared by the k sides tied for first (1/k each; Claim It!)
    mcts_exploration
                 MCTS's UCB1 constant `c` in this game where a search or a
                 player spec gives none (docs/mcts.md); None: the engine's
                 DEFAULT_EXPLORATION
    learned_playout_turns
                 MCTS with the learned evaluation: its playouts cut after
                 this many changes of turn where a search or a player spec
                 gives no `turns` (docs/learning.md); None: the engine's
                 LEARNED_PLAYOUT_TURNS (0, the value at the leaf)
    learned_units
                 the learned evaluation's score units per unit of logit of
                 the chance of winning (its `evaluate` scale, in the classic
                 evaluation's units so that the searches' windows and
                 margins keep their sizes; docs/learning.md)
    learned_win_bonus
                 in a two-sided game whose final value is a margin of
                 points, what a won end counts above its margin (a lost one
                 below), the learned values clamped inside it: a sure win by
                 one point is worth more than any position's chance; 0: none
    seed_needs   {option: value} that `new` needs for a seed to mean anything
                 (Claim: {"island": "random"}, the only island grown from
                 one); `new` refuses a seed given without them.  Empty: a
                 seed always counts (when the game takes one).
    match_start  Lazy of start(players, size, island, variant, seed, brawl) ->
                 Position, the start of a match game when it is not `new`'s
                 (Claim: the play phase after random settles), or None
    review       import path of its review kit (claimsolve.colorclaim.review):
                 how `claimsolve review` analyses a position and grades a
                 move in the game's units (claimsolve.reviewer), or None
    render       import path of its drawing module (claimsolve.render.claim):
                 render_text(position, color), render_svg(position),
                 board(position, moves) -> (Canvas, geometry) and
                 move_marks(position, geometry, move, colour, width, opacity,
                 rank) -> (SVG elements, label anchor), and optionally
                 analysis_key(position, moves) -> the sentences that say
                 what its marks mean; Position.render and
                 Position.svg draw with it, claimsolve.render.analysis_svg
                 draws suggestions with it.  None: the Position class draws
                 itself (render, svg) and suggestions are listed beside it.
    """

    id: str
    title: str
    position: Lazy
    options: dict = field(default_factory=dict)
    choices: dict = field(default_factory=dict)
    defaults: dict = field(default_factory=dict)
    seed_needs: dict = field(default_factory=dict)
    analyze: Lazy = None
    play: Lazy = None
    solve: Lazy = None
    odds: Lazy = None
    player_kinds: Lazy = None
    openspiel: Lazy = None
    match_start: Lazy = None
    scores: str = "estimated margins"
    shared_win: str = "draw"
    win_score: int = 0
    mcts_exploration: float = None
    learned_playout_turns: int = None
    learned_units: float = 100.0
    learned_win_bonus: int = 0
    render: str = None
    review: str = None

    def __post_init__(self):
        unknown = (set(self.options) | set(self.seed_needs)) - set(NEW_OPTIONS)
        if unknown:
            raise ValueError(f"game '{self.id}': unknown option(s) {', '.join(sorted(unknown))}"
                             f" (options: {', '.join(NEW_OPTIONS)})")
        untaken = (set(self.choices) | set(self.defaults)) - set(self.options)
        if untaken:
            raise ValueError(f"game '{self.id}': choices or defaults for option(s) it does not take: "
                             f"{', '.join(sorted(untaken))}")
        for option, value in self.defaults.items():
            if value not in self.choices.get(option, ()):
                raise ValueError(f"game '{self.id}': the default {value!r} of '{option}' is not one of its choices")

    @property
    def position_class(self):
        return self.position.load()

    @property
    def has_chance(self):
        """True for games with dice (no alpha-beta, no perft)."""
        return self.position_class.has_chance

    def drawing(self):
        """The game's drawing module (see `render`), or None."""
        return importlib.import_module(self.render) if self.render else None

    def takes(self, option):
        """True when `new` takes the option (a key of NEW_OPTIONS)."""
        return option in self.options

    def uses_seed(self, players=None, size=None, island=None, variant=None, brawl=None):
        """True when `new` with these options draws its setup from a seed
        (the rules' options, brawl, never matter)."""
        given = {"players": players, "size": size, "island": island, "variant": variant}
        return self.takes("seed") and all(given[option] == value for option, value in self.seed_needs.items())

    def new(self, players=None, size=None, island=None, variant=None, seed=None, brawl=None,
            seats_given="--players 3"):
        """A starting position from the options the game takes; an option it
        does not take, or a bad value, is an OptionError naming it.  The Position class's
        `new` is given only the options the game takes; a brawl's rule where it
        changes nothing is refused after the game's own checks (check_brawl: a
        bad count of seats is said as such, not as the brawl's)."""
        given = {"players": players, "size": size, "island": island, "variant": variant, "seed": seed,
                 "brawl": brawl}
        for option, value in given.items():
            if value is not None and option not in self.options:
                raise OptionError(option, f"{self.id} {NEW_OPTIONS[option]}")
        position = self.position_class.new(**{option: value for option, value in given.items()
                                               if option in self.options})
        self.check_brawl(brawl, players=players, variant=variant, seats_given=seats_given)
        return position

    def check_brawl(self, brawl, players=None, variant=None, loaded=False, seats_given="--players 3"):
        """`brawl` (new's, play's, match's) refused, as `option '--brawl'`, by a
        game without a brawl, by a rule the game does not know, and where the
        brawl's rule changes nothing (Claim: with other than 3 seats, or in
        battle-for-two; `players` None is the game's default; `loaded`: the
        seats are a loaded position's, which --players cannot change;
        `seats_given`: how the caller asks for 3 seats, in the refusal's hint:
        the board's API and Python say it their own way)."""
        if brawl is None:
            return
        if not self.takes("brawl"):
            raise OptionError("brawl", f"{self.id} has no brawl")
        known = self.choices.get("brawl", ())
        if brawl not in known:
            raise OptionError("brawl", f"{quoted(brawl)}: must be one of {', '.join(known)}")
        counts = getattr(self.position_class, "brawl_rule_counts", None)
        seats = self.defaults.get("players") if players is None else players
        if counts is not None and not counts(seats, variant):
            where = "in battle-for-two" if variant == "battle-for-two" else f"with {seats} seats"
            hint = "" if variant == "battle-for-two" or loaded else f" (give {seats_given})"
            raise OptionError("brawl", f"the brawl's rule counts only with 3 seats: {where} even and cap never "
                                       f"differ{hint}")

    def teams(self, position):
        """position.teams(), checked to hold every seat exactly once."""
        teams = [list(team) for team in position.teams()]
        seats = sorted(seat for team in teams for seat in team)
        if seats != list(range(1, position.num_players + 1)) or not all(teams):
            raise ValueError(f"{self.id}: teams {teams} do not split seats 1..{position.num_players}")
        return teams
