"""pytest-benchmark timings of Color Claim move generation (not run by the
test suite): `pytest benchmarks/test_bench_colorclaim.py`."""
from pathlib import Path

import claimsolve

START = Path(__file__).resolve().parents[1] / "seeds" / "colorclaim" / "start-6x5.json"


def test_engine_perft_3(benchmark):
    state = claimsolve.load(START).engine_state()
    assert benchmark(state.perft, 3) == [196, 32436, 4553652]


def test_reference_perft_2(benchmark):
    position = claimsolve.load(START)
    assert benchmark(position.perft, 2) == [196, 32436]


def test_reference_legal_moves(benchmark):
    position = claimsolve.load(START)
    assert len(benchmark(position.legal_moves)) == 196
