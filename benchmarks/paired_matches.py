"""Two players compared on the same dice: matches run with
`claimsolve match ... --duplicate` and the same --seed and --games, one
with each player as A, read game by game.

Under duplicate dice (`match --duplicate`, docs/tour.md) game i of both
matches starts from the same position with A in the same seat, and a
seat's k-th roll of its t-th turn is the same in both wherever both games
reach it. Part of the luck of the dice is then shared, and the difference
of A's points, start by start (a start's seatings together), varies less
than the two scores compared apart would (how much less:
docs/benchmarks.md). Intervals are 95%, over the starts (each start's
seatings averaged: the seatings of a start share their dice, so they are
not independent games), by the normal approximation, so at least
MIN_STARTS starts are needed.

    python benchmarks/paired_matches.py first.jsonl second.jsonl
"""
import argparse
import math
import statistics

from claimsolve.records import load

MIN_STARTS = 20
Z95 = 1.959964


def a_points(record):
    return sum(record.result["points"][seat - 1] for seat in record.a_seats)


def paired(first, second):
    """[(points in first, points in second)] for each start: each its
    seatings' mean.  Refuses files that are not one pair of duplicate
    matches."""
    a, b = list(load(first)), list(load(second))
    if len(a) != len(b):
        raise SystemExit(f"{second}: {len(b)} games, {first} has {len(a)}: run both with the same --games")
    seatings = len({tuple(r.a_seats) for r in a})
    if len(a) % seatings:
        raise SystemExit(f"{first}: {len(a)} games, not whole starts of {seatings} seatings each")
    for i, (x, y) in enumerate(zip(a, b), 1):
        if x.start != y.start or x.a_seats != y.a_seats or x.moves[0].move != y.moves[0].move:
            raise SystemExit(f"{second}: game {i} does not open as game {i} of {first} does "
                             "(the same start, A's seat and first roll): play both with --duplicate and one --seed")
    starts = []
    for k in range(0, len(a), seatings):
        starts.append((statistics.fmean(a_points(r) for r in a[k:k + seatings]),
                       statistics.fmean(a_points(r) for r in b[k:k + seatings])))
    return starts, sum(1 for x, y in zip(a, b) if x.moves == y.moves)


def interval(values):
    mean = statistics.fmean(values)
    half = Z95 * statistics.stdev(values) / math.sqrt(len(values))
    return mean, mean - half, mean + half


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("first", metavar="FIRST", help="games saved by claimsolve match --duplicate --save")
    parser.add_argument("second", metavar="SECOND", help="the other match: the same --seed and --games")
    args = parser.parse_args(argv)
    starts, identical = paired(args.first, args.second)
    if len(starts) < MIN_STARTS:
        raise SystemExit(f"{len(starts)} starts: the intervals need at least {MIN_STARTS}")
    print(f"{len(starts)} starts; {identical} games played alike move for move")
    halves = []
    for name, column in ((args.first, 0), (args.second, 1)):
        mean, low, high = interval([s[column] for s in starts])
        halves.append(mean - low)
        print(f"  A in {name}: {mean:.3f} ({low:.3f}-{high:.3f})")
    mean, low, high = interval([x - y for x, y in starts])
    half_apart = math.hypot(*halves)
    print(f"  the first less the second: {mean:+.3f} ({low:+.3f} to {high:+.3f}); "
          f"compared apart the interval would be +-{half_apart:.3f}, paired it is +-{(high - low) / 2:.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
