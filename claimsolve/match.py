"""Engine matches (`claimsolve match`): player A against player B over many
games, with seeded starting positions and teams rotated fairly.

The teams are the starting position's (Position.teams(): every seat its own
team, or allies together).  A's engine plays every seat of one team, B's
every other seat, each seat with its own player object (new every game).
Every starting position is played once per team, A's team rotating through
them: with two teams, twice with the teams swapped.  A game's points for A are those of A's
seats (Position.points(): 1 for a win, shared equally among tied winning
teams, 0 for a loss; allies score alike).

A game the rules do not end is **adjudicated** a draw shared equally among
the teams: in a game without dice when the whole position (board, seat to
move and the rules' counters) comes round a third time (Claim's draw rule
counts from the last capture or tower placed or swapped, so two teams
swapping a tower back and forth go on forever), and in any game at
MAX_PLIES plies.  Its record says so (records.adjudicated_result).

**Duplicate dice** (`duplicate=True`, `match --duplicate`, games with
chance): the dice of a seat's k-th roll in its t-th turn are drawn from
the seed, the start's number, the seat, t and k alone (DuplicateDice),
not from one stream through the match.  A game then depends on the seed
and its number alone, the seatings of a start meet the same dice seat by
seat (as in duplicate bridge), and two matches run with the same seed give
their players the same dice, so that their games can be compared pair by
pair (benchmarks/paired_matches.py; what that gains: docs/benchmarks.md).
"""
import contextlib
import itertools
import json
import random
import signal
from collections import Counter
from dataclasses import dataclass, field

from .catalog import get_game
from . import limits
from .errors import ClaimsolveError, Interrupted, PlayerError, as_parameters
from .files import write_atomically
from .player_kinds import make_player
from .records import VERSION as RECORD_VERSION, adjudicated_result
from .stats import elo, json_elo, wilson_interval

MAX_PLIES = limits.MAX_PLIES    # a game still going after this many plies is adjudicated
REPEATS = 3             # ... and one whose whole position comes round this often (no dice)


@dataclass
class GameRecord:
    """A game of a match as the match counts it; `to_json` is its game
    record (claimsolve.records, docs/records.md), a line of `match --save`."""
    start: dict          # the starting position's JSON
    a_seats: list        # 1-based seats of player A's team
    moves: list          # every move played, chance outcomes included
    points: list         # points per seat (1-based seats at index 0..); None: not over
    final: dict = None   # the final position's JSON
    players: list = None     # who played each seat (a player spec), seat 1 first
    winners: list = None     # the final position's winners (seats)
    adjudicated: str = None  # why a game the rules did not end was scored as a draw

    @property
    def a_seat(self):
        """A's seat when A's team is one seat, else None."""
        return self.a_seats[0] if len(self.a_seats) == 1 else None

    @property
    def a_points(self):
        return self.points[self.a_seats[0] - 1]

    def to_json(self):
        out = {"record": RECORD_VERSION, "game": self.start.get("game"), "start": self.start}
        if self.players is not None:
            out["players"] = list(self.players)
        out["moves"] = list(self.moves)
        result = None
        if self.points is not None:
            result = {"points": [float(p) for p in self.points]}
            if self.winners is not None:
                result["winners"] = list(self.winners)
            if self.adjudicated is not None:
                result["adjudicated"] = self.adjudicated
        out["result"] = result
        out["a_seats"] = list(self.a_seats)
        return out


@dataclass
class MatchResult:
    """The games of a match: every record (`records`), or with keep_records
    False only the running score (`add` counts each game), so that memory
    stays flat however many games are played."""
    game: str
    a: str
    b: str
    players: int         # seats
    teams: int           # sides: A plays one, B the others
    records: list = field(default_factory=list)
    keep_records: bool = True
    interrupted: bool = False   # Ctrl-C stopped the match: the games finished before it
    counts: list = field(default_factory=lambda: [0, 0.0, 0, 0])   # games, A's points, wins, losses
    adjudicated: int = 0        # games the rules did not end, scored as draws (play_game)

    def add(self, record):
        """Counts a finished game (and keeps its record, with keep_records)."""
        points = record.a_points
        self.adjudicated += record.adjudicated is not None
        self.counts[0] += 1
        self.counts[1] += points
        self.counts[2] += points == 1
        self.counts[3] += points == 0
        if self.keep_records:
            self.records.append(record)

    def _summary(self):
        """(games, A's points, wins, losses)."""
        if not self.keep_records:
            return tuple(self.counts)
        return (len(self.records), sum(r.a_points for r in self.records),
                sum(1 for r in self.records if r.a_points == 1),
                sum(1 for r in self.records if r.a_points == 0))

    @property
    def games(self):
        return self._summary()[0]

    def tally(self):
        """(wins, draws, losses) of A: a draw is a shared win."""
        games, _points, wins, losses = self._summary()
        return wins, games - wins - losses, losses

    @property
    def score(self):
        """A's mean points per game."""
        games, points, _wins, _losses = self._summary()
        return points / games if games else 0.0

    @property
    def expected_share(self):
        """A's points per game if both were equally strong."""
        return 1.0 / self.teams

    def confidence_interval(self):
        """95% interval of A's mean points (wilson_interval)."""
        return wilson_interval(self.score, self.games)

    def running(self):
        """A's score after each game: [(games so far, mean points, low,
        high)], the 95% interval as confidence_interval gives it."""
        out, total = [], 0.0
        for k, record in enumerate(self.records, 1):
            total += record.a_points
            out.append((k, total / k, *wilson_interval(total / k, k)))
        return out

    def elo(self):
        """Elo difference A - B implied by the score (two teams only); None
        with more teams."""
        if self.teams != 2:
            return None
        return elo(self.score)

    def elo_interval(self):
        if self.teams != 2:
            return None
        lo, hi = self.confidence_interval()
        return (elo(lo), elo(hi))

    def to_json(self, with_games=False):
        wins, draws, losses = self.tally()
        lo, hi = self.confidence_interval()
        out = {
            "game": self.game, "a": self.a, "b": self.b, "players": self.players,
            "games": self.games, "wins": wins, "draws": draws, "losses": losses,
            "score": round(self.score, 4), "ci95": [round(lo, 4), round(hi, 4)],
            "expected_share": round(self.expected_share, 4), "adjudicated": self.adjudicated,
        }
        if self.teams == 2:
            elo_lo, elo_hi = self.elo_interval()
            out["elo"] = json_elo(self.elo())
            out["elo_ci95"] = [json_elo(elo_lo), json_elo(elo_hi)]
        if with_games:
            out["records"] = [r.to_json() for r in self.records]
        return out


def starting_positions(game, count, seed, players=None, size=None, island=None, variant=None, brawl=None):
    """`count` starting positions of `game` (an id), the i-th from seed + i
    when the game takes a seed; the game's own match start when it has one
    (its descriptor's match_start).  `brawl`: the rules' brawl (Claim)."""
    return list(itertools.islice(iter_starts(game, seed, players=players, size=size, island=island,
                                             variant=variant, brawl=brawl), count))


def check_options(game, seed, duplicate=False, players=None, size=None, island=None, variant=None, brawl=None):
    """Refuses, naming the command line's options, what run_match would
    refuse naming its parameters: `match` calls it first.  --brawl also
    where it changes nothing (the descriptor's new checks it), as `new` and
    `play` refuse it."""
    if duplicate:
        check_duplicate(game)
    next(iter_starts(game, seed, players=players, size=size, island=island, variant=variant, brawl=brawl))


def iter_starts(game, seed, players=None, size=None, island=None, variant=None, brawl=None):
    """The starting positions of starting_positions, made one at a time as
    they are wanted (a match of many games starts at once)."""
    descriptor = get_game(game)
    options = dict(players=players, size=size, island=island, variant=variant, brawl=brawl)
    if descriptor.match_start is not None:
        descriptor.new(**options, seed=seed)       # refuses the options the game does not take
        return (descriptor.match_start(**options, seed=seed + i) for i in itertools.count())
    if not descriptor.takes("seed"):
        return (descriptor.new(**options) for _ in itertools.count())
    return (descriptor.new(**options, seed=seed + i) for i in itertools.count())


def _choose(player, position):
    """The player's move; a refusal that comes only once the player sees
    the game (eval=learned without weights for it) names the player."""
    try:
        return player.choose(position)
    except ClaimsolveError as exc:
        spec = getattr(player, "spec", None)
        if spec is None or isinstance(exc, PlayerError):
            raise
        raise PlayerError(spec, exc.message, source=exc.source) from None


class DuplicateDice:
    """The chance of one game under duplicate dice (the module's
    docstring): `resolve` draws a seat's k-th chance move of its t-th turn
    from (seed, start, seat, t, k) alone.  It sees every move of the game
    in order, to count the turns: a turn begins when the seat to move
    changes."""

    def __init__(self, seed, start_number):
        self.key = f"{seed}:{start_number}"
        self.turns = Counter()
        self.seat = None
        self.drawn = 0          # chance moves of the turn in hand

    def resolve(self, position, move):
        """`move` with the chance it leaves open drawn (resolve_chance)."""
        seat = position.player_to_move
        if seat != self.seat:
            self.seat = seat
            self.turns[seat] += 1
            self.drawn = 0
        rng = random.Random(f"{self.key}:{seat}:{self.turns[seat]}:{self.drawn + 1}")
        resolved = position.resolve_chance(move, rng)
        if resolved != move:
            self.drawn += 1
        return resolved


def check_duplicate(game, name="option '--duplicate'"):
    """Refuses duplicate dice for `game` (an id) when it has no dice; `name`
    is how the refusal names the switch."""
    if not get_game(game).has_chance:
        raise ClaimsolveError(f"{name}: {game} has no dice to deal alike")


def play_game(start, players, rng, max_plies=MAX_PLIES):
    """Plays one game from `start` with `players` (one per seat, 0-based
    list).  Chance is resolved with `rng`: a random.Random, or a
    DuplicateDice for duplicate dice.  Returns (moves, final position,
    adjudicated): `adjudicated` None when the rules ended the game, else why
    it was stopped (the module's docstring; records.adjudicated_result
    scores it)."""
    for player in players:
        player.reset()
    position = start
    moves = []
    referee = Adjudicator(max_plies)
    duplicate = isinstance(rng, DuplicateDice)
    while not position.is_over():
        why = referee.why_stop(position, len(moves))
        if why is not None:
            return moves, position, why
        seat = position.player_to_move
        move = _choose(players[seat - 1], position)
        move = rng.resolve(position, move) if duplicate else position.resolve_chance(move, rng)
        for player in players:
            player.observe(position, move)
        position = position.play(move)
        moves.append(move)
    return moves, position, None


class Adjudicator:
    """When to stop a game the rules have not ended (the module's
    docstring): ask `why_stop` before each move."""

    def __init__(self, max_plies=MAX_PLIES):
        self.max_plies = max_plies
        self.seen = Counter()

    def why_stop(self, position, plies):
        """None to play on, else the reason to adjudicate the game after
        `plies` moves at `position`."""
        if plies >= self.max_plies:
            return f"no end after {self.max_plies:,} plies"
        if not position.has_chance:          # with dice a position may well come round again
            self.seen[position] += 1
            if self.seen[position] == REPEATS:
                return f"the same position a {_ordinal(REPEATS)} time, ply {plies}"
        return None


def _ordinal(n):
    return {2: "second", 3: "third", 4: "fourth"}.get(n, f"{n}th")


def game_result(final, adjudicated):
    """(points per seat, winners) of a game play_game returned."""
    if adjudicated is None:
        return [float(p) for p in final.points()], list(final.winners())
    result = adjudicated_result(final, adjudicated)
    return result["points"], result["winners"]


def run_match(game, spec_a, spec_b, games, players=None, size=None, island=None, variant=None,
              seed=0, progress=None, on_game=None, keep_records=True, duplicate=False, brawl=None):
    """Plays `games` games of `game` (an id) between SPECs `spec_a` and
    `spec_b`; `players`, `size`, `island`, `variant`, `brawl` (the rules'
    brawl, Claim) build the starts (each when its first game begins).  Each finished game's GameRecord goes to
    `on_game` at once (`match --save` writes it then); with keep_records
    False the result keeps the score only.  Ctrl-C ends the match: an
    Interrupted (a KeyboardInterrupt) is raised whose `partial` is the
    MatchResult of the games finished (`interrupted` set; the game being
    played is dropped, and a game is counted and given to `on_game`
    together or not at all).  `duplicate`: duplicate dice (the module's
    docstring), for games with chance only."""
    descriptor = get_game(game)
    limits.games(games, "parameter 'games'")
    limits.seed(seed, "parameter 'seed'")
    if duplicate:
        check_duplicate(game, "parameter 'duplicate'")
    for spec in (spec_a, spec_b):
        make_player(spec, game=game)            # a bad SPEC fails before any game
    with as_parameters():                       # `match` checks these as options first (check_options)
        starts = iter_starts(game, seed, players=players, size=size, island=island, variant=variant,
                             brawl=brawl)
        start = next(starts)
    sides = len(descriptor.teams(start))
    result = MatchResult(game=game, a=spec_a, b=spec_b, players=start.num_players, teams=sides,
                         keep_records=keep_records)
    rng = random.Random(seed)
    try:
        for index in range(games):
            if index > 0 and index % sides == 0:
                start = next(starts)
            teams = descriptor.teams(start)
            a_seats = teams[index % len(teams)]
            lineup = [make_player(spec_a if seat in a_seats else spec_b, seed=_player_seed(seed, index, seat),
                                  game=game)
                      for seat in range(1, start.num_players + 1)]
            dice = DuplicateDice(seed, index // sides) if duplicate else rng
            moves, final, adjudicated = play_game(start, lineup, dice)
            points, winners = game_result(final, adjudicated)
            record = GameRecord(start=start.to_json(), a_seats=a_seats, moves=moves,
                                points=points, final=final.to_json() if keep_records else None,
                                players=[spec_a if seat in a_seats else spec_b
                                         for seat in range(1, start.num_players + 1)],
                                winners=winners, adjudicated=adjudicated)
            with sigint_deferred():
                if on_game is not None:
                    on_game(record)
                result.add(record)
            if progress is not None:
                wins, draws, losses = result.tally()
                progress({"game": f"{index + 1}/{games}", "A +": wins, "=": draws, "-": losses,
                          "score": round(result.score, 3)})
    except KeyboardInterrupt:
        result.interrupted = True
        raise Interrupted(result) from None
    return result


@contextlib.contextmanager
def sigint_deferred():
    """Ctrl-C waits until the block is done (a game written and counted
    together); the main thread only, where Python runs signal handlers."""
    masking = hasattr(signal, "pthread_sigmask")
    blocked = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT}) if masking else None
    try:
        yield
    finally:
        if masking:
            signal.pthread_sigmask(signal.SIG_SETMASK, blocked)


def _player_seed(seed, index, seat):
    """The seed of the player at `seat` (below 64) in game `index`."""
    return (seed * 1000003 + index) * 64 + seat


def game_line(record):
    """A game as one line of its game record (docs/records.md), for replay
    and review."""
    return json.dumps(record.to_json()) + "\n"


def save_games(result, path):
    """Writes every game of a finished match as JSON lines, whole or not at
    all (`match --save` writes each game as it ends: files.LineLog)."""
    write_atomically(path, "".join(game_line(record) for record in result.records))
