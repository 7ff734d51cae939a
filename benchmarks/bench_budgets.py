"""Every command's --time is the whole command's wall-clock budget (within
10%): this runs each command that takes --time, for every game and engine,
as a user would (a new process: interpreter start, loading, the search,
naming the answer, printing, exit), and prints the wall time over the budget.

    python benchmarks/bench_budgets.py [--time 1] [--repeat 3] [--only analyze]

A ratio above 1.10 misses the budget.  Wall time is measured from just
before the process is started to its exit, so it includes what the command
cannot count itself (the fork and exec before Python runs).  On a loaded
machine the figures are noisy: --repeat takes the median.
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
SEEDS = os.path.join(ROOT, "seeds")


# the command as its console script starts it
COMMAND = [sys.executable, "-c", "import sys; from claimsolve.cli.main import main; sys.exit(main(prog_name='claimsolve'))"]


def claimsolve(*args, stdout=subprocess.DEVNULL):
    return subprocess.run([*COMMAND, *map(str, args)], stdout=stdout, stderr=subprocess.PIPE, text=True)


def cases(folder):
    """(label, argv) of every command and engine that takes --time."""
    c65 = os.path.join(folder, "c65.json")        # a 6x5 Color Claim start: nothing finishes in 1 s
    with open(c65, "w") as f:
        f.write(claimsolve("new", "colorclaim", "--size", "6x5", "--seed", "1", stdout=subprocess.PIPE).stdout)
    c44 = os.path.join(folder, "c44.json")        # 4x4: the solver needs a minute or two
    with open(c44, "w") as f:
        f.write(claimsolve("new", "colorclaim", "--size", "4x4", "--seed", "7", stdout=subprocess.PIPE).stdout)
    claimit = os.path.join(SEEDS, "claimit", "mid-game-3p.json")
    claimit_dice = os.path.join(SEEDS, "claimit", "mid-game-dice-3p.json")
    claim_play = os.path.join(SEEDS, "claim", "play-2p.json")
    claim_settle = os.path.join(SEEDS, "claim", "settle-2p.json")
    claim_3p = os.path.join(SEEDS, "claim", "play-3p.json")
    return [
        ("colorclaim analyze (auto)", ["analyze", c65]),
        ("colorclaim analyze (auto, 4x4)", ["analyze", c44]),
        ("colorclaim analyze --engine mcts", ["analyze", c65, "--engine", "mcts"]),
        ("colorclaim analyze --engine mcts --threads 2", ["analyze", c65, "--engine", "mcts", "--threads", "2"]),
        ("colorclaim analyze --engine alphabeta", ["analyze", c65, "--engine", "alphabeta"]),
        ("colorclaim analyze --engine solver", ["analyze", c44, "--engine", "solver"]),
        ("colorclaim solve", ["solve", c44]),
        ("claimit analyze", ["analyze", claimit]),
        ("claimit analyze --threads 2", ["analyze", claimit, "--threads", "2"]),
        ("claimit analyze (dice set)", ["analyze", claimit_dice]),
        ("claimit odds", ["odds", claimit]),
        ("claimit odds (dice set)", ["odds", claimit_dice]),
        ("claim analyze (play, alphabeta)", ["analyze", claim_play]),
        ("claim analyze --engine mcts (play)", ["analyze", claim_play, "--engine", "mcts"]),
        ("claim analyze (settle, mcts)", ["analyze", claim_settle]),
        ("claim analyze (3 seats, mcts)", ["analyze", claim_3p]),
    ]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--time", type=float, default=1.0, help="the budget given to every command")
    parser.add_argument("--repeat", type=int, default=1, help="runs per command (the median is shown)")
    parser.add_argument("--only", default=None, help="only the commands whose label contains this")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        rows = [(label, argv) for label, argv in cases(folder) if args.only is None or args.only in label]
        print(f"--time {args.time:g}, {args.repeat} run(s) each, median wall time (process start to exit)")
        print(f"{'command':<48} {'wall s':>7} {'ratio':>6}")
        worst = 0.0
        for label, argv in rows:
            walls = []
            for _ in range(args.repeat):
                started = time.monotonic()
                proc = claimsolve(*argv, "--time", args.time)
                walls.append(time.monotonic() - started)
                if proc.returncode != 0:
                    print(f"{label}: exit code {proc.returncode}: {proc.stderr.strip()}")
                    break
            wall = statistics.median(walls)
            ratio = wall / args.time
            worst = max(worst, ratio)
            flag = "" if ratio <= 1.10 else "  over budget"
            print(f"{label:<48} {wall:7.3f} {ratio:6.3f}{flag}")
        print(f"worst ratio {worst:.3f}")


if __name__ == "__main__":
    main()
