"""`claimsolve play` driven as a person drives it: a real process, moves typed
on its standard input one at a time, its answers read back (the legal moves
asked for with `moves`, an illegal move's reason, `?`, undo, save, the end of
input), for all three games; the record it prints at the end replays to the
same final position through `claimsolve apply`."""
import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

import claimsolve

SEEDS = Path(__file__).resolve().parent.parent / "seeds"
PROMPT = "(you)> "     # the end of "player N (you)> "
WAIT = 120          # seconds a read may wait before the test gives up (a hang, not a timing check)


class Player:
    """A `claimsolve play` process and a person at its keyboard."""

    def __init__(self, *args, cwd):
        env = dict(os.environ, NO_COLOR="1")
        self.proc = subprocess.Popen([sys.executable, "-m", "claimsolve.cli.main", "play", *map(str, args)],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     cwd=cwd, env=env)
        self.out, self.err = bytearray(), bytearray()
        self.seen = 0                      # output before this was read by an earlier step
        self.err_mark = 0                  # standard error before the last line typed
        self.changed = threading.Condition()
        self.readers = [threading.Thread(target=self._pump, args=(self.proc.stdout, self.out), daemon=True),
                        threading.Thread(target=self._pump, args=(self.proc.stderr, self.err), daemon=True)]
        for reader in self.readers:
            reader.start()

    def _pump(self, stream, into):
        while True:
            chunk = os.read(stream.fileno(), 65536)
            with self.changed:
                if not chunk:
                    into.extend(b"\0")     # the end of the stream
                    self.changed.notify_all()
                    return
                into.extend(chunk)
                self.changed.notify_all()

    def until_prompt(self):
        """The output up to the next prompt (None when the program ended)."""
        with self.changed:
            ok = self.changed.wait_for(lambda: PROMPT.encode() in self.out[self.seen:] or b"\0" in self.out,
                                       timeout=WAIT)
            assert ok, "claimsolve play neither asked for a move nor ended"
            text = self.out[self.seen:].decode()
            at = text.find(PROMPT)
            if at < 0:
                return None
            self.seen += len(text[:at + len(PROMPT)].encode())
            return text[:at].rpartition("\n")[0]     # without the prompt's "player N"

    def type(self, line):
        """Types a line; returns what the program said before asking again
        (None when it ended)."""
        with self.changed:
            self.err_mark = len(self.err)
        self.proc.stdin.write((line + "\n").encode())
        self.proc.stdin.flush()
        return self.until_prompt()

    def legal_moves(self, every=False):
        """The moves `moves` lists (`moves all`: every one), its lines joined."""
        lines = self.type("moves all" if every else "moves").strip().splitlines()
        said = " ".join(line for line in lines if "legal moves, the first" not in line)
        return said.split(" | ") if " | " in said else said.split()

    def complaint(self):
        """The line the program wrote on standard error after the last line
        typed (it may come a moment after the next prompt: another pipe)."""
        with self.changed:
            ok = self.changed.wait_for(lambda: b"\n" in self.err[self.err_mark:], timeout=WAIT)
            assert ok, "claimsolve play did not complain"
            return self.err[self.err_mark:].decode().splitlines()[0]

    def finish(self):
        """Ends the input (Ctrl-D); returns (exit code, stdout, stderr)."""
        self.proc.stdin.close()
        code = self.proc.wait(timeout=WAIT)
        for reader in self.readers:
            reader.join(timeout=WAIT)
        return code, self.out.decode().rstrip("\0"), self.err.decode().rstrip("\0")


def record_of(stdout):
    line = stdout.strip().splitlines()[-1]
    return json.loads(line)


def replay(record, tmp_path):
    """The position `claimsolve apply` reaches from the record's start
    through its moves."""
    start = tmp_path / "start.json"
    start.write_text(json.dumps(record["start"]))
    done = subprocess.run([sys.executable, "-m", "claimsolve.cli.main", "apply", str(start), *record["moves"]],
                          capture_output=True, text=True, timeout=WAIT)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_color_claim_a_whole_game(tmp_path):
    game = Player("colorclaim", "--size", "3x3", "--seed", "4", "--vs", "random", cwd=tmp_path)
    board = game.until_prompt()
    assert "you play seat 1" in board and "a   b   c" in board
    # an illegal move: one line saying why, and the same turn again
    assert game.type("a1-c3") is not None
    assert game.complaint() == \
        "claimsolve: move 'a1-c3': a1 and c3 are not adjacent (a stack moves one space up, down, left or right)"
    said = game.type("help")
    assert "undo" in said and "save FILE" in said
    played = 0
    while True:
        said = game.type(game.legal_moves()[0])
        played += 1
        if said is None:
            break
        assert played < 40, "a 3x3 game of Color Claim has fewer moves"
    code, stdout, stderr = game.finish()
    assert code == 0, stderr
    # the board's "Game over: ..." line, once (the verdict after it said "Game over:" again), then yours
    assert stdout.count("Game over:") == 1
    verdict = stdout.split("Game over:")[1].split("The game's record")[0].strip().splitlines()[-1]
    assert verdict in ("You win (winners: player 1).", "The engine wins (winners: player 2).",
                       "A draw: every player shares the points.")
    record = record_of(stdout)
    assert record["record"] == 1 and record["a_seats"] == [1] and record["players"][0] == "you"
    assert len(record["moves"]) >= played and sorted(record["result"]["points"]) in ([0.0, 1.0], [0.5, 0.5])
    final = replay(record, tmp_path)
    assert final["to_move"] in (1, 2) and final == json.loads(json.dumps(final))
    # the record's moves replay to a finished game whose result is the record's
    shown = subprocess.run([sys.executable, "-m", "claimsolve.cli.main", "show", "-", "--json"],
                           input=json.dumps(final), capture_output=True, text=True, timeout=WAIT)
    assert json.loads(shown.stdout)["over"] is True


def test_color_claim_hint_undo_save_and_end_of_input(tmp_path):
    game = Player("colorclaim", "--size", "3x4", "--seed", "2", "--vs", "random", cwd=tmp_path)
    game.until_prompt()
    hint = game.type("?")
    lines = hint.strip().splitlines()
    # (the opponent is random: the hint is analyze's, and says so; it said "The engine's top 3")
    assert lines[0] == "The top 3 by claimsolve analyze (1 s), whatever engine the opponent is:"
    assert lines[1].startswith("Engine: ") and lines[2].startswith("Scores: ") and lines[3].startswith("Ordered by")
    header = next(i for i, line in enumerate(lines) if line.startswith("#  move"))
    rows = lines[header + 1:header + 4]
    suggested = [row.split()[1] for row in rows]
    assert [row.split()[0] for row in rows] == ["1", "2", "3"]
    assert all(move in game.legal_moves(every=True) for move in suggested)
    first = game.legal_moves()[0]
    game.type(first)
    after_reply = game.type("save after.json")
    assert "Saved the position to after.json" in after_reply
    saved = json.loads((tmp_path / "after.json").read_text())
    assert saved["to_move"] == 1                       # the engine has answered
    said = game.type("undo")
    assert f"Back to your turn 1 (taken back: {first} " in said
    game.type("save undone.json")
    start = json.loads((tmp_path / "undone.json").read_text())
    game.type(f" {first.upper()} ")                   # taken back, and kept, as the notation writes it
    assert f"(taken back: {first} " in game.type("undo")
    game.type(first)
    game.type("save again.json")
    code, stdout, stderr = game.finish()
    assert code == 0, stderr
    record = record_of(stdout)
    assert record["start"] == start and record["result"] is None
    assert record["moves"][0] == first and len(record["moves"]) == 2     # the undone moves are gone
    assert replay(record, tmp_path) == json.loads((tmp_path / "again.json").read_text())


def test_save_to_a_missing_folder_is_one_line_and_the_game_goes_on(tmp_path):
    game = Player("colorclaim", "--size", "3x3", "--seed", "1", "--vs", "random", cwd=tmp_path)
    game.until_prompt()
    assert game.type("save no/such/folder/p.json") is not None
    assert game.complaint().startswith("claimsolve: no/such/folder/p.json: cannot write")
    assert game.type("save") is not None
    assert game.complaint() == "claimsolve: save: name the file, like: save game.json"
    code, stdout, _stderr = game.finish()
    assert code == 0 and record_of(stdout)["moves"] == []


def test_save_leaves_the_file_that_record_will_write(tmp_path):
    # `save r.json` wrote the position where --record was to write the record: at the end the
    # record was refused ("the file exists") and the game ended with exit code 2
    game = Player("colorclaim", "--size", "3x3", "--seed", "1", "--vs", "random", "--record", "r.json",
                  cwd=tmp_path)
    game.until_prompt()
    assert game.type("save ./r.json") is not None
    assert game.complaint() == ("claimsolve: save: ./r.json is where --record writes the game's record at the "
                                "end: give another name")
    assert not (tmp_path / "r.json").exists()
    code, _stdout, _stderr = game.finish()
    assert code == 0 and json.loads((tmp_path / "r.json").read_text())["moves"] == []


def test_claim_it_dice_rolled_by_the_program_and_typed(tmp_path):
    game = Player("claimit", "--players", "2", "--seed", "11", "--vs", "random", cwd=tmp_path)
    game.until_prompt()
    said = game.type("roll")                           # the program rolls
    assert "Player 1 (you) plays roll:" in said
    placements = game.legal_moves()
    assert all("@" in move for move in placements)
    game.type("stop")
    assert game.complaint().startswith("claimsolve: move 'stop': the dice")
    game.type(placements[0])
    game.type("stop")                                  # the engine plays its turn
    said = game.type("roll:3,5,1")                     # real dice, typed
    assert "Player 1 (you) plays roll:3,5,1" in said
    game.type(game.legal_moves()[-1])
    game.type("save mine.json")
    code, stdout, stderr = game.finish()
    assert code == 0, stderr
    record = record_of(stdout)
    rolls = [move for move in record["moves"] if move.startswith("roll")]
    assert rolls and all(move.startswith("roll:") for move in rolls)   # every roll with its dice
    assert "roll:3,5,1" in record["moves"]
    assert replay(record, tmp_path) == json.loads((tmp_path / "mine.json").read_text())


def test_claim_whole_turns_and_a_reason(tmp_path):
    game = Player("claim", "--load", SEEDS / "claim" / "play-2p.json", "--seed", "5", "--vs", "greedy", cwd=tmp_path)
    game.until_prompt()
    game.type("c5-b5 b5-a5")                          # a turn in parts, its second part illegal
    assert game.complaint() == \
        "claimsolve: move 'c5-b5 b5-a5': b5-a5 captures nothing: a continuation must capture"
    for _ in range(3):
        turns = game.legal_moves()
        assert game.type(turns[-1]) is not None       # a whole turn, as `moves` writes it
    game.type("save now.json")
    code, stdout, stderr = game.finish()
    assert code == 0, stderr
    record = record_of(stdout)
    assert len(record["moves"]) == 6 and record["start"]["phase"] == "play"
    assert replay(record, tmp_path) == json.loads((tmp_path / "now.json").read_text())


def test_a_game_of_a_file_of_many_is_played_on_from_a_ply(tmp_path):
    """`play --load games.jsonl` named an option --game that play had not:
    a game of a match's file could not be played on."""
    games = tmp_path / "games.jsonl"
    subprocess.run([sys.executable, "-m", "claimsolve.cli.main", "match", "colorclaim", "--size", "3x3", "--a",
                    "random", "--b", "random", "--games", "2", "--seed", "1", "--save", str(games)],
                   check=True, capture_output=True, timeout=WAIT)
    second = json.loads(games.read_text().splitlines()[1])
    game = Player("colorclaim", "--load", games, "--game", 2, "--ply", 2, "--seed", "5", "--vs", "random",
                  cwd=tmp_path)
    game.until_prompt()
    code, stdout, _ = game.finish()
    assert code == 0
    record = record_of(stdout)
    at_ply_2 = claimsolve.load(games, game=2, ply=2)
    assert record["start"] == json.loads(claimsolve.dumps(at_ply_2))
    assert at_ply_2 == claimsolve.load(games, game=2, ply=0).play(second["moves"][0]).play(second["moves"][1])


@pytest.mark.parametrize("args, message", [
    (["colorclaim", "--ply", "3"], "claimsolve: option '--ply': picks a position out of a game record given by "
                                   "--load"),
    (["claim", "--seat", "3"], "claimsolve: option '--seat': must be a seat of this game, 1 to 2, not 3"),
    (["colorclaim", "--load", SEEDS / "claim" / "play-2p.json"], "the position is a claim position, not colorclaim"),
    (["colorclaim", "--vs", "mcts:tim=1"], "claimsolve: player 'mcts:tim=1': unknown option 'tim'"),
    (["claimit", "--brawl", "cap"], "claimsolve: option '--brawl': claimit has no brawl"),
    (["claim", "--players", "3", "--brawl", "fair"], "claimsolve: option '--brawl': 'fair': must be one of even, cap"),
    (["claim", "--brawl", "cap"], "claimsolve: option '--brawl': the brawl's rule counts only with 3 seats: with 2 "
                                  "seats even and cap never differ (give --players 3)"),
    (["claim", "--players", "4", "--brawl", "cap"], "option '--brawl': the brawl's rule counts only with 3 seats"),
    (["claim", "--players", "3", "--load", SEEDS / "claim" / "play-2p.json"],
     "claimsolve: option '--players': 3, but the position from --load "),
    (["claim", "--brawl", "cap", "--load", SEEDS / "claim" / "play-3p.json"],
     "plays the brawl under even"),
    # a loaded position's seats, as --players's: a rule that changes nothing there, or one unknown, is refused
    # as without --load (both were taken, or called a mismatch)
    (["claim", "--brawl", "even", "--load", SEEDS / "claim" / "play-4p.json"],
     "claimsolve: option '--brawl': the brawl's rule counts only with 3 seats: with 4 seats even and cap never "
     "differ\n"),
    (["claim", "--brawl", "foo", "--load", SEEDS / "claim" / "play-3p.json"],
     "claimsolve: option '--brawl': 'foo': must be one of even, cap"),
])
def test_bad_options_are_one_line(tmp_path, args, message):
    done = subprocess.run([sys.executable, "-m", "claimsolve.cli.main", "play", *map(str, args)],
                          capture_output=True, text=True, timeout=WAIT, stdin=subprocess.DEVNULL)
    assert done.returncode == 2
    assert len(done.stderr.strip().splitlines()) == 1 and message in done.stderr


# --- the session itself, in this process: what a player reads ---------------------

class Scripted:
    """A Session's person: types `lines` one at a time (then the end of
    input) and keeps what the session printed, each prompt in its place."""

    def __init__(self, lines):
        self.lines = list(lines)
        self.said = []

    def out(self, text):
        self.said.append(str(text))

    def err(self, text):
        self.said.append("ERR " + str(text))

    def ask(self, prompt):
        self.said.append("PROMPT " + prompt)
        return self.lines.pop(0) if self.lines else None

    def text(self):
        return "\n".join(self.said)

    def since_prompt(self, k):
        """What was printed after the k-th prompt (1-based) up to the next."""
        prompts = [i for i, line in enumerate(self.said) if line.startswith("PROMPT ")]
        end = prompts[k] if k < len(prompts) else len(self.said)
        return "\n".join(self.said[prompts[k - 1] + 1:end])


class EagerStopper:
    """An engine for Claim It! that places the first legal marker and stops
    as soon as it may; in other games it plays the first legal move."""

    name = "eager"
    progress = None

    def choose(self, position):
        legal = position.legal_moves()
        return "stop" if "stop" in legal else legal[0]

    def observe(self, position, move):
        pass

    def reset(self):
        pass


def session(start, lines, seed=1, engine=None):
    import random

    from claimsolve.play import Session
    person = Scripted(lines)
    game = Session(start, human={1}, engine=engine or EagerStopper(), rng=random.Random(seed), out=person.out,
                   err=person.err, ask=person.ask)
    return game, person


def test_claim_it_undo_never_draws_the_dice_again():
    import claimsolve
    start = claimsolve.new("claimit", players=2)
    game, person = session(start, ["roll", "undo", "roll"])
    game.run()
    dice = game.position.dice
    assert dice is not None and [move for move in game.moves] == [f"roll:{','.join(map(str, dice))}"]
    text = person.text()
    assert f"ERR undo: your roll:{','.join(map(str, dice))} cannot be undone: the dice of a roll stay drawn" in text
    assert "ERR move 'roll': the dice" in text              # rolling again is not a move while they lie
    # a placement is taken back, to the same dice; the second roll of the
    # turn then takes the dice the program draws next, as it would have
    first = start.resolve_chance("roll", __import__("random").Random(1))
    placements = start.play(first).legal_moves()
    game, person = session(start, ["roll", placements[0], "undo", placements[-1], "roll"])
    game.run()
    assert game.moves[0] == first and game.moves[1] == placements[-1]
    assert "Back to your turn 1 (taken back: " + placements[0] + ")." in person.text()
    again, _ = session(start, ["roll", placements[-1], "roll"])
    again.run()
    assert again.moves == game.moves                          # the same dice as without the undo


def test_claim_it_undo_after_the_engines_rolls_is_refused():
    import claimsolve
    start = claimsolve.new("claimit", players=2)
    first = start.resolve_chance("roll", __import__("random").Random(4))
    placement = start.play(first).legal_moves()[0]
    game, person = session(start, ["roll", placement, "stop", "undo"], seed=4)
    game.run()
    engine_rolls = [move for before, move, seat in game.history if seat == 2 and move.startswith("roll:")]
    assert engine_rolls
    assert (f"ERR undo: player 2 (engine) has rolled since your last move ({engine_rolls[-1]}): "
            "the dice of a roll stay drawn") in person.text()
    assert game.position.player_to_move == 1 and len(game.history) == 3 + len(
        [1 for _b, _m, seat in game.history if seat == 2])


def test_the_engines_turn_is_one_block_and_the_board_is_drawn_once():
    import claimsolve
    start = claimsolve.new("claimit", players=2)

    class Threshold(EagerStopper):
        """Rolls until it has placed 3 markers, then stops."""

        def choose(self, position):
            from claimsolve.claimit.players import placed_this_turn
            legal = position.legal_moves()
            if "stop" in legal and placed_this_turn(position) >= 3:
                return "stop"
            return "roll" if "roll" in legal else legal[0]

    first = start.resolve_chance("roll", __import__("random").Random(2))
    placement = start.play(first).legal_moves()[0]
    game, person = session(start, ["roll", placement, "stop"], seed=2, engine=Threshold())
    game.run()
    block = person.since_prompt(3)                       # after your stop, up to your next prompt
    engine = [(before, move) for before, move, seat in game.history if seat == 2]
    assert len(engine) >= 3
    assert block.count("Claim It!  2 players") == 2      # the board after your stop, then once after its turn
    lines = block.splitlines()
    head = next(i for i, line in enumerate(lines) if line.startswith("Player 2 (engine) plays "))
    below = lines[head + 1:head + len(engine)]
    assert all(line.startswith("  ") for line in below)
    shown = [lines[head].removeprefix("Player 2 (engine) plays ")] + [line[2:] for line in below]
    assert shown == [before.describe(move).text for before, move in engine]
    assert any(move.startswith("roll:") and "(dice " in line for (_b, move), line in zip(engine, shown))


def test_turns_are_counted_as_turns():
    """Two turns of yours (roll, place, stop) and the engine's, then a
    placement of your third turn taken back: "your turn 3", not the number
    of your decisions (8)."""
    import claimsolve
    start = claimsolve.new("claimit", players=2)
    lines = []
    for _ in range(3):          # on a nearly empty board no roll busts
        game, _person = session(start, lines + ["roll"])
        game.run()
        lines += ["roll", game.position.legal_moves()[0], "stop"]
    lines[-1] = "undo"
    game, person = session(start, lines)
    game.run()
    assert "Back to your turn 3 (taken back: " + lines[-2] + ")." in person.text()
    assert len([1 for _b, _m, seat in game.history if seat == 1]) == 7


def test_every_move_is_reported_with_what_it_captured(tmp_path):
    import claimsolve
    start = claimsolve.load(SEEDS / "claim" / "play-2p.json")

    class Capturer(EagerStopper):
        def choose(self, position):
            return "f4-f3 T@g3" if "f4-f3 T@g3" in position.legal_moves() else position.legal_moves()[0]

    game, person = session(start, ["c3-e3"], engine=Capturer())
    game.run()
    text = person.text()
    assert "Player 1 (you) plays c3-e3 captures e2" in text
    assert "Player 2 (engine) plays f4-f3 T@g3 captures e3" in text


def test_moves_shows_the_first_40_and_how_many_then_all():
    import claimsolve
    start = claimsolve.load(SEEDS / "claim" / "settle-2p.json")
    legal = start.legal_moves()
    game, person = session(start, ["moves", "moves all"])
    game.run()
    first, every = person.since_prompt(1), person.since_prompt(2)
    assert first.splitlines()[0] == f"{len(legal):,} legal moves, the first 40 ('moves all' lists every one):"
    assert " ".join(first.splitlines()[1:]).split() == legal[:40]
    assert every.split() == legal
    assert max(len(line) for line in every.splitlines()) <= 100
    small = claimsolve.load(SEEDS / "claim" / "play-2p.json")
    game, person = session(small, ["moves"])
    game.run()
    assert person.since_prompt(1).split() == small.legal_moves()
    turns = claimsolve.from_dict({"game": "claim", "players": 2, "territories": ["a a a b b b"] * 3,
                                  "board": ["2 . . . . 2", ". 1 . T2 1 .", ". . . . . ."]})
    assert any(" " in move for move in turns.legal_moves())         # turns with towers: " | " between
    game, person = session(turns, ["moves"])
    game.run()
    assert " ".join(person.since_prompt(1).splitlines()).split(" | ") == turns.legal_moves()


def test_a_command_with_a_bad_argument_is_refused_as_the_command():
    """`moves foo` was read as a move ("move 'moves foo': not a Color Claim
    move"), as were `board x`, `undo 2`, `? x`: each is now the command's
    one line naming what it does not take; nothing is played."""
    import claimsolve
    start = claimsolve.new("colorclaim", size="3x3", seed=1)
    game, person = session(start, ["moves foo", "MOVES all x", "board x", "undo 2", "? x", "moves ALL"])
    game.run()
    refused = [line for line in person.said if line.startswith("ERR ")]
    assert refused == [
        "ERR moves: unknown argument 'foo': type moves (the first 40 legal moves) or moves all (every one)",
        "ERR moves: unknown argument 'all x': type moves (the first 40 legal moves) or moves all (every one)",
        "ERR board: takes no argument, not 'x': board alone draws the board again",
        "ERR undo: takes no argument, not '2': undo alone takes back your last move",
        "ERR ?: takes no argument, not 'x': ? alone shows the top 3 moves by claimsolve analyze"]
    assert person.since_prompt(6).split() == start.legal_moves() and game.moves == []


@pytest.mark.parametrize("name", ["colorclaim", "claimit", "claim"])
def test_game_over_is_said_once_then_the_result_for_you(name):
    """The board's "Game over: a draw (0-0)." was followed by "Game over: A
    shared result (winners: player 1, player 2)."."""
    import claimsolve
    start = {"colorclaim": lambda: claimsolve.new("colorclaim", size="3x3", seed=1),
             "claimit": lambda: claimsolve.new("claimit", players=2),
             "claim": lambda: claimsolve.load(SEEDS / "claim" / "play-2p.json")}[name]()
    game, person = session(start, [])
    game.ask = lambda prompt: EagerStopper().choose(game.position)        # the first move, or stop
    game.run()
    assert game.position.is_over()
    text = person.text()
    assert text.count("Game over") == 1, text[-1500:]
    assert person.said[-1] in ("\nYou win (winners: player 1).", "\nThe engine wins (winners: player 2).",
                               "\nA draw: every player shares the points.")


def test_help_speaks_of_dice_only_in_the_game_with_dice():
    # Color Claim's and Claim's help said "undo  take back your last move (a roll's dice stay drawn)"
    import claimsolve
    for start, dice in ((claimsolve.new("colorclaim", size="3x3", seed=1), False),
                        (claimsolve.load(SEEDS / "claim" / "play-2p.json"), False),
                        (claimsolve.new("claimit", players=2), True)):
        _game, person = session(start, ["help"])
        _game.run()
        said = person.since_prompt(1)
        assert "undo       take back your last move" in said and ("dice" in said) == dice


def test_the_hint_shows_analyzes_labels_and_columns():
    """`?` prints what analyze prints of the same answer below the board (the
    engine, what its scores are, what orders them, the table's columns, the
    notes), cut to the top 3."""
    import claimsolve
    from claimsolve.render import analysis_text

    for position, engine in [(claimsolve.load(SEEDS / "colorclaim" / "start-3x4-seed1.json"), "solver"),
                             (claimsolve.load(SEEDS / "claim" / "play-2p.json"), "alphabeta"),
                             (claimsolve.load(SEEDS / "claimit" / "mid-game-dice-3p.json"), "mcts")]:
        analysis = claimsolve.analyze(position, iterations=2000 if engine == "mcts" else None,
                                      time=None if engine == "mcts" else 0.5, engine=engine, seed=1)
        analysis.result.suggestions = analysis.result.suggestions[:3]
        game, person = session(position, ["?"])
        game.hint = lambda _position, _progress: analysis
        game.run()
        said = person.since_prompt(1).splitlines()
        assert said[0] == (f"The top {min(3, len(analysis.result.suggestions))} by claimsolve analyze (1 s), "
                           "whatever engine the opponent is:")
        board = position.render()
        shown = analysis_text(analysis)[len(board):].strip().splitlines()
        assert shown[0].startswith(f"Player {position.player_to_move} to move.  Engine: ")
        assert said[1:] == [shown[0].split("  ", 1)[1]] + shown[1:]
        assert any(line.startswith("#  move") for line in said)


def test_json_puts_the_record_alone_on_standard_output(tmp_path):
    """`play --json`: standard output is one JSON document, the record; the
    board, the prompts and the answers are on standard error."""
    done = subprocess.run([sys.executable, "-m", "claimsolve.cli.main", "play", "colorclaim", "--size", "3x3",
                           "--seed", "2", "--vs", "random", "--json"], input="A1-A2\nquit\n", capture_output=True,
                          text=True, cwd=tmp_path, timeout=60)
    assert done.returncode == 0, done.stderr
    record = json.loads(done.stdout)
    assert record["moves"][0] == "a1-a2" and record["players"] == ["you", "random"]
    assert "player 1 (you)> " in done.stderr and "Player 1 (you) plays a1-a2" in done.stderr
    assert replay(record, tmp_path)["game"] == "colorclaim"


def _record_of_a_game_left_at_once(*args):
    """`play ... --json` with standard input closed at once: the record of a game of no moves."""
    done = subprocess.run([sys.executable, "-m", "claimsolve.cli.main", "play", *map(str, args), "--vs", "random",
                           "--seat", "1", "--json"], capture_output=True, text=True, timeout=WAIT,
                          stdin=subprocess.DEVNULL, env=dict(os.environ, NO_COLOR="1"))
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout), done.stderr


def test_brawl_picks_the_rule_of_a_new_game():
    # a player: "claimsolve play claim --players 3 --brawl cap" failed "no such option '--brawl'"
    record, shown = _record_of_a_game_left_at_once("claim", "--players", "3", "--brawl", "cap")
    assert record["start"]["rules"]["brawl"] == "cap" and record["start"]["players"] == 3
    assert "Rules: brawl cap (the cap alone may leave the third of three nothing)." in shown
    record, _ = _record_of_a_game_left_at_once("claim", "--players", "3", "--brawl", "even")
    assert record["start"]["rules"]["brawl"] == "even"


FOUR_SEATS = {"game": "claim", "players": 4, "territories": ["a a a b b b", "a a a b b b", "c c c d d d",
                                                             "c c c d d d", "e e e f f f", "e e e f f f"],
              "board": [". T1 . . T3 .", "1 . 2 3 . .", ". T1 . . T3 .", ". . . . . .", ". 4 . . 2 T4",
                        "T2 . 1 . . ."],
              "phase": "play", "to_move": 1}


def test_players_that_match_the_loaded_position_are_taken(tmp_path):
    # a player: "play claim --players 4 --load p09_4seat_win.json" was refused ("the game starts
    # from --load ...") though the position has 4 seats; a conflicting count is still refused
    path = tmp_path / "four.json"
    path.write_text(json.dumps(FOUR_SEATS))
    record, _ = _record_of_a_game_left_at_once("claim", "--players", "4", "--load", path)
    assert record["start"]["players"] == 4
    done = subprocess.run([sys.executable, "-m", "claimsolve.cli.main", "play", "claim", "--players", "2",
                           "--load", str(path)], capture_output=True, text=True, timeout=WAIT,
                          stdin=subprocess.DEVNULL)
    assert done.returncode == 2
    assert done.stderr.strip() == (f"claimsolve: option '--players': 2, but the position from --load {path} "
                                   "has 4 players")
