"""The JSON API of `claimsolve serve` (claimsolve.web) through Starlette's
TestClient, with its real worker processes: every endpoint for every game,
answers equal to what the commands print with --json, and bad input refused
with the command's own line (400), 413, 429 and 404."""
import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from click.testing import CliRunner
from starlette.testclient import TestClient

import claimsolve
from claimsolve.catalog import all_games
from claimsolve.cli.main import main
from claimsolve.web import create_app
from claimsolve.web.api import MAX_BODY
from claimsolve.web.api import MAX_BODY

SEEDS = Path(__file__).resolve().parent.parent.parent / "seeds"
# a position of each game, and one of each Claim phase
POSITIONS = ["claim/settle-2p.json", "claim/brawl-2p.json", "claim/towers-2p.json", "claim/play-2p.json",
             "claim/settle-battle-for-two.json", "claim/won-2p.json", "colorclaim/start-3x3-seed1.json",
             "colorclaim/late-6x5.json", "claimit/mid-game-3p.json", "claimit/mid-game-dice-3p.json",
             "claimit/game-over-3p.json"]
TIMING = ("seconds", "nodes_per_second")


@pytest.fixture(scope="module")
def client():
    with TestClient(create_app(max_time=20, workers=1, queue=1)) as client:
        yield client


def cli(*args, input=None):
    result = CliRunner().invoke(main, [str(a) for a in args], input=input, catch_exceptions=False)
    return result


def position(name):
    return json.loads((SEEDS / name).read_text())


def post(client, path, body):
    return client.post(f"/api/{path}", content=json.dumps(body))


def untimed(data):
    """`data` without the wall-clock figures, which differ run to run."""
    if isinstance(data, dict):
        return {k: untimed(v) for k, v in data.items() if k not in TIMING}
    if isinstance(data, list):
        return [untimed(v) for v in data]
    return data


def cli_error(result, path):
    """The command's error line without `claimsolve: FILE: ` (the API has no file)."""
    assert result.exit_code == 2, result.output
    line = result.stderr.strip()
    assert "\n" not in line
    return line.removeprefix("claimsolve: ").removeprefix(f"{path}: ")


# --- the quick commands ------------------------------------------------------------------

def test_games_lists_the_catalog(client):
    answer = client.get("/api/games").json()
    assert [g["id"] for g in answer["games"]] == [g.id for g in all_games()]
    assert answer["max_time"] == 20 and answer["workers"] == 1
    assert answer["max_body"] == MAX_BODY           # the page: whether its address can hold a game
    for game in answer["games"]:
        descriptor = claimsolve.get_game(game["id"])
        assert set(game["options"]) == set(descriptor.options)
        # the closed sets of values, for the page's select boxes, and their defaults
        assert game["choices"] == {option: list(values) for option, values in descriptor.choices.items()}
        assert game["defaults"] == descriptor.defaults
    claimit = next(game for game in answer["games"] if game["id"] == "claimit")
    assert claimit["choices"]["variant"] == ["standard", "release_white"] and claimit["defaults"]["players"] == 2


@pytest.mark.parametrize("game", [g.id for g in all_games()])
def test_new_is_what_new_prints(client, game):
    descriptor = claimsolve.get_game(game)
    options = {"seed": 5, **descriptor.seed_needs} if descriptor.takes("seed") else {}
    args = [f"--{k}={v}" for k, v in options.items()]
    response = post(client, "new", {"game": game, **options})
    assert response.status_code == 200, response.text
    assert response.headers["content-type"].startswith("application/json")
    assert response.text == cli("new", game, *args).stdout


def test_new_with_each_option(client):
    for game in all_games():
        for option in game.options:
            value = {"players": 2, "seed": 3}.get(option)
            if value is None:
                continue
            body = {"game": game.id, option: value}
            if game.takes("seed") and option != "seed":
                body["seed"] = 1
            if "seed" in body:
                body.update(game.seed_needs)        # what makes the seed count (Claim: a random island)
            cli_args = [f"--{name}={given}" for name, given in body.items() if name != "game"]
            response = post(client, "new", body)
            expected = cli("new", game.id, *cli_args)
            if expected.exit_code == 0:
                assert response.text == expected.stdout
            else:
                assert response.status_code == 400
                assert response.json()["error"] == cli_error(expected, None)


def test_a_brawl_rule_that_changes_nothing_is_refused_as_new_refuses_it(client):
    """`new claim --players 2 --brawl cap` is refused (even and cap differ
    with 3 seats only); the board's new game took it and made a position
    like every other 2-seat one."""
    response = post(client, "new", {"game": "claim", "players": 2, "brawl": "cap"})
    assert response.status_code == 400
    assert response.json()["error"] == ("option 'brawl': the brawl's rule counts only with 3 seats: with 2 seats "
                                        "even and cap never differ (give \"players\": 3)")
    made = post(client, "new", {"game": "claim", "players": 3, "brawl": "cap"})
    assert made.status_code == 200 and claimsolve.loads(made.text).rules.brawl == "cap"


@pytest.mark.parametrize("name", POSITIONS)
def test_show_and_moves_are_what_the_commands_print(client, name):
    path = SEEDS / name
    body = {"position": position(name)}
    assert post(client, "show", body).text == cli("show", path, "--json").stdout
    assert post(client, "moves", body).text == cli("moves", path, "--json").stdout


def test_a_position_may_come_as_its_text(client):
    text = (SEEDS / "claim/play-2p.json").read_text()
    assert post(client, "moves", {"position": text}).json() == claimsolve.loads(text).legal_moves()


@pytest.mark.parametrize("name", [n for n in POSITIONS if "over" not in n and "won" not in n])
def test_apply_is_what_apply_prints(client, name):
    path = SEEDS / name
    pos = claimsolve.load(path)
    moves = [pos.legal_moves()[-1]]
    after = pos.play(moves[0], rng=__import__("random").Random(1))
    if after.legal_moves() and not after.has_chance:
        moves.append(after.legal_moves()[0])
    response = post(client, "apply", {"position": position(name), "moves": moves, "seed": 4})
    assert response.status_code == 200, response.text
    assert response.text == cli("apply", path, *moves, "--seed", 4).stdout


def test_claim_it_roll_with_seed_and_typed_dice(client):
    name = "claimit/mid-game-3p.json"
    body = {"position": position(name), "moves": ["roll"], "seed": 11}
    assert post(client, "apply", body).text == cli("apply", SEEDS / name, "roll", "--seed", 11).stdout
    typed = post(client, "apply", {"position": position(name), "moves": ["roll:4,1,4"]})
    assert typed.status_code == 200
    assert typed.text == cli("apply", SEEDS / name, "roll:4,1,4").stdout


def check(client, name, moves, **options):
    response = post(client, "check", {"position": position(name), "moves": moves, **options})
    assert response.status_code == 200, response.text
    return response.json()


def test_check_reports_a_claim_capture_and_its_route(client):
    answer = check(client, "claim/play-2p.json", ["c3-e3"])
    assert answer["legal"] and answer["move"] == "c3-e3"
    assert answer["report"] == "c3-e3 captures e2"
    played = answer["played"]
    assert (played["from"], played["to"], played["route"], played["player"]) == ("c3", "e3", ["c3", "e3"], 1)
    assert played["removed"] == [{"point": "e2", "piece": "2", "left": None}] and played["vikings_captured"] == ["e2"]
    assert played["towers"] == [] and played["put"] == []
    # a jump chain: every landing on the route
    chain = check(client, "claim/play-battle-for-two.json", ["i11-c9"])["played"]
    assert chain["route"] == ["i11", "i9", "g9", "e9", "c9"]


def test_check_reports_towers_and_settled_vikings(client):
    towers = check(client, "claim/towers-2p.json", ["T@b4"])
    assert towers["report"] == "T@b4"
    assert towers["played"]["towers"] == ["b4"] and towers["played"]["put"] == [{"point": "b4", "piece": "T1"}]
    settle = check(client, "claim/settle-2p.json", ["d5+c3"])
    assert settle["report"] == "c3+d5 settles Vikings on c3 and d5"
    assert settle["played"]["put"] == [{"point": "c3", "piece": "1"}, {"point": "d5", "piece": "1"}]
    assert settle["played"]["towers"] == []


def test_check_reports_a_color_claim_stack_and_its_claim(client):
    answer = check(client, "colorclaim/start-3x3-seed1.json", ["a1xa2"])
    assert answer["report"].startswith("a1xa2 claims K1 (black); R3 moves to a2")
    played = answer["played"]
    assert (played["stack"], played["pyramid"], played["claimed"], played["route"]) == ("R3", "K1", "a2", ["a1", "a2"])
    stacked = check(client, "colorclaim/start-3x3-seed1.json", ["a1-a2"])["played"]
    assert stacked["claimed"] is None and "pyramid" not in stacked


def test_check_names_color_claim_points_past_z(client):
    """Columns past z are aa, ab, ... (seeds/colorclaim/RULES.md): the move's
    stack and the pyramid claimed are found by those names."""
    cells = ["."] * 28
    cells[25:28] = ["G1", "R2", "Y3"]
    wide = {"game": "colorclaim", "board": [" ".join(cells)]}
    response = post(client, "check", {"position": wide, "moves": ["z1xaa1"]})
    assert response.status_code == 200, response.text
    answer = response.json()
    assert answer["report"].startswith("z1xaa1 claims R2 (red); G1 moves to aa1")
    played = answer["played"]
    assert (played["stack"], played["pyramid"], played["claimed"]) == ("G1", "R2", "aa1")
    assert played["route"] == ["z1", "aa1"]
    assert answer["position"]["board"] == [" ".join(["."] * 26 + ["G1", "Y3"])]


def test_check_names_the_dice_of_a_roll_and_the_marker_placed(client):
    name = "claimit/mid-game-3p.json"
    answer = check(client, name, ["roll"], seed=11)
    # the same dice as apply with that seed, named in the move and the words
    assert answer["position"] == json.loads(cli("apply", SEEDS / name, "roll", "--seed", 11).stdout)
    dice = answer["position"]["dice"]
    assert answer["move"] == "roll:" + ",".join(map(str, dice))
    assert answer["played"]["dice"] == dice and answer["played"]["bust"] is False
    assert answer["report"] == claimsolve.load(SEEDS / name).describe(answer["move"]).text
    placement = claimsolve.load(SEEDS / "claimit/mid-game-dice-3p.json").legal_moves()[0]
    placed = check(client, "claimit/mid-game-dice-3p.json", [placement])
    marker, space = placement.split("@")
    assert placed["played"]["marker"] == marker and placed["played"]["to"] == space
    assert placed["played"]["put"][0]["point"] == space
    assert placed["played"]["put"][0]["piece"].split("/")[-1] == marker
    assert placed["report"].startswith(placement + " (")


def test_check_refuses_an_illegal_move_with_the_commands_line(client):
    path = SEEDS / "claim/play-2p.json"
    answer = check(client, "claim/play-2p.json", ["d3-d4"])
    assert answer == {"legal": False, "error": cli_error(cli("apply", path, "d3-d4"), path)}


@pytest.mark.parametrize("name, moves", [
    ("claim/settle-2p.json", ["a5"]),
    ("claim/play-2p.json", ["d3-d4"]),
    ("claim/play-2p.json", ["c3-c4", "c3-c5"]),
    ("claim/brawl-2p.json", ["xc4 xc5"]),
    ("colorclaim/start-3x3-seed1.json", ["a1-c3"]),
    ("claimit/mid-game-dice-3p.json", ["w1@1,1"]),
])
def test_an_illegal_move_is_refused_with_the_commands_line(client, name, moves):
    response = post(client, "apply", {"position": position(name), "moves": moves})
    assert response.status_code == 400
    path = SEEDS / name
    assert response.json() == {"error": cli_error(cli("apply", path, *moves), path)}


def test_an_invalid_position_is_refused_with_the_commands_line(client, tmp_path):
    bad = position("claim/play-2p.json")
    bad["board"][0] = bad["board"][0].replace(".", "9", 1)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(bad))
    for command in ("moves", "show"):
        response = post(client, command, {"position": bad})
        assert response.status_code == 400
        assert response.json()["error"] == cli_error(cli(command, path), path)


@pytest.mark.parametrize("body, words", [
    ({}, "missing 'position'"),
    ({"position": 3}, "position must be a JSON object"),
    ({"position": {"game": "chess"}}, "unknown game"),
    ({"position": "/etc/passwd"}, "invalid JSON"),
    ({"position": "seeds/claim/play-2p.json"}, "invalid JSON"),
    ({"position": {"game": "claimit"}, "file": "x.json"}, "unknown option 'file'"),
])
def test_bad_bodies(client, body, words):
    response = post(client, "moves", body)
    assert response.status_code == 400
    assert words in response.json()["error"]
    assert "\n" not in response.json()["error"]


def test_bodies_that_are_not_json_objects(client):
    for content in (b"", b"[1, 2]", b"{nope", b"\xff\xfe", b'{"position": {}, "position": {}}'):
        response = client.post("/api/moves", content=content)
        assert response.status_code == 400, content
        assert set(response.json()) == {"error"}


def test_bad_options(client):
    pos = position("claim/play-2p.json")
    cases = [("apply", {"moves": "c3-c4"}), ("apply", {"moves": [3]}), ("apply", {"moves": ["c3-c4"], "seed": -1}),
             ("analyze", {"time": -1}), ("analyze", {"time": "soon"}), ("analyze", {"engine": "magic"}),
             ("analyze", {"top": 0}), ("analyze", {"hash": 100000}), ("analyze", {"threads": 4}),
             ("solve", {}), ("odds", {}), ("new", {"game": "claim", "players": "many"}),
             ("new", {"game": "claimit", "size": "4x4"}), ("new", {"game": "claim", "seed": 5}), ("new", {}),
             ("new", {"game": 7})]
    for command, options in cases:
        body = dict(options) if command == "new" else {"position": pos, **options}
        response = post(client, command, body)
        assert response.status_code == 400, (command, options, response.text)
        error = response.json()["error"]
        assert error and "\n" not in error and "Traceback" not in error
        assert "'--" not in error, error            # a key of the body, not the command line's --size
    error = post(client, "new", {"game": "claimit", "size": "4x4"}).json()["error"]
    assert error == "option 'size': claimit has no board sizes", error


def test_a_whole_number_may_come_as_a_json_float(client):
    """JSON has one kind of number: `"samples": 300.0` (as some writers
    spell 300) is 300; 300.5 is still refused."""
    name = "claimit/mid-game-3p.json"
    answers = [post(client, "odds", {"position": position(name), "samples": n, "seed": 2}) for n in (300, 300.0)]
    assert [a.status_code for a in answers] == [200, 200], [a.text for a in answers]
    assert untimed(answers[1].json()["rows"]) == untimed(answers[0].json()["rows"])
    refused = post(client, "odds", {"position": position(name), "samples": 300.5})
    assert refused.status_code == 400
    assert refused.json()["error"] == "option 'samples': must be a whole number from 2 to 10000000, not 300.5"


def test_engine_time_is_capped_by_the_server(client):
    response = post(client, "analyze", {"position": position("claim/play-2p.json"), "time": 21})
    assert response.status_code == 400
    assert "at most 20 seconds on this server" in response.json()["error"]


def test_a_body_over_a_megabyte_is_413(client):
    big = json.dumps({"position": position("claim/play-2p.json"), "pad": "x" * MAX_BODY})
    response = client.post("/api/moves", content=big)
    assert response.status_code == 413
    assert "larger than" in response.json()["error"]

    def chunks():                   # no Content-Length: counted as it comes
        for _ in range(20):
            yield b" " * 100_000
    response = client.post("/api/moves", content=chunks())
    assert response.status_code == 413


def test_unknown_paths_and_methods(client):
    assert post(client, "perft2", {}).status_code == 404
    assert client.get("/api/moves").status_code == 405
    assert client.get("/static/../pyproject.toml").status_code == 404
    assert client.get("/static/%2e%2e/api.py").status_code == 404
    assert client.get("/etc/passwd").status_code == 404


def test_the_page_and_its_files(client):
    page = client.get("/")
    assert page.status_code == 200 and "<svg id=\"board\"" in page.text
    assert "default-src 'self'" in page.headers["content-security-policy"]
    for path in ("/static/app.js", "/static/style.js", "/static/style.css", "/static/favicon.svg", "/favicon.ico"):
        assert client.get(path).status_code == 200, path
    for game in all_games():
        assert client.get(f"/static/games/{game.id}.js").status_code == 200


def test_a_foreign_host_is_refused(client):
    # a web page that rebinds its name to 127.0.0.1 must not reach the API; the refusal is the API's
    # one-line JSON error (it was Starlette's text/plain "Invalid host header")
    for host in ("evil.example", "[not a host"):
        response = client.get("/api/games", headers={"host": host})
        assert response.status_code == 400 and response.headers["content-type"] == "application/json"
        assert response.json()["error"].startswith(f"Host header '{host}': this server listens on this machine's "
                                                   "loopback and answers only its names (127.0.0.1, localhost")
    assert client.get("/api/games").status_code == 200


# --- the long commands, in the worker ---------------------------------------------------

def test_analyze_is_what_analyze_prints(client):
    cases = [("colorclaim/start-3x3-seed1.json", ["--time", "10"], {"time": 10}),
             ("claim/settle-2p.json", ["--iterations", "300", "--seed", "3"], {"iterations": 300, "seed": 3}),
             ("claim/play-2p.json", ["--iterations", "200", "--engine", "mcts"], {"iterations": 200, "engine": "mcts"}),
             ("claim/won-2p.json", [], {})]
    for name, args, options in cases:
        expected = json.loads(cli("analyze", SEEDS / name, "--json", *args).stdout)
        response = post(client, "analyze", {"position": position(name), **options})
        assert response.status_code == 200, response.text
        answer = response.json()
        if expected["engine"] == "solver":
            # by default the solver runs on the cores: its values are the
            # same every run, but its node count, which of several equally
            # good moves comes first and the line shown may vary
            for found in (answer, expected):
                assert found["nodes"] > 0 and found["pv"][0] == found["suggestions"][0]["move"]
                found["suggestions"].sort(key=lambda s: s["move"])
                del found["nodes"], found["pv"]
        assert untimed(answer) == untimed(expected), name


def test_solve_and_odds_are_what_they_print(client):
    name = "colorclaim/start-3x3-seed1.json"
    expected = json.loads(cli("solve", SEEDS / name, "--json").stdout)
    assert untimed(post(client, "solve", {"position": position(name)}).json()) == untimed(expected)
    name = "claimit/mid-game-3p.json"
    # without a time every sample is played: the same table anywhere (the
    # turn optimum's own budget may end at another point: left out)
    answer = post(client, "odds", {"position": position(name), "samples": 300, "seed": 2}).json()
    expected = json.loads(cli("odds", SEEDS / name, "--json", "--samples", 300, "--seed", 2).stdout)
    assert untimed(answer["rows"]) == untimed(expected["rows"])
    assert answer["bust_probability"] == expected["bust_probability"] and answer["samples"] == 300


def test_analysis_streams_live_suggestions(client):
    body = {"position": position("claim/play-2p.json"), "time": 1.2, "top": 3}
    events = []
    with client.stream("POST", "/api/analyze", content=json.dumps(body),
                       headers={"accept": "text/event-stream"}) as response:
        assert response.headers["content-type"].startswith("text/event-stream")
        name = None
        for line in response.iter_lines():
            if line.startswith("event: "):
                name = line[7:]
            elif line.startswith("data: "):
                events.append((name, json.loads(line[6:])))
    kinds = [kind for kind, _ in events]
    assert kinds[-1] == "result" and "progress" in kinds
    live = [data for kind, data in events if kind == "progress" and data.get("suggestions")]
    assert live and len(live[0]["suggestions"]) <= 3
    legal = claimsolve.load(SEEDS / "claim/play-2p.json").legal_moves()
    assert all(s["move"] in legal for data in live for s in data["suggestions"])
    assert events[-1][1]["suggestions"][0]["move"] in legal


def test_stream_errors_come_before_the_stream(client):
    response = client.post("/api/analyze", content=json.dumps({"position": {"game": "claim"}}),
                           headers={"accept": "text/event-stream"})
    assert response.status_code == 400


def test_svg_pictures(client):
    pos = position("claim/play-2p.json")
    board = client.post("/api/svg", content=json.dumps({"position": pos}))
    assert board.headers["content-type"].startswith("image/svg+xml")
    assert board.text == claimsolve.from_dict(pos).svg()
    ET.fromstring(board.text)
    picture = client.post("/api/svg", content=json.dumps({"position": pos, "of": "analyze", "time": 0.5, "top": 3}))
    assert picture.status_code == 200, picture.text
    root = ET.fromstring(picture.text)
    assert 'class="suggestion best"' in picture.text and root.tag.endswith("svg")
    chart = client.post("/api/svg", content=json.dumps({"position": position("claimit/mid-game-3p.json"), "of": "odds",
                                                        "samples": 200}))
    assert chart.status_code == 200, chart.text
    ET.fromstring(chart.text)
    refused = client.post("/api/svg", content=json.dumps({"position": pos, "of": "perft"}))
    assert refused.status_code == 400


def test_busy_workers_answer_429_and_a_hung_up_stream_frees_its_worker(client):
    body = json.dumps({"position": position("claim/settle-2p.json"), "time": 15})
    headers = {"accept": "text/event-stream"}
    with client.stream("POST", "/api/analyze", content=body, headers=headers) as first:
        next(first.iter_lines())                       # running
        with client.stream("POST", "/api/analyze", content=body, headers=headers) as second:
            assert second.status_code == 200           # waiting in the queue
            third = client.post("/api/analyze", content=body)
            assert third.status_code == 429
            assert "busy" in third.json()["error"]
            # the quick commands do not wait for the workers
            assert post(client, "moves", {"position": position("claim/play-2p.json")}).status_code == 200
    # both streams closed: their searches are cancelled and the worker is free again
    quick = post(client, "analyze", {"position": position("colorclaim/start-3x3-seed1.json"), "time": 2})
    assert quick.status_code == 200, quick.text


# --- /api/record: a game record read by claimsolve.records, for the board ------------------------

START_3X3 = {"game": "colorclaim", "board": ["G3 G2 K3", "G1 R1 Y2", "K2 G1 K1"], "to_move": 1,
             "claims": [None, None], "shield": None}


def test_record_answers_the_start_the_moves_and_the_variations(client):
    games = "".join(json.dumps({"record": 1, "start": START_3X3, "moves": moves}) + "\n" for moves in [
        ["a2xa3", "b1xb2"],
        ["b2-a2", {"move": "a1xb1", "comment": "the reply", "variations": [["c1-b1", "b1xa1"]]}, "c1-b1"]])
    listed = post(client, "record", {"record": games})
    assert listed.status_code == 200, listed.text
    assert listed.json() == {"games": 2, "list": [
        {"game": 1, "line": 1, "players": None, "moves": 2, "result": None},
        {"game": 2, "line": 2, "players": None, "moves": 3, "result": None}]}
    answer = post(client, "record", {"record": games, "game": 2}).json()
    assert answer["games"] == 2 and answer["game"] == 2 and answer["start"] == START_3X3
    start = claimsolve.from_dict(START_3X3)
    moves = answer["moves"]
    assert [m["move"] for m in moves] == ["b2-a2", "a1xb1", "c1-b1"] and moves[1]["comment"] == "the reply"
    assert moves[2]["position"] == start.play("b2-a2").play("a1xb1").play("c1-b1").to_json()
    # the variation replaces a1xb1: played from the position after b2-a2
    variation = moves[1]["variations"][0]
    assert [m["move"] for m in variation] == ["c1-b1", "b1xa1"]
    assert variation[1]["position"] == start.play("b2-a2").play("c1-b1").play("b1xa1").to_json()
    assert answer["record"]["moves"][1]["variations"] == [["c1-b1", "b1xa1"]]
    # one record as a JSON object, as the page's link holds it
    one = post(client, "record", {"record": {"record": 1, "start": START_3X3, "moves": ["a2xa3"]}}).json()
    assert one["games"] == 1 and [m["move"] for m in one["moves"]] == ["a2xa3"]


def test_a_record_with_grades_says_what_their_values_are(client):
    """review --save's grades ("eval") carry no unit: the board said a loaded record's loss as
    "-3" where the review says "-3 points".  The answer says what the values are, as review
    would grade the record; nothing where no move has grades."""
    from claimsolve.colorclaim import review as colorclaim_review
    from claimsolve.claimit import review as claimit_review
    graded = {"move": "a2xa3", "eval": {"best": "a2xa3", "before": 0.0, "after": 0.0, "loss": 0.0,
                                        "grade": "best", "exact": True}}
    answer = post(client, "record", {"record": {"record": 1, "start": START_3X3, "moves": [graded]}}).json()
    assert answer["grades"] == {"unit": colorclaim_review.UNIT, "graph": "margin",
                                "thresholds": colorclaim_review.THRESHOLDS}
    # a grade in a variation alone counts too
    answer = post(client, "record", {"record": {"record": 1, "start": START_3X3, "moves": [
        {"move": "b2-a2", "variations": [[graded]]}]}}).json()
    assert answer["grades"]["graph"] == "margin"
    plain = post(client, "record", {"record": {"record": 1, "start": START_3X3, "moves": ["a2xa3"]}}).json()
    assert "grades" not in plain
    # Claim It!: a record does not name the measure of its grades; review's default for its seats
    start = claimsolve.new("claimit", players=3)
    roll = {"move": "roll:4,5,4", "eval": {"best": "roll", "before": 1.2, "after": 1.2, "loss": 0.0,
                                           "grade": "best", "exact": False}}
    answer = post(client, "record", {"record": {"record": 1, "start": start.to_json(), "moves": [roll]}}).json()
    objective = claimit_review.default_objective(start)
    assert answer["grades"] == {"unit": claimit_review.profile(start, objective)["unit"],
                                "graph": claimit_review.profile(start, objective)["graph"],
                                "thresholds": claimit_review.profile(start, objective)["thresholds"],
                                "objective": objective, "assumed": True}
    # review --save and the board now name it in each "eval": a record graded by secured spaces was
    # loaded in the default measure's unit (win chance)
    assert objective != "secured"
    named = {**roll, "eval": {**roll["eval"], "objective": "secured"}}
    answer = post(client, "record", {"record": {"record": 1, "start": start.to_json(), "moves": [named]}}).json()
    assert answer["grades"] == {"unit": claimit_review.profile(start, "secured")["unit"],
                                "graph": claimit_review.profile(start, "secured")["graph"],
                                "thresholds": claimit_review.profile(start, "secured")["thresholds"],
                                "objective": "secured"}
    # a measure the game does not take: review's default, said to be assumed
    bogus = {**roll, "eval": {**roll["eval"], "objective": "bogus"}}
    answer = post(client, "record", {"record": {"record": 1, "start": start.to_json(), "moves": [bogus]}}).json()
    assert answer["grades"]["objective"] == objective and answer["grades"]["assumed"] is True


def test_a_bad_record_is_refused_with_the_readers_line(client):
    games = (json.dumps({"record": 1, "start": START_3X3, "moves": ["a2xa3"]}) + "\n" +
             json.dumps({"record": 1, "start": START_3X3, "moves": ["b2-a2", "zz"]}) + "\n")
    refused = post(client, "record", {"record": games})
    assert refused.status_code == 400
    assert refused.json()["error"] == ("record: line 2: ply 2 ('zz'): not a Color Claim move (write b1-b2 to stack, "
                                       "b1xb2 to claim)")
    for body, words in [({"record": "{\"record\": 1}"}, "field 'start': missing"),
                        ({"record": games, "game": 3}, "option 'game': the file holds 2 games"),
                        ({"record": 5}, "option 'record': a game record's JSON object or text, not a number"),
                        ({}, "missing 'record'"),
                        # a NaN in a move's eval was a 500 (json.dumps of what the reader kept)
                        ({"record": {"record": 1, "start": START_3X3,
                                     "moves": [{"move": "a2xa3", "eval": {"loss": float("nan")}}]}},
                         "record: field 'moves[0].eval.loss': NaN (not a JSON number)")]:
        answer = post(client, "record", body)
        assert answer.status_code == 400 and words in answer.json()["error"], (body, answer.text)


def test_a_pasted_text_is_named_for_what_it_is_and_a_bom_is_skipped(client):
    """`[1,2,3]`, `42` and `null` (the text of Paste) were refused as "a
    position, not a game record"; a text starting with a byte-order mark
    got Python's "decode using utf-8-sig" (a file's BOM is skipped)."""
    for text, words in [("[1,2,3]", "a JSON array"), ("42", "a JSON number"), ("null", "JSON null"),
                        ('"x"', "a JSON string")]:
        answer = post(client, "record", {"record": text})
        assert answer.status_code == 400, answer.text
        assert answer.json()["error"] == f"record: {words}, not a position or a game record (docs/records.md)"
    record = json.dumps({"record": 1, "start": START_3X3, "moves": ["a2xa3"]})
    answer = post(client, "record", {"record": "\ufeff" + record})
    assert answer.status_code == 200 and [m["move"] for m in answer.json()["moves"]] == ["a2xa3"], answer.text


def test_a_record_past_the_quick_cap_is_refused_with_both_limits():
    """A 510 KB record of 60,000 moves was refused as "too large for this
    server's quick cap" while board.md said the server reads 1 MB: the
    refusal now names both limits, the bytes and the time to replay it."""
    # 3,000 variations of 2 moves: 6,000 moves replayed, past a cap of 0.05 s
    record = {"record": 1, "start": START_3X3,
              "moves": [{"move": "b2-a2", "variations": [["a2xa3", "b1xb2"]] * 3000}, "a1xb1"]}
    with TestClient(create_app(max_time=20, workers=1, queue=1, quick_time=0.05)) as client:
        answer = post(client, "record", {"record": record})
    assert answer.status_code == 422, answer.text
    assert answer.json()["error"] == (
        "/api/record: the record took more than 0.05 s to read (each move is replayed), this server's cap on "
        "a quick request, and it was stopped: a record opens if it is at most 1,024 KB and is read within "
        "0.05 s (no count of moves is set: some tens of thousands take longer)")


def test_a_moves_list_refused_shows_an_example_in_the_positions_game(client):
    """"must be a list of one or more moves, like ["c3+d5"]" (a Claim
    settle) answered a Color Claim position's "moves": "b1xa1"."""
    for start, moves in ((START_3X3, "a1xa2"), (claimsolve.new("claimit", players=3).to_json(), [])):
        answer = post(client, "apply", {"position": start, "moves": moves})
        assert answer.status_code == 400
        error = answer.json()["error"]
        first = claimsolve.from_dict(start).legal_moves()[0]
        assert error.endswith(f"must be a list of one or more moves, like [{json.dumps(first)}]"), error
        assert "c3+d5" not in error



def test_a_record_graded_on_every_move_answers_the_review_they_make(client):
    """A reviewed game saved and loaded again showed its marks and verdicts but not the review
    panel (graph and summary): /api/record answers the review its grades make, as the review's
    result gives it: the same summary, values and mirroring as the review that graded it."""
    start = claimsolve.new("colorclaim", size="3x3", seed=1)
    record = claimsolve.records.GameRecord.from_moves(start, ["c1-c2", "b1xb2", "b3xa3", "a2-a3", "c2xc3"],
                                                      players=["you", "alphabeta:depth=2"])
    review = claimsolve.review(record, time=0.5, workers=1)
    assert all(m.exact for m in review.moves)
    graded = record.to_json()
    graded["moves"] = [{"move": m["move"], "eval": m} for m in review.to_json()["moves"]]
    answer = post(client, "record", {"record": graded}).json()
    made = answer["review"]
    assert made["saved"] is True and made["mirrored"] is True and made["graph"] == "margin"
    assert made["summary"] == review.summary()
    assert made["evals"] == review.to_json()["evals"]
    assert made["moves"] == review.to_json()["moves"]
    # a move without its grade (a review stopped): the grades alone, no review
    graded["moves"][3] = graded["moves"][3]["move"]
    answer = post(client, "record", {"record": graded}).json()
    assert "grades" in answer and "review" not in answer
