"""A game plugs in with its package and one catalog entry: a toy Nim, written
to a temporary directory, is played through the command line and in
matches; team matches, and the refusals the descriptors make possible."""
import json
import sys
import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner

import claimsolve
from claimsolve import catalog
from claimsolve.cli.main import main
from claimsolve.errors import ClaimsolveError
from claimsolve.match import run_match, save_games
from claimsolve.player_kinds import kinds, make_player
from claimsolve.search.player import GENERIC_KINDS, Player, PlayerKind

TOY = "toy_nim_game"

TOY_FILES = {
    "__init__.py": '"""Nim with one heap: take 1 to 3 stones; whoever takes the last one wins for his team."""\n',
    "descriptor.py": '''
        from claimsolve.descriptor import GameDescriptor, Lazy

        GAME = GameDescriptor(
            id="nim",
            title="Nim, one heap",
            position=Lazy("toy_nim_game.position:NimPosition"),
            options={"players": "2 or 4 (seats 1 and 3 against 2 and 4)", "size": "stones, default 7"},
            player_kinds=Lazy("toy_nim_game.players:PLAYER_KINDS"),
        )
    ''',
    "position.py": '''
        from claimsolve.errors import ClaimsolveError, MoveError, PositionError
        from claimsolve.game import Position


        class NimPosition(Position):
            game = "nim"

            def __init__(self, players, stones, to_move):
                self.players, self.stones, self.to_move = players, stones, to_move

            @classmethod
            def from_json(cls, data):
                for key in ("players", "stones", "to_move"):
                    if not isinstance(data.get(key), int):
                        raise PositionError(key, "a whole number is needed")
                return cls(data["players"], data["stones"], data["to_move"])

            def to_json(self):
                return {"game": "nim", "players": self.players, "stones": self.stones, "to_move": self.to_move}

            @classmethod
            def new(cls, players=None, size=None, seed=None, island=None, variant=None):
                players = 2 if players is None else players
                if players not in (2, 4):
                    raise ClaimsolveError("option '--players': nim has 2 or 4 players")
                return cls(players, 7 if size is None else int(size), 1)

            def legal_moves(self):
                return [f"take{n}" for n in (1, 2, 3) if n <= self.stones]

            def play(self, move, rng=None):
                if move not in self.legal_moves():
                    raise MoveError(move, "take1, take2 or take3, at most the stones left")
                return NimPosition(self.players, self.stones - int(move[4:]), self.to_move % self.players + 1)

            def is_over(self):
                return self.stones == 0

            @property
            def player_to_move(self):
                return self.to_move

            @property
            def num_players(self):
                return self.players

            def teams(self):
                return [[1, 3], [2, 4]] if self.players == 4 else super().teams()

            def winners(self):
                if not self.is_over():
                    return []
                last = (self.to_move - 2) % self.players + 1
                return next(team for team in self.teams() if last in team)

            def engine_state(self):
                raise ClaimsolveError("nim has no engine")

            @classmethod
            def from_engine(cls, state):
                raise ClaimsolveError("nim has no engine")

            def move_code(self, move):
                raise ClaimsolveError("nim has no engine")

            def move_name(self, code):
                raise ClaimsolveError("nim has no engine")

            def render(self, color=False):
                return f"{self.stones} stones, player {self.to_move} to move"

            def svg(self):
                return "<svg xmlns='http://www.w3.org/2000/svg'/>"
    ''',
    "players.py": '''
        from claimsolve.search.player import Player


        class TakeMost(Player):
            def choose(self, position):
                return position.legal_moves()[-1]


        PLAYER_KINDS = {"take-most": lambda options, seed: TakeMost()}
    ''',
}


@pytest.fixture(scope="module")
def toy_package(tmp_path_factory):
    root = tmp_path_factory.mktemp("plugin")
    package = root / TOY
    package.mkdir()
    for name, text in TOY_FILES.items():
        (package / name).write_text(textwrap.dedent(text))
    sys.path.insert(0, str(root))
    yield TOY
    sys.path.remove(str(root))
    for name in [m for m in sys.modules if m == TOY or m.startswith(TOY + ".")]:
        del sys.modules[name]


@pytest.fixture
def nim(toy_package, monkeypatch):
    """The toy game in the catalog for one test (the catalog is restored after)."""
    monkeypatch.setattr(catalog, "GAMES", dict(catalog.GAMES))
    catalog.add_game("nim", f"{toy_package}.descriptor")
    return catalog.get_game("nim")


def solvable():
    """The games with an exact solver, as the refusals name them."""
    return ", ".join(catalog.ids_where(lambda game: game.solve is not None))


def run(*args, input=None):
    return CliRunner().invoke(main, [str(a) for a in args], input=input, catch_exceptions=False)


# --- a game from elsewhere ----------------------------------------------------

def test_the_catalog_loads_a_game_only_when_asked(toy_package, monkeypatch):
    monkeypatch.setattr(catalog, "GAMES", dict(catalog.GAMES))
    catalog.add_game("nim", f"{toy_package}.descriptor")
    assert "nim" in catalog.game_ids()
    assert f"{toy_package}.descriptor" not in sys.modules
    assert catalog.get_game("nim").title == "Nim, one heap"
    with pytest.raises(ValueError, match="already"):
        catalog.add_game("nim", "somewhere.else")


def test_a_plugged_in_game_plays_through_the_command_line(nim, tmp_path):
    assert "Nim, one heap" in run("--help").stdout
    start = run("new", "nim", "--size", "5")
    assert start.exit_code == 0, start.output
    path = tmp_path / "nim.json"
    path.write_text(start.stdout)
    assert json.loads(start.stdout) == {"game": "nim", "players": 2, "stones": 5, "to_move": 1}
    assert run("moves", path).stdout.split() == ["take1", "take2", "take3"]
    after = run("apply", path, "take3", "take1")
    assert json.loads(after.stdout)["stones"] == 1
    assert run("show", path).stdout.startswith("5 stones")
    refused = run("new", "nim", "--island", "random")
    assert refused.exit_code == 2
    assert refused.stderr.strip() == "claimsolve: option '--island': nim has no islands"
    solve = run("solve", path)
    assert solve.exit_code == 2 and f"exact solving is for {solvable()};" in solve.stderr
    assert "no engine for game 'nim'" in run("analyze", path).stderr


def test_a_plugged_in_game_plays_matches_with_its_own_kinds(nim, tmp_path):
    assert "take-most" in kinds("nim") and "take-most" not in kinds("colorclaim")
    out = run("match", "nim", "--a", "take-most", "--b", "random", "--games", "4", "--size", "6",
              "--json", "--save", tmp_path / "games.jsonl")
    assert out.exit_code == 0, out.output
    data = json.loads(out.stdout)
    assert data["games"] == 4 and data["expected_share"] == 0.5 and data["elo"] is not None
    records = [json.loads(line) for line in (tmp_path / "games.jsonl").read_text().splitlines()]
    assert [r["a_seats"] for r in records] == [[1], [2], [1], [2]]
    assert [r["players"] for r in records] == [["take-most", "random"], ["random", "take-most"]] * 2
    assert all(sorted(r["result"]["points"]) == [0.0, 1.0] for r in records)
    with pytest.raises(ClaimsolveError, match="take-most plays nim, not colorclaim"):
        make_player("take-most", game="colorclaim")
    # a generic kind says which games it plays from the catalog: nim has no exact solver
    with pytest.raises(ClaimsolveError, match=f"solver plays {solvable()}, not nim"):
        make_player("solver", game="nim")


# --- teams ------------------------------------------------------------------------

class SeatRecorder(Player):
    """Takes one stone, noting the seat it is asked to move for."""

    seen = []

    def __init__(self, side):
        self.side = side

    def choose(self, position):
        SeatRecorder.seen.append((self.side, self, position.player_to_move))
        return position.legal_moves()[0]


@pytest.fixture
def recorders(monkeypatch):
    """Generic kinds "record-a" and "record-b" for one test."""
    monkeypatch.setitem(GENERIC_KINDS, "record-a", PlayerKind(lambda options, seed: SeatRecorder("A")))
    monkeypatch.setitem(GENERIC_KINDS, "record-b", PlayerKind(lambda options, seed: SeatRecorder("B")))
    monkeypatch.setattr(SeatRecorder, "seen", [])
    return SeatRecorder


def test_team_match_gives_a_team_to_each_engine_and_swaps(nim, recorders):
    result = run_match("nim", "record-a", "record-b", 4, players=4, size=9, seed=2)
    assert result.players == 4 and result.teams == 2
    assert result.expected_share == 0.5 and result.elo() is not None
    assert [r.a_seats for r in result.records] == [[1, 3], [2, 4], [1, 3], [2, 4]]
    assert [r.a_seat for r in result.records] == [None] * 4
    assert result.records[0].start == result.records[1].start
    # nine stones taken one at a time: seat 1 takes the last one, so seats 1 and 3 win
    for record in result.records:
        assert record.points == [1.0, 0.0, 1.0, 0.0]
        assert record.to_json()["a_seats"] == record.a_seats and "a_seat" not in record.to_json()
    assert [r.a_points for r in result.records] == [1.0, 0.0, 1.0, 0.0]
    assert result.score == 0.5 and result.tally() == (2, 0, 2)
    # A moved for both seats of its team, B for the others, each seat with its own player
    seats_of = {}
    for side, player, seat in recorders.seen:
        seats_of.setdefault((side, id(player)), set()).add(seat)
    assert all(len(seats) == 1 for seats in seats_of.values())
    assert {seat for (side, _), seats in seats_of.items() if side == "A" for seat in seats} == {1, 2, 3, 4}
    first_game = recorders.seen[:9]
    assert [(side, seat) for side, _, seat in first_game[:4]] == [("A", 1), ("B", 2), ("A", 3), ("B", 4)]


def test_team_points_are_the_teams(nim):
    position = nim.new(players=4, size=1)
    assert nim.teams(position) == [[1, 3], [2, 4]]
    assert position.play("take1").points() == (1.0, 0.0, 1.0, 0.0)


def test_saved_two_seat_records_name_a_and_every_seat(tmp_path):
    result = run_match("colorclaim", "random", "alphabeta:depth=1", 2, size="2x2", seed=1)
    save_games(result, tmp_path / "g.jsonl")
    lines = [json.loads(line) for line in (tmp_path / "g.jsonl").read_text().splitlines()]
    assert [(r["a_seats"], r["players"]) for r in lines] == [([1], ["random", "alphabeta:depth=1"]),
                                                             ([2], ["alphabeta:depth=1", "random"])]
    read = claimsolve.records.load(tmp_path / "g.jsonl")
    assert [r.a_seats for r in read] == [[1], [2]] and [r.mainline() for r in read] == [r.moves for r in result.records]


# --- refusals -------------------------------------------------------------------

def test_capabilities_are_refused_naming_the_games_that_have_them():
    claimit = claimsolve.new("claimit", players=2)
    colorclaim = claimsolve.new("colorclaim", size="3x3", seed=1)
    with pytest.raises(ClaimsolveError) as refused:
        claimsolve.solve(claimit)
    assert str(refused.value) == f"solve: exact solving is for {solvable()}; this position is claimit (use analyze)"
    assert "colorclaim" in solvable()
    with pytest.raises(ClaimsolveError) as refused:
        claimsolve.odds(colorclaim)
    with_odds = ", ".join(catalog.ids_where(lambda game: game.odds is not None))
    assert "claimit" in with_odds
    assert str(refused.value) == f"odds: the stop/roll table is for {with_odds}; this position is colorclaim"


@pytest.mark.parametrize("args, message", [
    (["new", "colorclaim", "--island", "random"], "option '--island': colorclaim has no islands"),
    (["new", "colorclaim", "--variant", "x"], "option '--variant': colorclaim has no variants"),
    (["new", "colorclaim", "--players", "2"], "option '--players': colorclaim has a fixed number of players"),
    (["new", "claimit", "--size", "6x6"], "option '--size': claimit has no board sizes"),
    (["new", "claimit", "--seed", "3"], "option '--seed': claimit has no random setup"),
    (["new", "claim", "--seed", "5"], "option '--seed': claim draws a setup from a seed only with --island random"),
    (["new", "claim", "--players", "3", "--island", "standard-3", "--seed", "1"],
     "option '--seed': claim draws a setup from a seed only with --island random"),
    (["new", "chess"], f"unknown game 'chess' (known: {', '.join(catalog.game_ids())})"),
    (["match", "claimit", "--a", "random", "--b", "random", "--size", "4x4"],
     "option '--size': claimit has no board sizes"),
    (["match", "claimit", "--a", "alphabeta:depth=2", "--b", "random"],
     "player 'alphabeta:depth=2': alphabeta plays "
     f"{', '.join(catalog.ids_where(lambda game: not game.has_chance))}, not claimit"),
    (["match", "colorclaim", "--a", "threshold:2", "--b", "random"],
     "player 'threshold:2': threshold plays claimit, not colorclaim"),
])
def test_options_a_game_does_not_take_are_refused(args, message):
    result = run(*args)
    assert result.exit_code == 2
    assert result.stderr == f"claimsolve: {message}\n"


@pytest.mark.parametrize("options, message", [
    ({"game": "claimit", "size": "6x6"}, "parameter 'size': claimit has no board sizes"),
    ({"game": "claimit", "players": 6}, "parameter 'players': 6: Claim It! has 2 to 5 players"),
    ({"game": "colorclaim", "size": "0x5"}, "parameter 'size': 0x5: need 2 <= W, H and W*H <= 30 (the 30 pyramids)"),
    ({"game": "colorclaim", "seed": -1}, "parameter 'seed': must be a whole number from 0 to 9223372036854775807, "
                                         "not -1"),
])
def test_python_new_names_the_parameters(options, message):
    # the same checks as `claimsolve new`, which names them `option '--size'`
    with pytest.raises(ClaimsolveError) as caught:
        claimsolve.new(**options)
    assert str(caught.value) == message


MAX_SEED = "9223372036854775807"
SEED_FILE = str(Path(__file__).resolve().parent.parent / "seeds" / "colorclaim" / "start-3x3-seed1.json")


@pytest.mark.parametrize("call, message", [
    (lambda: run_match("colorclaim", "random", "random", 2, size="9x9"),
     "parameter 'size': 9x9: need 2 <= W, H and W*H <= 30 (the 30 pyramids)"),
    (lambda: run_match("claimit", "random", "random", 2, players=7), "parameter 'players': 7: Claim It! has 2 to 5 players"),
    (lambda: run_match("colorclaim", "random", "random", 2, size="3x3", duplicate=True),
     "parameter 'duplicate': colorclaim has no dice to deal alike"),
    (lambda: run_match("colorclaim", "random", "random", 0, size="3x3"),
     "parameter 'games': must be a whole number from 1 to 1000000000, not 0"),
    (lambda: run_match("claimit", "random", "random", 2, seed=-1),
     f"parameter 'seed': must be a whole number from 0 to {MAX_SEED}, not -1"),
    (lambda: claimsolve.analyze(claimsolve.new("claimit"), hash_mb=0), "parameter 'hash_mb': must be "),
    (lambda: claimsolve.analyze(claimsolve.new("claimit"), time=0), "parameter 'time': must be "),
    (lambda: claimsolve.analyze(claimsolve.new("claimit"), engine="alphabeta", iterations=5),
     "parameter 'iterations': counts MCTS simulations"),
    (lambda: claimsolve.odds(claimsolve.new("claimit"), samples=1), "parameter 'samples': must be "),
    (lambda: claimsolve.solve(claimsolve.new("colorclaim", size="2x2"), hash_mb=10 ** 9), "parameter 'hash_mb': must be "),
    (lambda: claimsolve.perft(claimsolve.new("colorclaim", size="2x2"), 0), "parameter 'depth': must be "),
    # they said "option '--ply'", "0: cannot read: No such file or directory", AttributeError
    (lambda: claimsolve.load(SEED_FILE, ply=2), f"{SEED_FILE}: parameter 'ply': this is a position file, not a game "
                                                "record"),
    (lambda: claimsolve.load(0), "cannot read 0: not a file name"),
    (lambda: claimsolve.dumps(None), "not a position: NoneType"),
])
def test_python_entry_points_name_their_parameters(call, message):
    # the command line names the same checks `option '--hash'` (and `match` its options, below)
    with pytest.raises(ClaimsolveError) as caught:
        call()
    assert str(caught.value).startswith(message)


@pytest.mark.parametrize("call, words", [
    (lambda: claimsolve.analyze(None), "not a position: NoneType"),
    (lambda: claimsolve.solve("p.json"), "not a position: str"),
    (lambda: claimsolve.odds(3), "not a position: int"),
    (lambda: claimsolve.review(None), "not a game record: NoneType"),
    (lambda: claimsolve.dumps(None), "not a position: NoneType"),
])
def test_an_argument_of_another_type_is_a_type_error(call, words):
    """`claimsolve.analyze(None)` raised a ClaimsolveError only, which an
    `except TypeError` (Python's own word for it) missed (a QA tester): it
    is a TypeError now, and a ClaimsolveError still."""
    with pytest.raises(TypeError) as caught:
        call()
    assert isinstance(caught.value, ClaimsolveError) and str(caught.value).startswith(words)


def test_python_entry_points_read_numbers_given_as_text_as_the_command_line_does():
    """`analyze(p, time="2")` passed the check and then failed deep in the
    engine ("TypeError: can't multiply sequence by non-int of type
    'float'"), as did odds' samples, time and seed, solve's time and
    analyze's iterations and top: the checked value is the one used."""
    position = claimsolve.new("colorclaim", size="3x3", seed=1)
    answer = claimsolve.analyze(position, time="0.2", top="2", seed="1", threads="1").to_json()
    assert len(answer["suggestions"]) == 2
    assert claimsolve.analyze(position, engine="mcts", iterations="100").to_json()["iterations"] <= 100
    assert claimsolve.solve(position, time="5", threads="1").exact
    table = claimsolve.odds(claimsolve.new("claimit", players=2), samples="100", time="1", seed="1")
    assert table.to_json()["samples"] == 100
    with pytest.raises(ClaimsolveError, match="parameter 'time': must be a number of seconds"):
        claimsolve.analyze(position, time="two")


@pytest.mark.parametrize("args, message", [
    (["--size", "9x9"], "option '--size': 9x9: need 2 <= W, H and W*H <= 30 (the 30 pyramids)"),
    (["--size", "3x3", "--duplicate"], "option '--duplicate': colorclaim has no dice to deal alike"),
])
def test_match_names_its_options(args, message):
    result = run("match", "colorclaim", "--a", "random", "--b", "random", *args)
    assert (result.exit_code, result.stderr) == (2, f"claimsolve: {message}\n")


def test_new_without_seed_draws_one_only_for_games_with_a_random_setup():
    assert run("new", "claimit").exit_code == 0
    first, second = run("new", "colorclaim", "--size", "3x3").stdout, run("new", "colorclaim", "--size", "3x3").stdout
    assert json.loads(first)["game"] == "colorclaim" and first != second


def _new_args(game, option, value):
    """The `new` options that make a position with `option` = `value` and
    the others at their defaults (a seed where the setup draws one)."""
    given = {option: value}
    if option == "brawl":             # Claim's brawl rule counts only with 3 seats: else refused
        given["players"] = 3
    if game.uses_seed(**{k: v for k, v in given.items() if k != "seed"}) and option != "seed":
        given["seed"] = 1
    return given


def test_python_refuses_a_brawl_rule_that_changes_nothing_as_new_does():
    with pytest.raises(claimsolve.ClaimsolveError) as refused:
        claimsolve.new("claim", players=4, brawl="cap")
    assert str(refused.value) == ("parameter 'brawl': the brawl's rule counts only with 3 seats: with 4 seats even "
                                  "and cap never differ (give players=3)")
    assert claimsolve.new("claim", players=3, brawl="cap").rules.brawl == "cap"
    # the game's own refusal first: a count of seats it does not take is said as such (it read "with 7 seats
    # even and cap never differ"), a variant it does not know likewise
    with pytest.raises(claimsolve.ClaimsolveError, match=r"^parameter 'players': 7: Claim is played by 2, 3 or 4"):
        claimsolve.new("claim", players=7, brawl="cap")
    with pytest.raises(claimsolve.ClaimsolveError, match=r"^parameter 'variant': 'bogus'"):
        claimsolve.new("claim", players=2, variant="bogus", brawl="cap")
    # the environments and the OpenSpiel games refuse it as new does
    from claimsolve.env import make_env
    with pytest.raises(claimsolve.ClaimsolveError, match=r"^parameter 'brawl': the brawl's rule counts only with 3"):
        make_env("claim", players=2, brawl="cap")
    env = make_env("claim", players=3, brawl="cap", render_mode="ansi")
    env.reset(seed=1)
    assert env.unwrapped.position().rules.brawl == "cap"


def test_every_closed_choice_of_every_game_makes_a_start():
    """The descriptors' `choices` (the page's select boxes) are values `new`
    takes, on the command line as in Python; `defaults` are what `new` does
    without the option."""
    seen = 0
    for game in catalog.all_games():
        assert set(game.defaults) == set(game.choices) and set(game.choices) <= set(game.options)
        for option, values in game.choices.items():
            assert values and len(set(values)) == len(values)
            for value in values:
                given = _new_args(game, option, value)
                position = claimsolve.new(game.id, **given)
                args = [f"--{name}={text}" for name, text in given.items()]
                result = run("new", game.id, *args)
                assert result.exit_code == 0, result.stderr
                assert json.loads(result.stdout) == position.to_json()
                seen += 1
            default = _new_args(game, option, game.defaults[option])
            without = {k: v for k, v in default.items() if k != option}
            assert claimsolve.new(game.id, **default) == claimsolve.new(game.id, **without)
    assert seen >= 60
    assert claimsolve.get_game("claimit").choices["variant"] == ("standard", "release_white")
    assert "6x5" in claimsolve.get_game("colorclaim").choices["size"]
    assert "1x9" not in claimsolve.get_game("colorclaim").choices["size"]


def test_claim_it_starts_with_the_release_white_variant():
    released = json.loads(run("new", "claimit", "--variant", "release_white").stdout)
    assert released["variant"] == {"release_white": True}
    assert json.loads(run("new", "claimit", "--variant", "standard").stdout)["variant"] == {"release_white": False}
    refused = run("new", "claimit", "--variant", "battle-for-two")
    assert refused.exit_code == 2
    assert refused.stderr == ("claimsolve: option '--variant': 'battle-for-two': Claim It! variants are "
                              "standard, release_white\n")


def test_a_descriptor_refuses_choices_of_an_option_it_does_not_take():
    from claimsolve.descriptor import GameDescriptor, Lazy
    with pytest.raises(ValueError, match="does not take: size"):
        GameDescriptor(id="x", title="X", position=Lazy("a.b:C"), options={"players": "2"},
                       choices={"size": ("3x3",)}, defaults={"size": "3x3"})
    with pytest.raises(ValueError, match="the default 5 of 'players' is not one of its choices"):
        GameDescriptor(id="x", title="X", position=Lazy("a.b:C"), options={"players": "2"},
                       choices={"players": (2, 3)}, defaults={"players": 5})
