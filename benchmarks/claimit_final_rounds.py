"""Who ends a Claim It! game, and what A scores then: saved match games
broken down by the seat that started the final round.

A Claim It! game is decided in its final round: the seat that stops with
the target of secured spaces starts it, every other seat has one more turn,
then that seat a last one, and the largest group wins. For games saved by
`claimsolve match claimit --save` (A in one seat), this prints how often A
started the final round and A's points a game then and otherwise, and, where
another seat started it, A's points by how far A's largest group was behind
the best other seat's as A's last turn began. It shows where a stronger
player would have to gain: reaching the target first, or its last turn.

    python benchmarks/claimit_final_rounds.py games.jsonl [more.jsonl ...]
"""
import argparse
import collections

from claimsolve.records import load

GAPS = (-2, -1, 0, 1, 2, 3)         # the rows: at most -2, -1, ..., at least 3


def final_rounds(paths):
    """(A's seat, the seat that started the final round, A's points, the
    best other seat's largest group less A's as A's last turn began, or
    None where A started it) of each game saved in `paths`."""
    for path in paths:
        for record in load(path):
            if not record.a_seats or len(record.a_seats) != 1:
                raise SystemExit(f"{path}: a game without one seat of A (a match game of Claim It! has one)")
            a = record.a_seats[0]
            *played, final = record.positions()
            if not final.is_over():
                raise SystemExit(f"{path}: a game that does not end")
            starter, gap = None, None
            for position in played + [final]:
                if position.final_round is None:
                    continue
                starter = position.final_round[0]
                if starter == a:
                    break
                if position.to_move == a and position.turn_begins():
                    groups = position.scores()          # each seat's largest group
                    gap = max(size for seat, size in enumerate(groups, 1) if seat != a) - groups[a - 1]
                    break
            if starter is None:
                raise SystemExit(f"{path}: a game over without a final round")
            yield a, starter, final.points()[a - 1], gap


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("records", nargs="+", metavar="FILE", help="games saved by claimsolve match --save")
    args = parser.parse_args(argv)
    count, points = collections.Counter(), collections.Counter()
    for a, starter, score, gap in final_rounds(args.records):
        kind = "A" if starter == a else "another"
        count[kind] += 1
        points[kind] += score
        if gap is not None:
            row = min(max(gap, GAPS[0]), GAPS[-1])
            count[row] += 1
            points[row] += score
    games = count["A"] + count["another"]
    print(f"{games} games; A's points a game (a shared win split), by who started the final round:")
    for kind, label in (("A", "A"), ("another", "another seat")):
        if count[kind]:
            print(f"  {label:13s} {count[kind]:5d} games ({count[kind] / games:.1%})  A {points[kind] / count[kind]:.3f}")
    print("where another seat started it, by the best other largest group less A's as A's last turn began:")
    for row in GAPS:
        if count[row]:
            label = f"<= {row}" if row == GAPS[0] else (f">= {row}" if row == GAPS[-1] else f"{row:+d}")
            print(f"  {label:6s} {count[row]:5d} games  A {points[row] / count[row]:.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
