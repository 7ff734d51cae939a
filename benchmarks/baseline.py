"""Today's code against an earlier commit, side by side in one run.

A benchmark that prints "before/after" figures measures both sides in the
same run, on the same machine under the same load, each in its own process:

    import baseline
    before = baseline.build("ce758a0")          # built once, then cached
    for tree in (before, None):                 # None: the code being run now
        row = baseline.call(__file__, "measure", ["4x4", 1], tree=tree)

`build(commit)` exports the commit with `git archive` into a cache folder
(`$CLAIMSOLVE_BENCH_CACHE`, default `~/.cache/claimsolve-bench/<sha>`) and
builds its Cython extensions in place there (Cython and a C compiler are
needed, as for any build from source).  `call(script, function, args, tree)`
runs `function(*args)` of the benchmark `script` in a fresh Python process
whose `import claimsolve` is that tree's (or, with `tree=None`, whatever this
interpreter imports), and returns its result, which must be JSON.  The
measuring function is today's, so it must only use library calls the older
commit also has.
"""
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

DEFAULT_COMMIT = "ce758a0"      # the code at the start of the solver-frontier work (issue 10)
REPOSITORY = Path(__file__).resolve().parent.parent
RESULT_MARK = "BASELINE-RESULT "


class BaselineError(RuntimeError):
    """The baseline cannot be built or a measurement failed."""


def cache_folder():
    return Path(os.environ.get("CLAIMSOLVE_BENCH_CACHE", Path.home() / ".cache" / "claimsolve-bench"))


def full_sha(commit):
    proc = subprocess.run(["git", "-C", str(REPOSITORY), "rev-parse", "--verify", f"{commit}^{{commit}}"],
                          capture_output=True, text=True)
    if proc.returncode != 0:
        raise BaselineError(f"baseline: {commit!r} is not a commit of {REPOSITORY}")
    return proc.stdout.strip()


def missing_build_tools():
    """What this interpreter lacks to build a tree's extensions: Cython, or
    a setuptools that reads the project's pyproject (77 or later); None
    when it has both."""
    probe = ("import importlib.metadata as m, sys\n"
             "try:\n    import Cython\nexcept ImportError:\n    sys.exit('Cython')\n"
             "try:\n    major = int(m.version('setuptools').split('.')[0])\n"
             "except (m.PackageNotFoundError, ValueError):\n    major = 0\n"
             "if major < 77:\n    sys.exit('setuptools 77 or later')\n")
    proc = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    return proc.stderr.strip().splitlines()[-1] if proc.returncode != 0 else None


def build_failure(stderr):
    """The line of a failed build's output that says why: the first that
    names an error, else the last."""
    lines = [line.strip() for line in stderr.splitlines() if line.strip()]
    for line in lines:
        if re.search(r"\berror\b", line, re.IGNORECASE):
            return line
    return lines[-1] if lines else "no message"


def build(commit=DEFAULT_COMMIT, quiet=True):
    """The folder of `commit`'s tree with its extensions built in place."""
    sha = full_sha(commit)
    tree = cache_folder() / sha
    if (tree / ".built").exists():
        return tree
    missing = missing_build_tools()
    if missing:
        raise BaselineError(f"baseline: building {commit} needs {missing} in this environment "
                            f"(pip install -e \".[bench]\" brings both)")
    if not quiet:
        print(f"building the baseline {commit} ({sha[:10]}) in {tree} ...", file=sys.stderr, flush=True)
    tree.parent.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=sha[:10] + ".", dir=tree.parent))
    try:
        archive = subprocess.run(["git", "-C", str(REPOSITORY), "archive", "--format=tar", sha],
                                 capture_output=True, check=True).stdout
        with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
            tar.extractall(work)
        # the command-line package lives in cli/ and is installed as claimsolve.cli
        (work / "claimsolve" / "cli").symlink_to(Path("..") / "cli")
        proc = subprocess.run([sys.executable, "setup.py", "build_ext", "--inplace", "-q"],
                              cwd=work, capture_output=True, text=True)
        if proc.returncode != 0:
            log = tree.parent / f"{sha[:10]}.build.log"
            log.write_text(proc.stdout + proc.stderr)
            raise BaselineError(f"baseline: building {commit} failed: {build_failure(proc.stderr)} "
                                f"(the whole build output: {log})")
        (work / ".built").write_text(sha + "\n")
        if tree.exists():           # another run built it meanwhile
            shutil.rmtree(work)
        else:
            work.rename(tree)
    except BaseException:
        shutil.rmtree(work, ignore_errors=True)
        raise
    return tree


def build_or_exit(commit):
    """build(commit) for a benchmark's command line: its progress on
    stderr, and a failure as one line and exit status 2, not a traceback."""
    try:
        return build(commit, quiet=False)
    except BaselineError as exc:
        print(exc, file=sys.stderr)
        sys.exit(2)


def call(script, function, args=(), tree=None, timeout=None):
    """`function(*args)` from the file `script`, in a fresh process that
    imports claimsolve from `tree` (None: as this interpreter does).  Returns
    the function's result (JSON-decoded); None when it ran past `timeout`
    seconds and was killed."""
    env = dict(os.environ)
    if tree is not None:
        env["PYTHONPATH"] = os.pathsep.join([str(tree)] + ([env["PYTHONPATH"]] if env.get("PYTHONPATH") else []))
    code = (
        "import importlib.util, json, sys\n"
        # not the working folder: a checkout there must not shadow the tree
        "sys.path[:] = [p for p in sys.path if p != '']\n"
        f"spec = importlib.util.spec_from_file_location('benchmark_under_test', {str(script)!r})\n"
        "module = importlib.util.module_from_spec(spec)\n"
        f"sys.path.insert(0, {str(Path(script).resolve().parent)!r})\n"
        "spec.loader.exec_module(module)\n"
        f"result = getattr(module, {function!r})(*json.loads(sys.argv[1]))\n"
        f"print({RESULT_MARK!r} + json.dumps(result), flush=True)\n"
    )
    try:
        proc = subprocess.run([sys.executable, "-c", code, json.dumps(list(args))], env=env,
                              capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None
    for line in reversed(proc.stdout.splitlines()):
        if line.startswith(RESULT_MARK):
            return json.loads(line[len(RESULT_MARK):])
    last = (proc.stderr.strip().splitlines() or ["no output"])[-1]
    raise BaselineError(f"baseline: {function}{tuple(args)} failed under {tree or 'the current code'}: {last}")


def label(tree):
    """A short name for a tree in a table: its commit, or "now"."""
    return "now" if tree is None else Path(tree).name[:7]
