"""Two commits side by side in one run: the engines' and searches' speed,
start-up, and the outputs of the same seeded commands, byte for byte.

The check that a refactoring kept behaviour, output and speed (issue 35:
f18d557 before it, against the code after it):

    python benchmarks/bench_house.py --before f18d557 --after HEAD [--runs 5] [--only NAME,...]

Both commits are built as benchmarks/baseline.py builds a baseline (`git
archive`, extensions compiled in place, cached), so both sides are compiled
the same way; `--after now` measures the code this interpreter imports
instead.  Each measurement is a fresh process under one tree, the two trees
in turn (before, after, after, before, ...), and the ratio after/before is
taken pair by pair, so that a drift in the machine's speed between pairs
does not move it.

The figures are processor seconds (user + system): for the work itself
where the row runs a search in Python (`time.process_time()` around the
call, start-up not counted), for the whole process where the row runs a
command.  The table prints each side's median, the median of the pair
ratios after/before with their smallest and largest, and whether the
outputs were the same in every run: the search's answer and its node,
simulation or state count, or the command's standard output with the
figures of time taken out (see `TIMING`).  Every row's work is set by a
depth, a count of simulations or an exact search, never by a clock, so that
both sides do the same work.  The load average is printed before and
after.  Exit status 1 when an output differed (the lines are printed under
the row), 0 when all were the same.
"""
import argparse
import difflib
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import baseline  # noqa: E402

SEEDS = baseline.REPOSITORY / "seeds"

# Time figures a command prints; replaced by "<t>" before outputs are compared.
TIMING = [
    re.compile(r"\d[\d,]*(?:\.\d+)?(?:e-?\d+)? ?(?:s|ms|us|seconds?)\b"),
    re.compile(r"[\d,]+(?:\.\d+)?(?: (?:nodes|simulations|states|turns|rolls|moves))?(?: a second|/s)"),
    re.compile(r'"(?:seconds|wall|elapsed|time|nodes_per_second|per_second)": [\d.e-]+'),
]

# name: (what, kind, arguments).  kind "search": WORK[name](*arguments) in
# a fresh process (the work's processor time); kind "command": the
# claimsolve command line `arguments` (the whole process's).
ROWS = {
    "help": ("`claimsolve --help`, start-up", "command", ["--help"]),
    "claim-perft": ("Claim perft, play-2p, depth 4", "command",
                    ["perft", "seeds/claim/play-2p.json", "--depth", "4"]),
    "colorclaim-perft": ("Color Claim perft, 6x5 start, depth 4", "command",
                         ["perft", "seeds/colorclaim/start-6x5.json", "--depth", "4"]),
    "claimit-rolls": ("Claim It! engine play-outs, mid-game-3p, 160,000 games", "search",
                      ["claimit/mid-game-3p.json", 800]),
    "claim-alphabeta": ("Claim alpha-beta, play-2p, depth 7", "search", ["claim/play-2p.json", 7]),
    "colorclaim-alphabeta": ("Color Claim alpha-beta, 6x5 start, depth 5", "search",
                             ["colorclaim/start-6x5.json", 5]),
    "colorclaim-solve": ("Color Claim exact solver, 4x4 seed 1 start, value only, one thread", "command",
                         ["solve", "seeds/colorclaim/start-4x4-seed1.json", "--value-only", "--threads", "1"]),
    "claim-mcts": ("Claim MCTS, play-2p, 20,000 simulations", "search", ["claim/play-2p.json", 20000]),
    "colorclaim-mcts": ("Color Claim MCTS, 6x5 start, 60,000 simulations", "search",
                        ["colorclaim/start-6x5.json", 60000]),
    "claimit-mcts": ("Claim It! MCTS, mid-game-3p, 400,000 simulations", "search",
                     ["claimit/mid-game-3p.json", 400000]),
    "claimit-optimum": ("Claim It! exact turn optimum, both objectives, one thread: the start of turn 2 "
                        "of a 3-player game (bench_claimit_optimum.py's early turn starts, seed 0)", "search",
                        [0, 2]),
    "claim-analyze": ("`analyze` Claim play-2p, MCTS 5,000 simulations, seed 1", "command",
                      ["analyze", "seeds/claim/play-2p.json", "--engine", "mcts", "--iterations", "5000",
                       "--seed", "1", "--threads", "1"]),
    "colorclaim-analyze": ("`analyze` Color Claim 6x5 start, MCTS 5,000 simulations, seed 1", "command",
                           ["analyze", "seeds/colorclaim/start-6x5.json", "--engine", "mcts", "--iterations",
                            "5000", "--seed", "1", "--threads", "1"]),
    "claimit-analyze": ("`analyze` Claim It! start-3p, MCTS 5,000 simulations, seed 1", "command",
                        ["analyze", "seeds/claimit/start-3p.json", "--engine", "mcts", "--iterations",
                         "5000", "--seed", "1", "--threads", "1"]),
}

# Commands whose outputs are compared too (one run on each side, not timed).
OUTPUTS = [
    ["analyze", "seeds/claim/play-2p.json", "--engine", "mcts", "--iterations", "3000", "--seed", "1",
     "--threads", "1", "--json"],
    ["analyze", "seeds/colorclaim/start-6x5.json", "--engine", "mcts", "--iterations", "3000", "--seed", "1",
     "--threads", "1", "--json"],
    ["analyze", "seeds/claimit/start-3p.json", "--engine", "mcts", "--iterations", "3000", "--seed", "1",
     "--threads", "1", "--json"],
    ["solve", "seeds/colorclaim/start-4x3-seed1.json", "--threads", "1", "--json"],
    ["odds", "seeds/claimit/late-turn-roll-3p.json", "--threads", "1", "--json"],
    ["moves", "seeds/claim/settle-3p.json"],
    ["moves", "seeds/colorclaim/start-6x5.json"],
    ["perft", "seeds/claim/settle-2p.json", "--depth", "2"],
    ["show", "seeds/claim/play-4p.json"],
    ["show", "seeds/claimit/mid-game-3p.json"],
    ["show", "seeds/colorclaim/late-6x5.json"],
]


# ------------------------------------------------------------------ the work (in a fresh process, under a tree)

def _load(name):
    import claimsolve
    return claimsolve.load(str(SEEDS / name))


def _timed(function):
    cpu = time.process_time()
    out = function()
    return time.process_time() - cpu, out


def _alphabeta(name, depth):
    from claimsolve.search import alphabeta
    position = _load(name)
    cpu, result = _timed(lambda: alphabeta.search(position, depth=depth))
    best = result.best
    return {"cpu": cpu, "count": result.nodes, "unit": "nodes",
            "out": f"{best.move} {best.score} depth {result.info.get('depth')} nodes {result.nodes}"}


def _mcts(name, iterations):
    from claimsolve.search import mcts
    position = _load(name)
    cpu, result = _timed(lambda: mcts.search(position, iterations=iterations, seed=1, threads=1))
    top = " ".join(f"{s.move}:{s.visits}" for s in result.suggestions[:5])
    return {"cpu": cpu, "count": result.nodes, "unit": "simulations",
            "out": f"{top} tree {result.info.get('tree_nodes')} simulations {result.nodes}"}


def _rolls(name, calls):
    position = _load(name)
    game = position.engine_game()
    state = position.engine_state().state_bytes()
    seats = (1 << position.players) - 1

    def play():
        return sum(game.simulate(state, 200, seed, seats)[1] for seed in range(1, calls + 1))
    cpu, rolls = _timed(play)
    return {"cpu": cpu, "count": rolls, "unit": "rolls", "out": f"{calls * 200} games, {rolls} rolls"}


def _optimum(seed, turn):
    import hashlib
    import claimsolve
    from bench_claimit_optimum import early_turn_starts
    from claimsolve.claimit import optimum
    [(_, data)] = early_turn_starts(seeds=(seed,), turns=(turn,))
    position = claimsolve.from_dict(data)
    state = position.engine_state().state_bytes()
    total, out = 0, []

    def search():
        nonlocal total
        for objective in ("secured", "held"):
            solver = optimum.solver_for(position, objective)
            solver.clear()
            complete, states, decisions, _ = solver.solve(state, 1000.0)
            total += states
            out.append(f"{objective} exact {complete} states {states} "
                       f"value {max(v for _, v in decisions):.9f}")
    cpu, _ = _timed(search)
    digest = hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()[:12]
    return {"cpu": cpu, "count": total, "unit": "turn states", "out": f"position {digest}: " + "; ".join(out)}


WORK = {
    "claimit-rolls": _rolls,
    "claim-alphabeta": _alphabeta,
    "colorclaim-alphabeta": _alphabeta,
    "claim-mcts": _mcts,
    "colorclaim-mcts": _mcts,
    "claimit-mcts": _mcts,
    "claimit-optimum": _optimum,
}


def work(name, arguments):
    """Run by baseline.call in a fresh process under one tree."""
    return WORK[name](*arguments)


# ------------------------------------------------------------------ the two sides

CLI = ("import sys\n"
       "sys.path[:] = [p for p in sys.path if p != '']\n"
       "sys.argv[0] = 'claimsolve'\n"
       "from claimsolve.cli.main import main\n"
       "sys.exit(main())\n")


def run_command(arguments, tree):
    """(processor seconds of the whole process, its standard output with
    the time figures taken out, its exit status)."""
    env = dict(os.environ)
    if tree is not None:
        env["PYTHONPATH"] = os.pathsep.join([str(tree)] + ([env["PYTHONPATH"]] if env.get("PYTHONPATH") else []))
    with tempfile.TemporaryFile() as out:
        proc = subprocess.Popen([sys.executable, "-c", CLI, *arguments], cwd=baseline.REPOSITORY, env=env,
                                stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT)
        _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        text = out.read().decode("utf-8", "replace")
    for pattern in TIMING:
        text = pattern.sub("<t>", text)
    return usage.ru_utime + usage.ru_stime, text, proc.returncode


def measure(name, tree):
    what, kind, arguments = ROWS[name]
    if kind == "command":
        cpu, text, status = run_command(arguments, tree)
        return {"cpu": cpu, "out": f"exit {status}\n{text}"}
    return baseline.call(__file__, "work", [name, arguments], tree=tree)


def uptime():
    try:
        return Path("/proc/loadavg").read_text().split()[:3]
    except OSError:
        return ["?"]


def compare(rows, trees, runs, show_diff=True):
    """{name: {"before": [cpu], "after": [cpu], "ratios": [...], "same": bool, ...}}."""
    table = {}
    for name in rows:
        cpus = {"before": [], "after": []}
        outs = {"before": set(), "after": set()}
        counts = {"before": [], "after": []}
        ratios = []
        for run in range(runs):
            order = ("before", "after") if run % 2 == 0 else ("after", "before")
            got = {}
            for side in order:
                got[side] = measure(name, trees[side])
                cpus[side].append(got[side]["cpu"])
                outs[side].add(got[side]["out"])
                if "count" in got[side]:
                    counts[side].append(got[side]["count"])
            ratios.append(got["after"]["cpu"] / got["before"]["cpu"] if got["before"]["cpu"] > 0 else float("nan"))
        same = len(outs["before"]) == 1 and outs["before"] == outs["after"]
        table[name] = {"before": cpus["before"], "after": cpus["after"], "ratios": ratios, "same": same,
                       "counts": counts, "unit": got["after"].get("unit")}
        line = format_row(name, table[name])
        print(line, flush=True)
        if not same and show_diff:
            print_difference(outs)
    return table


def print_difference(outs):
    """The lines that differ: between the two sides (each side's first
    output), and within a side from run to run."""
    first = {side: sorted(outs[side])[0] for side in outs}
    pairs = [(f"{side} run to run", sorted(outs[side])[0], sorted(outs[side])[1])
             for side in outs if len(outs[side]) > 1]
    if first["before"] != first["after"]:
        pairs.insert(0, ("before -> after", first["before"], first["after"]))
    for what, old, new in pairs:
        print(f"    {what}:")
        diff = difflib.unified_diff(old.splitlines(), new.splitlines(), lineterm="", n=0)
        for line in list(diff)[2:42]:
            print(f"      {line}")


def compare_outputs(commands, trees):
    """Each command once under each tree; True when every output was the
    same (time figures aside)."""
    print("outputs of more commands, one run each side (time figures taken out):")
    all_same = True
    for arguments in commands:
        outs = {side: {"exit {2}\n{1}".format(*run_command(arguments, trees[side]))} for side in ("before", "after")}
        same = outs["before"] == outs["after"]
        all_same = all_same and same
        size = len(next(iter(outs["after"])).encode())
        print(f"  {'same' if same else 'DIFFER'} ({size:,} bytes)  claimsolve {' '.join(arguments)}")
        if not same:
            print_difference(outs)
    return all_same


def format_row(name, row):
    before, after = statistics.median(row["before"]), statistics.median(row["after"])
    ratio = statistics.median(row["ratios"])
    rate = ""
    if row["counts"]["after"]:
        per = {side: statistics.median(c / t for c, t in zip(row["counts"][side], row[side]) if t > 0)
               for side in ("before", "after")}
        rate = f"  {per['before']:,.0f} -> {per['after']:,.0f} {row['unit']}/s"
    return (f"{name:22s} {before:8.3f} {after:8.3f}   {ratio:5.3f} ({min(row['ratios']):.3f}-"
            f"{max(row['ratios']):.3f})  {'same' if row['same'] else 'DIFFER'}{rate}")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", default="f18d557", help="the commit before (default f18d557)")
    parser.add_argument("--after", default="HEAD",
                        help="the commit after (default HEAD); 'now': the code this interpreter imports")
    parser.add_argument("--runs", type=int, default=5, help="pairs of runs a row (default 5)")
    parser.add_argument("--only", default="", help=f"rows, comma-separated, of: {', '.join(ROWS)}")
    parser.add_argument("--no-outputs", action="store_true",
                        help="leave out the commands whose outputs alone are compared")
    args = parser.parse_args(argv)
    rows = [r for r in args.only.split(",") if r] or list(ROWS)
    unknown = [r for r in rows if r not in ROWS]
    if unknown:
        print(f"bench_house: --only: no row {unknown[0]!r} (rows: {', '.join(ROWS)})", file=sys.stderr)
        return 2
    if args.runs < 1:
        print("bench_house: --runs: at least 1", file=sys.stderr)
        return 2
    trees = {"before": baseline.build_or_exit(args.before),
             "after": None if args.after == "now" else baseline.build_or_exit(args.after)}
    names = {side: "now" if args.after == "now" and side == "after" else baseline.full_sha(getattr(args, side))[:7]
             for side in trees}
    print(f"before {names['before']}, after {names['after']}: {args.runs} pairs a row, in turn; "
          f"load average {' '.join(uptime())}")
    print("processor seconds (user + system), medians; ratio after/before: median of the pairs (smallest-largest)")
    print(f"{'row':22s} {'before':>8s} {'after':>8s}   ratio           outputs")
    table = compare(rows, trees, args.runs)
    print(f"load average at the end {' '.join(uptime())}")
    for name in rows:
        print(f"  {name}: {ROWS[name][0]}")
    same = all(row["same"] for row in table.values())
    if not args.no_outputs:
        same = compare_outputs(OUTPUTS, trees) and same
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
