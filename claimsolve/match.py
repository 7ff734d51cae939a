"""Engine matches (`claimsolve match`): player A against player B over many
games, with seeded starting positions and seats rotated fairly.

With two seats, every starting position is played twice, A taking each seat
once.  With more seats (Claim It!), A sits at one seat and B fills the
others; A's seat rotates through every seat on each starting position.
A game's points: 1 for a win, shared equally among tied winners, 0 for a loss.
"""
import json
import math
import random
from dataclasses import dataclass, field

from .errors import ClaimsolveError
from .files import write_atomically
from .positions import game_class
from .player_kinds import make_player

Z95 = 1.959963984540054


@dataclass
class GameRecord:
    start: dict          # the starting position's JSON
    a_seat: int          # 1-based seat of player A
    moves: list          # every move played, chance outcomes included
    points: list         # points per seat (1-based seats at index 0..)
    final: dict = None   # the final position's JSON

    @property
    def a_points(self):
        return self.points[self.a_seat - 1]

    def to_json(self):
        return {"start": self.start, "a_seat": self.a_seat, "moves": self.moves,
                "points": self.points}


@dataclass
class MatchResult:
    game: str
    a: str
    b: str
    players: int
    records: list = field(default_factory=list)

    @property
    def games(self):
        return len(self.records)

    def tally(self):
        """(wins, draws, losses) of A: a draw is a shared win."""
        wins = sum(1 for r in self.records if r.a_points == 1)
        losses = sum(1 for r in self.records if r.a_points == 0)
        return wins, self.games - wins - losses, losses

    @property
    def score(self):
        """A's mean points per game."""
        return sum(r.a_points for r in self.records) / self.games if self.records else 0.0

    @property
    def expected_share(self):
        """A's points per game if both were equally strong."""
        return 1.0 / self.players

    def confidence_interval(self):
        """95% interval of A's mean points: the Wilson score interval, which
        stays honest at 0% and 100% (a game's points lie in [0, 1])."""
        n = self.games
        if n == 0:
            return (0.0, 1.0)
        p = self.score
        denom = 1 + Z95 ** 2 / n
        centre = (p + Z95 ** 2 / (2 * n)) / denom
        half = Z95 * math.sqrt(p * (1 - p) / n + Z95 ** 2 / (4 * n * n)) / denom
        return (max(0.0, centre - half), min(1.0, centre + half))

    def elo(self):
        """Elo difference A - B implied by the score (two seats only); None
        with more seats."""
        if self.players != 2:
            return None
        return _elo(self.score)

    def elo_interval(self):
        if self.players != 2:
            return None
        lo, hi = self.confidence_interval()
        return (_elo(lo), _elo(hi))

    def to_json(self, with_games=False):
        wins, draws, losses = self.tally()
        lo, hi = self.confidence_interval()
        out = {
            "game": self.game, "a": self.a, "b": self.b, "players": self.players,
            "games": self.games, "wins": wins, "draws": draws, "losses": losses,
            "score": round(self.score, 4), "ci95": [round(lo, 4), round(hi, 4)],
            "expected_share": round(self.expected_share, 4),
        }
        if self.players == 2:
            elo_lo, elo_hi = self.elo_interval()
            out["elo"] = _round(self.elo())
            out["elo_ci95"] = [_round(elo_lo), _round(elo_hi)]
        if with_games:
            out["records"] = [r.to_json() for r in self.records]
        return out


def _round(x):
    """Elo for JSON: an infinite difference (a clean sweep) is null."""
    return None if x is None or math.isinf(x) else round(x, 1)


def _elo(score):
    if score <= 1e-9:
        return -math.inf
    if score >= 1.0 - 1e-9:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


def starting_positions(game, count, seed, players=None, size=None):
    """`count` seeded starting positions of `game`."""
    cls = game_class(game)
    return [cls.new(players=players, size=size, seed=seed + i) for i in range(count)]


def play_game(start, players, rng, max_plies=10000):
    """Plays one game from `start` with `players` (one per seat, 0-based
    list).  Chance is resolved with `rng`.  Returns (moves, final position)."""
    for player in players:
        player.reset()
    position = start
    moves = []
    while not position.is_over():
        if len(moves) >= max_plies:
            raise ClaimsolveError(f"match: a game went past {max_plies} plies")
        seat = position.player_to_move
        move = players[seat - 1].choose(position)
        move = position.resolve_chance(move, rng)
        for player in players:
            player.observe(position, move)
        position = position.play(move)
        moves.append(move)
    return moves, position


def run_match(game, spec_a, spec_b, games, players=None, size=None, seed=0, progress=None):
    """Plays `games` games of `game` between SPECs `spec_a` and `spec_b`."""
    cls = game_class(game)
    sample = cls.new(players=players, size=size, seed=seed)
    seats = sample.num_players
    if games < 1:
        raise ClaimsolveError("option '--games': must be at least 1")
    starts = starting_positions(game, (games + seats - 1) // seats, seed, players, size)
    result = MatchResult(game=game, a=spec_a, b=spec_b, players=seats)
    player_a = make_player(spec_a, seed=seed * 1000003 + 1, game=game)
    player_b = [make_player(spec_b, seed=seed * 1000003 + 2 + k, game=game) for k in range(seats - 1)]
    rng = random.Random(seed)
    for index in range(games):
        start = starts[index // seats]
        a_seat = index % seats + 1
        lineup, others = [], iter(player_b)
        for seat in range(1, seats + 1):
            lineup.append(player_a if seat == a_seat else next(others))
        moves, final = play_game(start, lineup, rng)
        record = GameRecord(start=start.to_json(), a_seat=a_seat, moves=moves,
                            points=list(final.points()), final=final.to_json())
        result.records.append(record)
        if progress is not None:
            wins, draws, losses = result.tally()
            progress({"game": f"{index + 1}/{games}", "A +": wins, "=": draws, "-": losses,
                      "score": round(result.score, 3)})
    return result


def save_games(result, path):
    """Writes every game (start, seats, moves, points) as JSON lines for replay."""
    write_atomically(path, "".join(json.dumps(record.to_json()) + "\n" for record in result.records))
