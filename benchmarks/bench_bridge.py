"""The engine bridge (Position.engine_state and Position.from_engine) now
and before it was one contract, side by side in one run.

A Claim position after 20 random settle turns (the 2-seat standard island,
random.Random(--seed)) is handed to the engine --calls times, and its
engine state taken back as many times:

  engine_state, cold   a fresh Position object each call (wrapping the
                       same rules State), so that no cache keyed on the
                       object can help: what a search or a review pays
                       for each position it meets;
  engine_state, again  the same Position object every call (what the
                       baseline's cache of the last few positions served);
  from_engine          a GameState of the position's bytes back to a
                       Position (the baseline had no from_engine for
                       Claim: its way back was the position JSON rebuilt
                       by claim.engine.decode and read by from_json, as
                       claim/starts.py did).

Claim It! (3 seats, after 30 random moves) and Color Claim (6x5 start) are
measured cold too: their bridges changed form, not way.  Each side runs in
its own process (benchmarks/baseline.py), --repeat times alternating; the
best of the runs is shown, in microseconds a call, and the ratio
before / now (above 1: now is faster).

    python benchmarks/bench_bridge.py [--baseline 1a6f881] [--calls 10000]
        [--repeat 3] [--seed 1]
"""
import argparse
import random
import time

import baseline

BEFORE = "1a6f881"      # main before the bridge was one contract (issue 35, part 3)


def _claim_position(seed, turns=20):
    from claimsolve.claim.position import ClaimPosition
    rng = random.Random(seed)
    position = ClaimPosition.new(players=2)
    for _ in range(turns):
        position = position.play(rng.choice(position.legal_moves()))
    return position


def _timed(function, items):
    started = time.perf_counter()
    for item in items:
        function(item)
    return (time.perf_counter() - started) / len(items) * 1e6


def measure(calls, seed):
    """{row: microseconds a call} under whatever claimsolve this process imports."""
    import claimsolve
    from claimsolve._engine import GameState
    from claimsolve.claim.position import ClaimPosition
    from claimsolve.claimit.position import ClaimItPosition

    out = {}
    position = _claim_position(seed)
    fresh = [ClaimPosition(position.state) for _ in range(calls)]     # kept alive: no id() is reused
    out["claim engine_state, cold"] = _timed(ClaimPosition.engine_state, fresh)
    out["claim engine_state, again"] = _timed(ClaimPosition.engine_state, [position] * calls)
    engine = position.engine_state()
    game, state = engine.game, engine.state_bytes()
    if hasattr(ClaimPosition, "from_engine"):
        back = _timed(lambda s: ClaimPosition.from_engine(GameState(game, s)), [state] * calls)
        assert ClaimPosition.from_engine(engine) == position
    else:
        from claimsolve.claim import engine as bridge
        data = position.to_json()
        back = _timed(lambda s: ClaimPosition.from_json(bridge.decode(data, game, s)), [state] * calls)
        assert ClaimPosition.from_json(bridge.decode(data, game, state)) == position
    out["claim from_engine"] = back

    rng = random.Random(seed)
    claimit = claimsolve.new("claimit", players=3)
    for _ in range(30):
        move = rng.choice(claimit.legal_moves())
        claimit = claimit.play(claimit.resolve_chance(move, rng))
    copies = [claimit._replace() for _ in range(calls)]
    out["claimit engine_state, cold"] = _timed(ClaimItPosition.engine_state, copies)
    colorclaim = claimsolve.new("colorclaim", size="6x5", seed=seed)
    copies = [type(colorclaim)(colorclaim.state) for _ in range(calls)]
    out["colorclaim engine_state, cold"] = _timed(type(colorclaim).engine_state, copies)
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--baseline", default=BEFORE, help=f"the commit to compare with (default {BEFORE})")
    parser.add_argument("--calls", type=int, default=10000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    before = baseline.build_or_exit(args.baseline)
    best = {}
    for _ in range(args.repeat):
        for tree in (before, None):
            for row, value in baseline.call(__file__, "measure", [args.calls, args.seed], tree=tree).items():
                key = (row, baseline.label(tree))
                best[key] = min(best.get(key, value), value)
    name = baseline.label(before)
    print(f"engine bridge, {args.calls:,} calls a row, best of {args.repeat} runs (microseconds a call)")
    print(f"{'row':32} {name:>9} {'now':>9} {name + ' / now':>12}")
    for row in sorted({row for row, _ in best}, key=list(dict.fromkeys(r for r, _ in best)).index):
        then, now = best[row, name], best[row, "now"]
        print(f"{row:32} {then:9.2f} {now:9.2f} {then / now:11.2f}x")


if __name__ == "__main__":
    main()
