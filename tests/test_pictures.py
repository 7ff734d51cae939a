"""The pictures of answers (claimsolve.render: analysis_svg, odds_svg,
match_svg and the commands' --svg): parsed as XML (well-formed, a viewBox, an
accessible title, one drawing and one score label per suggestion, the best
one marked) for every game and Claim phase, and rendered to PNG in a real
headless Chromium (skipped, saying why, where it is missing; in CI, which
installs it, a missing one fails).  The PNGs go to $CLAIMSOLVE_SCREENSHOTS or
a temporary folder, to be looked at."""
import json
import os
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

import claimsolve
from claimsolve.render import claim as claim_picture
from claimsolve import render
from claimsolve.match import GameRecord, MatchResult
from claimsolve.render.svg import BEST
from claimsolve.search.result import SearchResult, Suggestion

SEEDS = Path(__file__).resolve().parent.parent / "seeds"
NS = {"svg": "http://www.w3.org/2000/svg"}
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


def parse(document):
    root = ET.fromstring(document)
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    numbers = [float(x) for x in root.get("viewBox").split()]
    assert numbers[:2] == [0, 0] and numbers[2] > 100 and numbers[3] > 100
    title = root.find("svg:title", NS)
    assert title is not None and title.text.strip(), "an accessible title first"
    assert root.get("role") == "img"
    return root


def classes(element):
    return (element.get("class") or "").split()


def suggestions(root):
    return [g for g in root.iter("{http://www.w3.org/2000/svg}g") if "suggestion" in classes(g)]


def labels(root):
    return [g for g in root.iter("{http://www.w3.org/2000/svg}g") if "score-label" in classes(g)]


def marks(group, kind):
    return [e for e in group.iter() if kind in classes(e)]


def result_of(moves, engine="mcts"):
    """A search result naming `moves`, best first, with falling scores."""
    return SearchResult(engine=engine, suggestions=[Suggestion(move=m, score=0.7 - 0.05 * i, visits=100 - i)
                                                    for i, m in enumerate(moves)])


def check_ranked(root, moves):
    groups = suggestions(root)
    assert [g.get("data-move") for g in sorted(groups, key=lambda g: int(g.get("data-rank")))] == moves
    best = [g for g in groups if "best" in classes(g)]
    assert len(best) == 1 and best[0].get("data-rank") == "1"
    texts = [" ".join(t.text for t in g.iter("{http://www.w3.org/2000/svg}text")) for g in labels(root)]
    assert len(texts) == len(moves)
    said = []
    for rank, move in enumerate(moves, 1):
        score = next(g.get("data-score") for g in groups if g.get("data-rank") == str(rank))
        # a score an earlier label says already: the rank alone (and the panel says so)
        assert (f"{rank}" if score in said else f"{rank}: {score}") in texts, texts
        said.append(score)
        assert any(move in (t.text or "") for t in root.iter("{http://www.w3.org/2000/svg}text")), move
    # the best one's label is filled with the best colour, the others are not
    for g in labels(root):
        fill = next(e for e in g.iter() if "label" in classes(e)).get("fill")
        assert (fill == BEST) == (g.get("data-rank") == "1")
    return {int(g.get("data-rank")): g for g in groups}


def test_claim_play_arrows_follow_the_jump_chain_and_cross_out_captures():
    position = claimsolve.load(SEEDS / "claim" / "play-3p.json")
    moves = ["i4-g8", "i4-e4", "i4-i5"]
    root = parse(render.analysis_svg(position, result_of(moves)))
    ranked = check_ranked(root, moves)
    for group in ranked.values():
        assert len(marks(group, "arrow")) == 1
    # i4-g8 hops i4 -> g4 -> g6 -> g8: the arrow turns twice (four points)
    route = marks(ranked[1], "arrow")[0].get("d")
    assert route.startswith("M") and route.count(" L") == 3
    assert marks(ranked[3], "arrow")[0].get("d").count(" L") == 1        # a step
    # a movement that captures crosses out what it takes
    two = claimsolve.load(SEEDS / "claim" / "play-2p.json")
    captured = two.play("c5-b5").pieces()
    assert len(captured) < len(two.pieces())
    root = parse(render.analysis_svg(two, result_of(["c5-b5", "h3-g3"], engine="alphabeta")))
    ranked = check_ranked(root, ["c5-b5", "h3-g3"])
    assert len(marks(ranked[1], "mark")) == 1 and len(marks(ranked[2], "mark")) == 0


def test_claim_a_turn_in_parts_continuation_and_tower():
    position = claimsolve.load(SEEDS / "claim" / "play-2p.json")
    for move in ["c5-c6", "e2-d2", "j6-j7", "d3-d4", "k3-l3"]:
        position = position.play(move)
    moves = [m for m in position.legal_moves() if m.startswith("k4-l4 l4-l5 T@")][:2]
    assert len(moves) == 2
    root = parse(render.analysis_svg(position, result_of(moves)))
    ranked = check_ranked(root, moves)
    for group in ranked.values():
        assert len(marks(group, "arrow")) == 2          # the movement and its continuation
    assert len(marks(ranked[1], "mark")) >= 2           # what the best captures, and the tower placed
    assert len(marks(ranked[2], "mark")) == 1           # the tower placed (the others' captures: the key)


def test_claim_settle_pairs_and_brawl_removals():
    settle = claimsolve.load(SEEDS / "claim" / "settle-2p.json")
    moves = settle.legal_moves()[:4]
    ranked = check_ranked(parse(render.analysis_svg(settle, result_of(moves))), moves)
    for group in ranked.values():
        assert len(marks(group, "mark")) == 2           # the two Vikings settled
    brawl = claimsolve.load(SEEDS / "claim" / "brawl-2p.json")
    moves = brawl.legal_moves()[:3]
    ranked = check_ranked(parse(render.analysis_svg(brawl, result_of(moves))), moves)
    for group in ranked.values():
        assert len(marks(group, "mark")) == 4           # four removals
    towers = claimsolve.load(SEEDS / "claim" / "towers-2p.json")
    moves = towers.legal_moves()[:3]
    ranked = check_ranked(parse(render.analysis_svg(towers, result_of(moves, engine="alphabeta"))), moves)
    assert all(len(marks(group, "mark")) == 1 for group in ranked.values())


def test_color_claim_arrows_and_claim_rings():
    position = claimsolve.load(SEEDS / "colorclaim" / "late-6x5.json")
    moves = position.legal_moves()
    claims = [m for m in moves if "x" in m]
    assert claims
    chosen = [claims[0]] + [m for m in moves if "x" not in m][:2]
    ranked = check_ranked(parse(render.analysis_svg(position, result_of(chosen, engine="solver"))), chosen)
    assert all(len(marks(group, "arrow")) == 1 for group in ranked.values())
    assert len(marks(ranked[1], "mark")) == 1 and len(marks(ranked[2], "mark")) == 0


def test_claim_it_placements_and_decisions():
    dice = claimsolve.load(SEEDS / "claimit" / "mid-game-dice-3p.json")
    moves = dice.legal_moves()[:5]
    ranked = check_ranked(parse(render.analysis_svg(dice, result_of(moves))), moves)
    assert all(len(marks(group, "mark")) == 1 for group in ranked.values())
    decide = claimsolve.load(SEEDS / "claimit" / "mid-game-3p.json")
    root = parse(render.analysis_svg(decide, result_of(["roll", "stop"])))
    ranked = check_ranked(root, ["roll", "stop"])
    buttons = [t.text for t in root.iter("{http://www.w3.org/2000/svg}text")]
    assert "roll" in buttons and "stop" in buttons
    # show --svg draws no buttons: they belong to the suggestions
    assert "stop" not in [t.text for t in parse(decide.svg()).iter("{http://www.w3.org/2000/svg}text")]


@pytest.mark.parametrize("seed", ["claim/play-2p.json", "claim/settle-3p.json", "colorclaim/start-4x3-seed1.json",
                                  "claimit/late-turn-stop-3p.json"])
def test_a_real_analysis_of_every_game(seed):
    position = claimsolve.load(SEEDS / seed)
    analysis = claimsolve.analyze(position, iterations=300, top=3) if "settle" in seed or "claimit" in seed \
        else claimsolve.analyze(position, time=0.2, top=3)
    moves = [s.move for s in analysis.result.suggestions]
    check_ranked(parse(render.analysis_svg(position, analysis)), moves)
    # top= draws fewer; a game over says so and draws none
    assert len(suggestions(parse(render.analysis_svg(position, analysis, top=1)))) == 1


def test_an_mcts_mean_is_drawn_with_its_visits_and_interval():
    # the panel's note promises "with its 95% interval": each row shows it, and the visits that make it
    position = claimsolve.load(SEEDS / "claimit" / "mid-game-3p.json")
    analysis = claimsolve.analyze(position, iterations=2000, engine="mcts", seed=1)
    root = parse(render.analysis_svg(position, analysis))
    texts = [t.text or "" for t in root.iter("{http://www.w3.org/2000/svg}text")]
    for s in analysis.result.suggestions:
        low, high = s.extra["ci95"]
        visits = f"{s.visits:,} visit{'s' * (s.visits != 1)}"
        detail = f"{visits}, 95% CI {low:.3f}-{high:.3f}"
        assert detail in texts, texts
        group = next(g for g in suggestions(root) if g.get("data-move") == s.move)
        assert detail in group.find("svg:title", NS).text
    assert any(t.startswith("Ordered by visits") for t in texts)


def test_what_is_proven_of_a_move_is_drawn_beside_its_score():
    # the text's table says "proven win (=+2)", "proven <=0"; the picture showed the scores alone
    position = claimsolve.load(SEEDS / "colorclaim" / "start-3x3-seed1.json")
    analysis = claimsolve.analyze(position, engine="solver", time=60)
    root = parse(render.analysis_svg(position, analysis))
    texts = [t.text or "" for t in root.iter("{http://www.w3.org/2000/svg}text")]
    for s in analysis.result.suggestions:
        words = render.text.proof_text(s)
        assert words.startswith("proven") and words in texts, (words, texts)


def test_score_labels_keep_off_a_stacks_height_mark():
    """A QA player's 5x4 position: "3: <=+0" covered e1's "x2", so the
    stack's height could not be read.  Every label keeps off every height
    mark where a free spot is near (here there is)."""
    position = claimsolve.from_dict({"game": "colorclaim", "board": ["R3 G1 K2 Y1 B2", "B1 . R1 G3 .",
                                                                     "Y3 G2/K3 B3 . R2", ". K1 Y2 G2 B1/R1"],
                                     "to_move": 1, "claims": ["B", "G"], "shield": 2})
    moves = [m for m in position.legal_moves() if m[:2] in ("e1", "e2", "b2", "b1", "c2", "a2")][:8]
    root = parse(render.analysis_svg(position, result_of(moves, engine="alphabeta")))
    marks_at = [t for t in root.iter("{http://www.w3.org/2000/svg}text") if (t.text or "").startswith("x")
                and (t.text or "")[1:].isdigit()]
    assert len(marks_at) == 2                              # b2 and e1 hold two pyramids each
    boxes = [(float(t.get("x")) - 22, float(t.get("y")) - 14, 22, 16) for t in marks_at]
    for group in labels(root):
        rect = next(e for e in group.iter("{http://www.w3.org/2000/svg}rect"))
        label = tuple(float(rect.get(k)) for k in ("x", "y", "width", "height"))
        for box in boxes:
            apart = (label[0] + label[2] <= box[0] or box[0] + box[2] <= label[0] or
                     label[1] + label[3] <= box[1] or box[1] + box[3] <= label[1])
            assert apart, (group.get("data-rank"), label, box)


def test_a_finished_game_is_drawn_without_suggestions():
    won = claimsolve.load(SEEDS / "claim" / "won-2p.json")
    root = parse(render.analysis_svg(won, claimsolve.analyze(won)))
    assert suggestions(root) == [] and "over" in root.find("svg:title", NS).text
    # who won, as the text says it (the panel said "The game is over." alone)
    for seed in ("claim/won-2p.json", "claimit/game-over-3p.json"):
        position = claimsolve.load(SEEDS / seed)
        picture = " ".join(render.analysis_svg(position, claimsolve.analyze(position)).split())
        said = " ".join(re.sub(r"<[^>]+>", " ", picture).split())
        assert f"Game over: {render.text.result_line(position)}." in said, said[-300:]


def odds_table():
    position = claimsolve.load(SEEDS / "claimit" / "mid-game-3p.json")
    return claimsolve.odds(position, samples=300, seed=1, time=0.2)


def test_odds_chart_has_a_bar_and_an_error_bar_per_plan():
    table = odds_table()
    root = parse(render.odds_svg(table))
    plans = [g for g in root.iter("{http://www.w3.org/2000/svg}g") if "plan" in classes(g)]
    assert [g.get("data-plan") for g in plans] == [row["plan"] for row in table.rows]
    for group, row in zip(plans, table.rows):
        assert len(marks(group, "win-bar")) == 1 and len(marks(group, "bust-bar")) == 1
        bar = marks(group, "error-bar")[0].get("d")
        xs = [float(x) for x in re.findall(r"[ML]([0-9.]+),", bar)]
        assert min(xs) < max(xs) or row["win_ci95"][0] == row["win_ci95"][1]
        assert float(group.get("data-low")) <= float(group.get("data-win")) <= float(group.get("data-high"))
        assert abs(float(group.get("data-bust")) - (1 - row["survive"])) < 1e-6
        shown = " ".join(t.text for t in group.iter("{http://www.w3.org/2000/svg}text"))
        assert row["label"] in shown and f"{100 * row['win']:.1f}%" in shown
    best = [g for g in plans if "best" in classes(g)]
    assert len(best) == 1 and best[0].get("data-plan") == max(table.rows, key=lambda r: r["win"])["plan"]


def a_match():
    result = MatchResult(game="colorclaim", a="mcts:time=0.1", b="random", players=2, teams=2)
    for points in [1, 1, 0, 1, 0.5, 1, 1, 0, 1, 1]:
        result.records.append(GameRecord(start={}, a_seats=[1], moves=[], points=[points, 1 - points]))
    return result


def test_match_chart_follows_the_running_score():
    result = a_match()
    root = parse(render.match_svg(result))
    games = [g for g in root.iter("{http://www.w3.org/2000/svg}g") if "game" in classes(g)]
    assert [int(g.get("data-game")) for g in games] == list(range(1, 11))
    running = result.running()
    for group, (k, score, low, high) in zip(games, running):
        assert abs(float(group.get("data-score")) - score) < 1e-4
        assert float(group.get("data-low")) <= score <= float(group.get("data-high"))
    assert running[-1][1] == pytest.approx(result.score)
    assert running[-1][2:] == pytest.approx(result.confidence_interval())
    line = next(e for e in root.iter() if "running-score" in classes(e))
    assert line.get("d").count(" L") == 9
    assert any("interval" in classes(e) for e in root.iter())


def test_the_commands_write_their_pictures(tmp_path):
    def run(*args):
        return subprocess.run([sys.executable, "-m", "claimsolve.cli.main", *map(str, args)],
                              capture_output=True, text=True, timeout=300)

    done = run("analyze", SEEDS / "claim" / "play-2p.json", "--time", "0.3", "--top", "3", "--svg", tmp_path / "a.svg")
    assert done.returncode == 0, done.stderr
    assert len(suggestions(parse((tmp_path / "a.svg").read_text()))) == 3
    done = run("odds", SEEDS / "claimit" / "mid-game-3p.json", "--samples", "200", "--svg", tmp_path / "o.svg")
    assert done.returncode == 0, done.stderr
    parse((tmp_path / "o.svg").read_text())
    done = run("match", "colorclaim", "--size", "3x3", "--a", "random", "--b", "random", "--games", "4",
               "--svg", tmp_path / "m.svg", "--json")
    assert done.returncode == 0, done.stderr
    games = [g for g in parse((tmp_path / "m.svg").read_text()).iter() if "game" in classes(g)]
    assert len(games) == json.loads(done.stdout)["games"] == 4
    # a file that cannot be written: one line, exit 2, before any work
    for command in (["analyze", SEEDS / "claim" / "play-2p.json"], ["odds", SEEDS / "claimit" / "mid-game-3p.json"],
                    ["match", "colorclaim", "--a", "random", "--b", "random"]):
        done = run(*command, "--svg", tmp_path / "no" / "such" / "x.svg")
        assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1
        assert done.stderr.startswith("claimsolve: ") and "x.svg" in done.stderr and "--svg" in done.stderr


# --- in a real browser -----------------------------------------------------------------------

BROWSER_MISSING = None if CHROMIUM else "Chromium is not installed (apt-get install chromium)"
if BROWSER_MISSING and os.environ.get("CLAIMSOLVE_REQUIRE_BROWSER"):
    raise RuntimeError(f"picture tests: {BROWSER_MISSING}")


@pytest.fixture(scope="module")
def screenshots(tmp_path_factory):
    folder = os.environ.get("CLAIMSOLVE_SCREENSHOTS")
    path = Path(folder) if folder else tmp_path_factory.mktemp("pictures")
    path.mkdir(parents=True, exist_ok=True)
    print(f"pictures: {path}")
    return path


def screenshot(svg_path, png_path):
    """The SVG as Chromium draws it, at its own size."""
    root = ET.parse(svg_path).getroot()
    width, height = (int(float(root.get(k))) for k in ("width", "height"))
    done = subprocess.run([CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                           f"--screenshot={png_path}", f"--window-size={width},{height}", svg_path.as_uri()],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and png_path.exists(), done.stderr[-2000:]
    return width, height


@pytest.mark.skipif(BROWSER_MISSING is not None, reason=f"picture tests: {BROWSER_MISSING}")
def test_pictures_render_in_chromium(screenshots):
    from PIL import Image

    pictures = {}
    play = claimsolve.load(SEEDS / "claim" / "play-3p.json")
    pictures["claim-play"] = render.analysis_svg(play, result_of(["i4-g8", "i4-e4", "j7-h7"]))
    brawl = claimsolve.load(SEEDS / "claim" / "brawl-2p.json")
    pictures["claim-brawl"] = render.analysis_svg(brawl, result_of(brawl.legal_moves()[:3]))
    dice = claimsolve.load(SEEDS / "claimit" / "mid-game-dice-3p.json")
    pictures["claimit-placements"] = render.analysis_svg(dice, result_of(dice.legal_moves()[:3]))
    colour = claimsolve.load(SEEDS / "colorclaim" / "late-6x5.json")
    pictures["colorclaim"] = render.analysis_svg(colour, result_of(colour.legal_moves()[:3], engine="solver"))
    pictures["odds"] = render.odds_svg(odds_table())
    pictures["match"] = render.match_svg(a_match())
    for name, document in pictures.items():
        svg_path = screenshots / f"{name}.svg"
        svg_path.write_text(document)
        png_path = screenshots / f"{name}.png"
        width, height = screenshot(svg_path, png_path)
        image = Image.open(png_path).convert("RGB")
        assert image.size == (width, height)
        colours = image.getcolors(maxcolors=1 << 20)
        assert colours is not None and len(colours) > 50, f"{name}: the picture is nearly blank"
        # the best suggestion (the best plan) is drawn in the best colour
        best = tuple(int(BEST[i:i + 2], 16) for i in (1, 3, 5))
        near = sum(count for count, rgb in colours if sum(abs(a - b) for a, b in zip(rgb, best)) < 30)
        if name != "match":
            assert near > 40, f"{name}: the best one does not stand out in {BEST}"


def test_the_panel_states_the_texts_order_and_notes():
    # the MCTS panel said "Ordered by visits" where MCTS-Solver's proofs set the order; the picture of
    # alpha-beta with the solver's proofs had no order sentence and no note
    from claimsolve.analysis import answer_labels
    position = claimsolve.load(SEEDS / "colorclaim" / "late-6x5.json")
    moves = position.legal_moves()[:3]
    mcts = SearchResult(engine="mcts", info={"iterations": 500, "value": 2}, suggestions=[
        Suggestion(move=moves[0], score=0.9, visits=300, extra={"margin": 2}),
        Suggestion(move=moves[1], score=0.6, visits=150),
        Suggestion(move=moves[2], score=0.2, visits=50, extra={"margin_at_most": -1})])
    tried = {"seconds": 1.5, "proven": {moves[0]: "=+2", moves[1]: "<=0"}, "lower": 2, "upper": None}
    alphabeta = SearchResult(engine="alphabeta", info={"depth": 4, "solver_tried": tried}, suggestions=[
        Suggestion(move=moves[0], score=2, depth=4, exact=True, extra={"lower": 2, "upper": 2}),
        Suggestion(move=moves[1], score=0, depth=4, extra={"upper": 0}),
        Suggestion(move=moves[2], score=-1, depth=4)])
    for result in (mcts, alphabeta):
        root = parse(render.analysis_svg(position, result))
        panel = " ".join(t.text or "" for t in root.iter("{http://www.w3.org/2000/svg}text"))
        labels = answer_labels(result, claimsolve.catalog.game_of(position), sides=len(position.teams()))
        assert labels["order"] and labels["notes"]
        assert labels["order"] in panel, (result.engine, panel)
        for note in labels["notes"]:
            assert f"Note: {note}." in panel, (note, panel)
    assert "Ordered by visits:" not in panel


@pytest.mark.parametrize("seed, words", [
    ("claim/play-battle-for-two.json", "Battle for two: player 1 plays colours 1 and 3, player 2 colours 2 and 4"),
    ("claim/play-4p.json", "Teams: colours (seats) 1 and 3 against colours 2 and 4"),
    ("claim/play-3p.json", None)])
def test_show_svg_says_which_colours_are_allies(seed, words):
    """A QA player: the `show --svg` picture of a 4-seat or battle-for-two
    game did not say which colours are allies or whose they are, while the
    text `show` does.  The key says it, on a line of its own under the
    colours' lines, inside the picture."""
    position = claimsolve.load(SEEDS / seed)
    root = parse(render.board_svg(position))
    teams = [t for t in root.iter("{http://www.w3.org/2000/svg}text") if "teams" in classes(t)]
    if words is None:
        assert teams == []                                  # every seat plays alone: nothing to say
        return
    assert len(teams) == 1 and teams[0].text.startswith(words), [t.text for t in teams]
    assert f"{position.tower_target()} towers win" in teams[0].text
    colours = [t for t in root.iter("{http://www.w3.org/2000/svg}text") if (t.text or "").startswith("colour ")]
    assert len(colours) == 4 and float(teams[0].get("y")) > max(float(t.get("y")) for t in colours)
    width, height = (float(x) for x in root.get("viewBox").split()[2:])
    assert float(teams[0].get("y")) < height - 10
    assert float(teams[0].get("x")) + render.svg.text_width(teams[0].text, 12.5) < width


P01_MID2 = {"game": "claim", "players": 2,
            "territories": ["a a a b b b", "a a a b b b", "a a - b b b", "c c c c b -", "c c c c - -"],
            "board": [". . . . . 2", ". T1 . . 1 .", ". 1 . . T2 .", ". 2 . . 2 .", ". . . . . ."],
            "phase": "play", "to_move": 1}


def test_claim_crosses_are_the_best_turns_captures_and_the_key_says_so():
    """A QA player: a cross was drawn on f5 although the best turn e4-d4
    captures nothing (f5 is taken by suggestions 3 and 4), with no legend;
    he read it as "the best move captures this".  Only the best turn's
    captures are crossed out, and the key says whose crosses they are and
    what the others take."""
    position = claimsolve.from_dict(P01_MID2)
    moves = ["e4-d4", "b3-b5", "e4-f4", "e4-e5"]
    assert claim_picture.captures(position, "e4-f4") == ["f5"] and claim_picture.captures(position, "e4-d4") == []
    root = parse(render.analysis_svg(position, result_of(moves, engine="alphabeta")))
    ranked = check_ranked(root, moves)
    assert all(marks(group, "mark") == [] for group in ranked.values())     # no cross anywhere
    said = " ".join(" ".join((t.text or "") for t in root.iter("{http://www.w3.org/2000/svg}text")).split())
    assert "Key: the best turn (1) captures nothing" in said, said
    assert "3. e4-f4 captures f5; 4. e4-e5 captures f5." in said, said
    # the best turn's own capture is crossed out in the best colour, and the key says so
    best = ["e4-f4", "e4-d4"]
    root = parse(render.analysis_svg(position, result_of(best, engine="alphabeta")))
    ranked = check_ranked(root, best)
    crosses = marks(ranked[1], "mark")
    assert len(crosses) == 1 and crosses[0].get("stroke") == BEST
    said = " ".join(" ".join((t.text or "") for t in root.iter("{http://www.w3.org/2000/svg}text")).split())
    assert "Key: a magenta cross on a piece: the best turn (1) captures it" in said, said


def test_claim_crosses_are_what_the_engine_says_the_turn_captures():
    """A replay of a turn's movements alone missed a capture against a
    tower placed by choice in the same turn (T@g10 i8-i10 captures h10:
    the key said "the best turn captures nothing") and one after a jump
    back (h2-h4 h4-h2 captures h5 and g2: it gave h5): 67 of 136,215 turns
    of random play starts.  The crosses and the key take the engine's report."""
    position = claimsolve.load(Path(__file__).parent / "data" / "claim-tower-placed-as-anvil.json")
    assert position.describe("T@g10 i8-i10").captured == ("h10",)
    assert claim_picture.captures(position, "T@g10 i8-i10") == ["h10"]
    moves = ["T@g10 i8-i10", "T@g10 h6-f8"]
    root = parse(render.analysis_svg(position, result_of(moves, engine="alphabeta")))
    ranked = check_ranked(root, moves)
    crosses = [m for m in marks(ranked[1], "mark") if m.get("stroke-dasharray") is None]   # the tower's is dashed
    assert len(crosses) == 1 and crosses[0].get("stroke") == BEST
    said = " ".join(" ".join((t.text or "") for t in root.iter("{http://www.w3.org/2000/svg}text")).split())
    assert "Key: a magenta cross on a piece: the best turn (1) captures it" in said, said


def label_boxes(root):
    boxes = {}
    for group in labels(root):
        rect = next(e for e in group.iter("{http://www.w3.org/2000/svg}rect"))
        boxes[int(group.get("data-rank"))] = tuple(float(rect.get(k)) for k in ("x", "y", "width", "height"))
    return boxes


def apart(a, b):
    return a[0] + a[2] <= b[0] or b[0] + b[2] <= a[0] or a[1] + a[3] <= b[1] or b[1] + b[3] <= a[1]


P09_4SEAT = {"game": "claim", "players": 4,
             "territories": ["a a a b b b", "a a a b b b", "c c c d d d", "c c c d d d", "e e e f f f",
                             "e e e f f f"],
             "board": [". T1 . . T3 .", "1 . 2 3 . .", ". T1 . . T3 .", ". . . . . .", ". 4 . . 2 T4",
                       "T2 . 1 . . ."],
             "phase": "play", "to_move": 1}


@pytest.mark.parametrize("data, moves", [
    (P01_MID2, ["e4-d4", "b3-b5", "e4-f4", "e4-e5", "b3-b1"]),
    (P09_4SEAT, ["c1-b1 b1-b5", "c1-b1", "a5-b5 b5-b1", "a5-b5", "a5-a4"])])
def test_claim_score_labels_keep_off_the_pieces(data, moves):
    """QA players: "1: -10000" covered the b4 tower; in a 4-seat game the
    colour-4 Viking on b2 was hidden under arrows and labels.  Every label
    keeps off every piece's middle (its number) where a free spot is near
    (here there is), and a piece an arrow jumps over is drawn again, small,
    above the arrows."""
    position = claimsolve.from_dict(data)
    scores = [-340, -10000, -9000, 0, 5]
    result = SearchResult(engine="alphabeta", suggestions=[Suggestion(move=m, score=v)
                                                           for m, v in zip(moves, scores)])
    root = parse(render.analysis_svg(position, result))
    check_ranked(root, moves)
    cell = render.claim.CLAIM["cell"]
    pieces = []
    for circle_or_path in root.iter():
        title = circle_or_path.find("svg:title", NS)
        if title is not None and (": Viking of colour" in title.text or ": tower of colour" in title.text) \
                and "jumped" not in title.text:
            name = title.text.split(":")[0]
            pieces.append(name)
    assert sorted(pieces) == sorted(position.pieces())
    _canvas, geometry = render.claim.board(position)
    boxes = label_boxes(root)
    for name in pieces:
        x, y = geometry.centre(position.island.parse_point(name))
        middle = (x - cell * 0.25, y - cell * 0.25, cell * 0.5, cell * 0.5)
        for rank, box in boxes.items():
            assert apart(box, middle), (rank, name, box)
    for rank, box in boxes.items():
        assert all(apart(box, other) for other_rank, other in boxes.items() if other_rank != rank)
    if data is P09_4SEAT:
        # c1-b1 b1-b5 jumps b2 (the Viking of colour 4) and b4 (the tower of colour 1): drawn above the arrows
        jumped = [g for g in root.iter("{http://www.w3.org/2000/svg}g") if "jumped" in classes(g)]
        said = sorted(g.find("svg:title", NS).text for g in jumped)
        assert said == ["b2: Viking of colour 4, jumped over", "b4: tower of colour 1, jumped over"], said
        last_mark = max(i for i, e in enumerate(root) if "suggestion" in classes(e))
        assert all(list(root).index(g) > last_mark for g in jumped)


def test_equal_scores_label_one_and_rank_the_others():
    """A QA player's battle-for-two position: five "+940" labels covered all
    of territory b.  A score an earlier label says already is written as
    the rank alone, in a small ring, and the panel says so."""
    position = claimsolve.from_dict({"game": "claim", "players": 2, "variant": "battle-for-two",
                                     "territories": ["a a b b b", "a a b b b", "a a c c c", "a a c c c"],
                                     "board": ["T1 . . 2 .", ". . . . 3", ". 4 1 . .", ". . . . T4"],
                                     "phase": "play", "to_move": 1})
    moves = ["e3-d3 T@c3", "e3-d3 T@d4", "e3-d3 T@c4", "e3-d3 T@e4", "e3-d3 T@e3"]
    result = SearchResult(engine="alphabeta", suggestions=[Suggestion(move=m, score=940) for m in moves])
    root = parse(render.analysis_svg(position, result))
    check_ranked(root, moves)
    texts = {int(g.get("data-rank")): " ".join(t.text for t in g.iter("{http://www.w3.org/2000/svg}text"))
             for g in labels(root)}
    assert texts == {1: "1: +940", 2: "2", 3: "3", 4: "4", 5: "5"}
    boxes = label_boxes(root)
    assert all(boxes[rank][2] <= 20 and boxes[rank][3] <= 20 for rank in (2, 3, 4, 5))
    # together they cover less of territory b (c3-e4, 6 points) than one point's square
    cell = render.claim.CLAIM["cell"]
    assert sum(boxes[rank][2] * boxes[rank][3] for rank in (2, 3, 4, 5)) < cell * cell
    said = " ".join(" ".join((t.text or "") for t in root.iter("{http://www.w3.org/2000/svg}text")).split())
    assert "ranks 2, 3, 4 and 5 score +940 as 1 does: their labels are their ranks alone." in said, said
