"""Hostile study files (issue 34): N damaged copies of a small real study,
each given to `study report` and to a rerun of the study, on a baseline
commit (benchmarks/baseline.py) and on the code being run, side by side.

The damage, drawn with a fixed seed: a page zeroed or garbled, a few bytes
of a page changed, or one column of one table (tasks, runs, meta) dropped,
set to NULL, to a blob, to a text, to a number, to a text that is not
JSON or to another JSON.  Counted, per command run:

    traceback        an exception escaped (a bug: exit 1 and a traceback)
    wrong exit       an exit code other than 0 or 2, or exit 2 with more
                     or less than one line on stderr
    file changed     a refused file whose bytes or time changed, or a file
                     made beside it that was not there before
    refused          exit 2, one line
    read             exit 0 (the damage left a valid study, or it was not seen)

The commands run in one process per tree (click's CliRunner; a rerun that
goes ahead runs its tasks on one worker process).

    python benchmarks/bench_study_files.py [--cases 60] [--seed 34] [--baseline COMMIT]
"""
import argparse
import contextlib
import json
import os
import random
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import baseline  # noqa: E402
from tests.study.damage import rebuild  # noqa: E402

PAGE = 4096
SOLVE = ["study", "solve", "colorclaim", "--size", "3x3", "--seeds", "1-6"]
MUTATIONS = {"dropped": None, "NULL": "NULL", "a blob": "X'00ff'", "text": "'seven'", "a number": "7.5",
             "not JSON": "'[1, 2'", "another JSON": "'{\"a\": [1]}'"}
KEYS = {"meta": "rowid", "tasks": "id", "runs": "run"}


def make_study(folder):
    """A small unfinished solve study (4 of 6 tasks done), made with the
    code being run."""
    path = str(Path(folder) / "base.sqlite")
    subprocess.run([sys.executable, "-m", "claimsolve.cli.main", *SOLVE, "--db", path, "--workers", "1"],
                   check=True, capture_output=True)
    with contextlib.closing(sqlite3.connect(path)) as conn:
        conn.execute("DELETE FROM tasks WHERE id > 4")
        conn.commit()
        conn.execute("VACUUM")
    return path


def damages(base, count, seed):
    """`count` damages of the study at `base`, drawn with `seed`: [(name,
    how)], each applied by `damage(base, target, how)`."""
    pages = os.path.getsize(base) // PAGE
    with contextlib.closing(sqlite3.connect(base)) as conn:
        columns = [(table, row[1]) for table in ("meta", "tasks", "runs")
                   for row in conn.execute(f"PRAGMA table_info({table})")]
    every = [("page", page, how) for page in range(pages) for how in ("zero", "garble", "bytes")]
    every += [("column", table, column, how) for table, column in columns for how in MUTATIONS
              if not (column in ("id", "run") and how != "dropped")]     # an INTEGER PRIMARY KEY holds integers
    rng = random.Random(seed)
    chosen = rng.sample(every, min(count, len(every)))
    return [(" ".join(map(str, how)), list(how) + [rng.randrange(1 << 30)]) for how in chosen]


def damage(base, target, how):
    shutil.copy(base, target)
    if how[0] == "page":
        _, page, kind, seed = how
        rng = random.Random(seed)
        data = bytearray(Path(base).read_bytes())
        start = page * PAGE
        if kind == "zero":
            data[start:start + PAGE] = bytes(PAGE)
        elif kind == "garble":
            data[start:start + PAGE] = rng.randbytes(PAGE)
        else:
            for _ in range(8):
                data[start + PAGE - 1 - rng.randrange(PAGE // 2)] = rng.randrange(256)
        Path(target).write_bytes(bytes(data))
        return
    _, table, column, kind, _seed = how
    with contextlib.closing(sqlite3.connect(target)) as conn:
        rebuild(conn, table, drop=column if kind == "dropped" else None)
        if kind != "dropped":
            key = KEYS[table]
            row = conn.execute(f"SELECT MAX({key}) FROM {table}").fetchone()[0]
            conn.execute(f'UPDATE {table} SET "{column}" = {MUTATIONS[kind]} WHERE {key} = ?', (row,))
        conn.commit()
        conn.execute("VACUUM")


def _state(path):
    folder = os.path.dirname(path)
    st = os.stat(path)
    return Path(path).read_bytes(), st.st_mtime_ns, sorted(os.listdir(folder))


def measure(base, cases, folder):
    """Runs `study report` and a rerun on each damaged copy, in this process
    (whatever claimsolve it imports): the counts."""
    from click.testing import CliRunner
    from claimsolve.cli.main import main
    counts = {"commands": 0, "traceback": 0, "wrong exit": 0, "file changed": 0, "refused": 0, "read": 0}
    examples = {}
    for n, (name, how) in enumerate(cases):
        for command in ("report", "rerun"):
            sub = Path(folder) / f"{n}-{command}"
            sub.mkdir()
            target = str(sub / "s.sqlite")
            damage(base, target, how)
            before = _state(target)
            args = ["study", "report", target] if command == "report" else SOLVE + ["--db", target, "--workers", "1"]
            result = CliRunner().invoke(main, args, catch_exceptions=True)
            counts["commands"] += 1
            lines = result.stderr.splitlines()
            crashed = result.exception is not None and not isinstance(result.exception, SystemExit)
            if crashed or "Traceback" in result.stderr:
                counts["traceback"] += 1
                examples.setdefault("traceback", f"{name}, {command}: {type(result.exception).__name__}: "
                                                 f"{str(result.exception)[:100]}")
            elif result.exit_code not in (0, 2) or (result.exit_code == 2 and len(lines) != 1):
                counts["wrong exit"] += 1
                examples.setdefault("wrong exit", f"{name}, {command}: exit {result.exit_code}")
            elif result.exit_code == 2:
                counts["refused"] += 1
                examples.setdefault("refused", f"{name}, {command}: {lines[0][:160]}")
            else:
                counts["read"] += 1
            if result.exit_code != 0 and _state(target) != before:
                counts["file changed"] += 1
                examples.setdefault("file changed", f"{name}, {command}")
    return {"counts": counts, "examples": examples}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", type=int, default=60, help="damaged copies (each: report and rerun)")
    parser.add_argument("--seed", type=int, default=34)
    parser.add_argument("--baseline", default=None,
                        help="the commit to compare with (default: where this branch left main)")
    args = parser.parse_args()
    if args.baseline is None:
        args.baseline = subprocess.run(["git", "-C", str(baseline.REPOSITORY), "merge-base", "HEAD", "main"],
                                       capture_output=True, text=True).stdout.strip()[:7] or "main"
    before = baseline.build_or_exit(args.baseline)
    work = Path(tempfile.mkdtemp(prefix="bench-study-files."))
    try:
        base = make_study(work)
        cases = damages(base, args.cases, args.seed)
        results = {}
        for tree in (before, None):
            folder = work / baseline.label(tree)
            folder.mkdir()
            results[baseline.label(tree)] = baseline.call(__file__, "measure", [base, cases, str(folder)],
                                                          tree=tree, timeout=1800)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    labels = list(results)
    print(f"{len(cases)} damaged copies of a 3x3 solve study (seed {args.seed}), each given to "
          "`study report` and to a rerun")
    print(f"{'':14s}" + "".join(f"{label + (' (this branch)' if label == 'now' else ' (baseline)'):>24s}"
                                for label in labels))
    for key in ("commands", "traceback", "wrong exit", "file changed", "refused", "read"):
        print(f"{key:14s}" + "".join(f"{(results[label] or {}).get('counts', {}).get(key, 'timed out')!s:>24s}"
                                     for label in labels))
    for label in labels:
        for key, text in sorted((results[label] or {}).get("examples", {}).items()):
            print(f"  {label} {key}: {text}")
    print(json.dumps({label: (results[label] or {}).get("counts") for label in labels}))


if __name__ == "__main__":
    main()
