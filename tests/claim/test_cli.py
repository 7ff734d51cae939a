"""Claim through the command line, as the README's tour uses it."""
import json
import xml.etree.ElementTree as ET
from pathlib import Path

from click.testing import CliRunner

import claimsolve
from claimsolve.cli.main import main

SEEDS = Path(__file__).resolve().parents[2] / "seeds" / "claim"


def run(*args, input=None):
    return CliRunner().invoke(main, [str(a) for a in args], input=input, catch_exceptions=False)


def ok(*args, input=None):
    result = run(*args, input=input)
    assert result.exit_code == 0, result.output
    return result.stdout


def test_the_tour(tmp_path):
    p = tmp_path / "p.json"
    p.write_text(ok("new", "claim", "--players", "3"))
    data = json.loads(p.read_text())
    assert (data["game"], data["players"], data["phase"]) == ("claim", 3, "settle")
    svg = tmp_path / "island.svg"
    assert "Player 1 to move" in ok("show", p, "--svg", svg)
    assert ET.fromstring(svg.read_text()).tag.endswith("svg")
    assert len(ok("moves", p).split("\n")) - 1 == 4095
    q = tmp_path / "q.json"
    q.write_text(ok("apply", p, "c3+d5"))
    assert json.loads(q.read_text())["to_move"] == 2
    assert json.loads(ok("moves", q, "--json"))[0] == "a5+b4"
    random_island = json.loads(ok("new", "claim", "--players", "4", "--island", "random", "--seed", "9"))
    assert random_island["territories"] == json.loads(
        ok("new", "claim", "--players", "4", "--island", "random", "--seed", "9"))["territories"]
    battle = json.loads(ok("new", "claim", "--players", "2", "--variant", "battle-for-two"))
    assert battle["variant"] == "battle-for-two" and len(battle["territories"]) == 13


def test_perft_counts_whole_turns_as_the_reference_does():
    play = SEEDS / "play-2p.json"
    assert json.loads(ok("perft", play, "--depth", "2", "--json")) == {"depth": 2, "nodes": [27, 1302]}
    assert claimsolve.load(play).perft(2) == [27, 1302]


def test_analyze_json_gives_whole_turns():
    out = json.loads(ok("analyze", SEEDS / "towers-2p.json", "--time", "0.3", "--top", "3", "--json"))
    position = claimsolve.load(SEEDS / "towers-2p.json")
    assert out["game"] == "claim" and out["engine"] == "alphabeta"
    assert [s["move"] for s in out["suggestions"]] and all(
        s["move"] in position.legal_moves() for s in out["suggestions"])
    assert len(out["suggestions"]) == 3


def test_analyze_json_gives_each_turns_captures():
    """--json's `captured`, for the board to cross out: describe's account
    (the tower placed as the anvil: tests/claim/test_position.py)."""
    path = SEEDS / "play-2p.json"
    out = json.loads(ok("analyze", path, "--time", "0.3", "--top", "8", "--json"))
    position = claimsolve.load(path)
    assert out["suggestions"] and all(s["captured"] == list(position.describe(s["move"]).captured)
                                      for s in out["suggestions"]), out["suggestions"]


def test_a_turn_in_parts_is_one_argument():
    brawl = SEEDS / "brawl-2p.json"
    move = ok("moves", brawl).split("\n")[0]
    assert ok("apply", brawl, move)
    result = run("apply", brawl, *move.split())
    assert result.exit_code == 2
    assert "quote a turn" in result.stderr and "Traceback" not in result.output


def test_match_plays_claim_from_the_play_phase():
    out = json.loads(ok("match", "claim", "--players", "4", "--a", "greedy", "--b", "random", "--games", "2",
                        "--json"))
    assert out["games"] == 2 and out["players"] == 4 and out["wins"] + out["draws"] + out["losses"] == 2


def test_bad_claim_input_names_the_field():
    result = run("moves", "-", input='{"game": "claim", "players": 5, "territories": ["a"], "board": ["."]}')
    assert result.exit_code == 2 and "players" in result.stderr
    result = run("analyze", SEEDS / "play-2p.json", "--engine", "solver")
    assert result.exit_code == 2 and "Color Claim" in result.stderr


def test_commands_accept_unsorted_points_and_full_routes(tmp_path):
    settle = tmp_path / "settle.json"
    settle.write_text(ok("new", "claim", "--players", "3"))
    assert ok("apply", settle, "d5+c3") == ok("apply", settle, "c3+d5")
    play = tmp_path / "play.json"
    play.write_text(json.dumps({"game": "claim", "players": 2, "territories": ["a a a a a"] * 5,
                                "board": [". . . . .", ". . . . .", ". . . . .", ". . . . 2", "T1 . 1 2 ."]}))
    assert "c1-e3" in ok("moves", play).split("\n")
    routed = json.loads(ok("apply", play, "c1-e1-e3"))
    assert routed == json.loads(ok("apply", play, "c1-e3"))
    assert routed["board"] == [". . . . .", ". . . . .", ". . . . 1", ". . . . 2", "T1 . . 2 ."]


def test_new_takes_the_brawl_rule_and_files_name_a_bad_one(tmp_path):
    assert json.loads(ok("new", "claim", "--players", "3"))["rules"]["brawl"] == "even"
    assert json.loads(ok("new", "claim", "--players", "3", "--brawl", "cap"))["rules"]["brawl"] == "cap"
    result = run("new", "claim", "--brawl", "fair")
    assert result.exit_code == 2 and "option '--brawl': 'fair': must be one of even, cap" in result.stderr
    result = run("new", "colorclaim", "--brawl", "cap")
    assert result.exit_code == 2 and "option '--brawl': colorclaim has no brawl" in result.stderr
    # where even and cap never differ the rule is refused, as play and match refuse it
    for args in (["--players", "2"], ["--players", "4"], ["--variant", "battle-for-two"]):
        result = run("new", "claim", *args, "--brawl", "cap")
        assert result.exit_code == 2 and "option '--brawl': the brawl's rule counts only with 3 seats" in result.stderr
    data = json.loads((SEEDS / "brawl-3p.json").read_text())
    data["rules"]["brawl"] = "fair"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    result = run("moves", bad)
    assert result.exit_code == 2
    assert "field 'rules.brawl': must be one of 'even', 'cap', not 'fair'" in result.stderr
    assert "Traceback" not in result.output


def _with_rules(tmp_path, name, players=3, **changed):
    """A new Claim position of `players` seats with `changed` rules, as a file."""
    data = json.loads(ok("new", "claim", "--players", players))
    data["rules"].update(changed)
    path = tmp_path / name
    path.write_text(json.dumps(data))
    return path


def test_show_says_the_rules_that_differ_from_the_defaults(tmp_path):
    # a player: "claimsolve show prints the same text for the even and cap brawl positions"
    even = _with_rules(tmp_path, "even.json", brawl="even")
    cap = _with_rules(tmp_path, "cap.json", brawl="cap")
    assert "rules:" not in ok("show", even).lower()
    shown = ok("show", cap)
    assert "Rules: brawl cap (the cap alone may leave the third of three nothing)." in shown.splitlines()
    assert ok("show", even) != shown
    # the line comes right under the header's status line
    lines = shown.splitlines()
    assert lines[lines.index(next(l for l in lines if l.startswith("Phase:"))) + 1].startswith("Rules: brawl cap")
    several = _with_rules(tmp_path, "several.json", brawl="cap", third_party_anvil=False, standstill="off",
                          draw_after=50)
    assert ("Rules: brawl cap, no third-party anvil, standstill off, a draw after 50 quiet plies."
            in ok("show", several).splitlines())


def test_the_rules_line_leaves_out_rules_that_do_not_apply_to_the_seats(tmp_path):
    # even and cap never differ with 2 or 4 seats; the third-party anvil needs 3
    for players in (2, 4):
        path = _with_rules(tmp_path, f"p{players}.json", players=players, brawl="cap", third_party_anvil=False)
        assert "rules:" not in ok("show", path).lower()
    four = _with_rules(tmp_path, "four.json", players=4, brawl="cap", standstill="off")
    assert "Rules: standstill off (a Viking may move in any number of turns in a row)." in ok("show", four)
    # show --json carries the same words (the board's status line shows them)
    assert json.loads(ok("show", four, "--json"))["rules"] == \
        "rules: standstill off (a Viking may move in any number of turns in a row)"
    assert "rules" not in json.loads(ok("show", _with_rules(tmp_path, "p2.json", players=2, brawl="cap"), "--json"))


def test_analyze_and_the_pictures_say_the_rules(tmp_path):
    cap = _with_rules(tmp_path, "cap.json", brawl="cap")
    svg = tmp_path / "cap.svg"
    ok("show", cap, "--svg", svg)
    root = ET.fromstring(svg.read_text())
    texts = ["".join(t.itertext()) for t in root.iter() if t.tag.endswith("text")]
    assert "Rules: brawl cap (the cap alone may leave the third of three nothing)" in texts
    even = _with_rules(tmp_path, "even.json", brawl="even")
    ok("show", even, "--svg", tmp_path / "even.svg")
    assert 'class="rules"' not in (tmp_path / "even.svg").read_text()
    answer = tmp_path / "an.svg"
    shown = ok("analyze", cap, "--iterations", "50", "--seed", "1", "--svg", answer)
    assert "Rules: brawl cap (the cap alone may leave the third of three nothing)." in shown
    assert "Rules: brawl cap" in answer.read_text()
