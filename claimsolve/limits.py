"""The one validation of the numbers a user gives: budgets, seeds, counts
and memory, whether they come from a command-line option (`--seed 7`), a
match player's spec (`mcts:threads=4`) or a Python call
(`claimsolve.analyze(position, time=2)`), so that a value is refused the same
way everywhere, before it reaches the C code.

Each function takes the value (a number, or the text the user typed) and
`name`, the option as the user wrote it ("--seed", "threads", "time"), and
returns the checked value or raises ClaimsolveError naming the option:

    limits.seconds("0.5", "--time")         -> 0.5
    limits.seed(-1, "--seed")               -> ClaimsolveError("option '--seed': must be ...")

Text is read strictly: ASCII digits only (no `１`, `١` or `1_000`; spaces
around the number are dropped), no `nan` or `inf`, no hexadecimal, and at
most MAX_DIGITS characters (Python refuses to convert integers of more than
4,300 digits; nothing here needs 40).
"""
import json
import math
import operator
import os
import re

from .errors import ClaimsolveError

MAX_DIGITS = 40                  # longest number text read
MAX_SEED = 2 ** 63 - 1           # seeds: 0..MAX_SEED (the C engines take uint64_t)
MAX_SECONDS = 100_000_000       # about three years: longer is a typo
MAX_ITERATIONS = 2 ** 62         # C counts iterations in uint64_t
MAX_THREADS = 64                 # root-parallel MCTS processes
MAX_MEMORY_MB = 1 << 20          # a table or tree of at most 1 TiB (and half the machine's memory)
MAX_SAMPLES = 10_000_000         # Monte Carlo play-outs per odds row
MIN_SAMPLES = 2                  # a confidence interval needs two
MAX_DEPTH = 64                   # perft and alpha-beta depths
MAX_GAMES = 10 ** 9              # games of a match
MAX_TASKS = 10_000_000           # tasks (setups, games) in one study
MAX_PLIES = 10_000               # a game the rules have not ended by then is adjudicated (claimsolve.match),
                                 # truncated (claimsolve.env) or cut (the OpenSpiel games' max_game_length)
MAX_TOP = 1_000_000              # suggestions shown
MAX_PLAYERS = 1000               # `--players`: each game refuses what it does not take
MAX_INT = 2 ** 31 - 1            # small whole numbers the C code takes as int
MAX_WORKERS = 1024               # a study's local worker processes
MAX_BATCH = 100_000              # tasks sent to a study's worker at once

_INTEGER = re.compile(r"[+-]?[0-9]+")
_DECIMAL = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")


def _shown(value):
    """The value as an error message quotes it: short, on one line (text
    quoted; true, false, null, lists and objects in JSON's spelling, as a
    position file or a web API request gives them; characters that are not
    ASCII written as escapes, so that a `３` shows as what it is)."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 4 * MAX_DIGITS:
        return f"a number of {len(str(abs(value))) if value.bit_length() < 14000 else 'thousands of'} digits"
    if isinstance(value, str):
        text = value
    else:
        try:
            if value is None or isinstance(value, (bool, list, tuple, dict)):
                text = json.dumps(value, default=repr)     # JSON's spelling: true, not True
            else:
                text = repr(value)
        except Exception:                    # noqa: BLE001 (a caller's object whose repr fails)
            text = f"a {type(value).__name__}"
    if len(text) > 24 and not getattr(value, "whole", False):
        text = f"{text[:12]}...({len(text)} characters)"
    text = text.encode("unicode_escape").decode("ascii")
    return f"'{text}'" if isinstance(value, str) else text


def quoted(value):
    """A value a user gave, as an error message quotes it (see _shown)."""
    return _shown(value)


def blank(value):
    """What is wrong with an empty or blank string where a field wants a
    value ("an empty string"), or None for any other value."""
    if not isinstance(value, str) or value.strip():
        return None
    return "an empty string" if not value else f"a blank string ({_shown(value)}: white space only)"


def label(name):
    """How an error names what the user gave: "option '--seed'", or, for a
    name that is already a description (it holds a space: "option 'k'
    (given without k=)" for threshold:2, "parameter 'time'" from Python),
    that description."""
    return name if " " in name else f"option '{name}'"


def _refuse(name, problem, value):
    return ClaimsolveError(f"{label(name)}: must be {problem}, not {_shown(value)}")


def integer(value, name, low, high, what=None):
    """A whole number low..high; `value` an int (not a bool) or its text in
    ASCII digits."""
    problem = what or f"a whole number from {low} to {high}"
    if isinstance(value, str):
        text = value.strip(" ")
        if len(text) > MAX_DIGITS or not _INTEGER.fullmatch(text):
            raise _refuse(name, problem, value)
        number = int(text)
    elif isinstance(value, int) and not isinstance(value, bool):
        number = value
    else:
        raise _refuse(name, problem, value)
    if not low <= number <= high:
        raise _refuse(name, problem, value)
    return number


def number(value, name, low, high, low_open=False, what=None):
    """A finite number in [low, high] ((low, high] with `low_open`); `value`
    an int or float (not a bool) or its decimal text in ASCII."""
    if what is None:
        what = f"a number {'above' if low_open else 'of at least'} {low:g} and at most {high:g}"
    if isinstance(value, str):
        text = value.strip(" ")
        if len(text) > MAX_DIGITS or not _DECIMAL.fullmatch(text):
            raise _refuse(name, what, value)
        result = float(text)
    elif isinstance(value, (int, float)) and not isinstance(value, bool):
        try:
            result = float(value)
        except OverflowError:
            raise _refuse(name, what, value) from None
    else:
        raise _refuse(name, what, value)
    if not math.isfinite(result) or result > high or result < low or (low_open and result == low):
        raise _refuse(name, what, value)
    return result


# --- one function per kind ------------------------------------------------------------

def seconds(value, name):
    """A time budget: seconds above 0, finite, at most MAX_SECONDS."""
    return number(value, name, 0.0, MAX_SECONDS, low_open=True,
                  what=f"a number of seconds above 0 and at most {MAX_SECONDS:,}")


def iterations(value, name):
    """An iteration (simulation) budget: 1..MAX_ITERATIONS."""
    return integer(value, name, 1, MAX_ITERATIONS)


def seed(value, name):
    """A seed: 0..MAX_SEED."""
    return integer(value, name, 0, MAX_SEED)


def threads(value, name):
    """Root-parallel searches: 1..MAX_THREADS."""
    return integer(value, name, 1, MAX_THREADS)


def optimum_threads(value, name):
    """The Claim It! turn optimum's threads: 1 or 2."""
    return integer(value, name, 1, 2)


def count(value, name, low=1, high=MAX_INT):
    """A count (games, samples, suggestions, depth, ...): a whole number low..high."""
    return integer(value, name, low, high)


def samples(value, name):
    """Monte Carlo play-outs: MIN_SAMPLES..MAX_SAMPLES."""
    return integer(value, name, MIN_SAMPLES, MAX_SAMPLES)


def depth(value, name):
    """A search or perft depth: 1..MAX_DEPTH."""
    return integer(value, name, 1, MAX_DEPTH)


def games(value, name):
    """Games of a match: 1..MAX_GAMES."""
    return integer(value, name, 1, MAX_GAMES)


def study_games(value, name):
    """Games of a study (each one task): 1..MAX_TASKS."""
    return integer(value, name, 1, MAX_TASKS)


def top(value, name):
    """Suggestions shown: 1..MAX_TOP."""
    return integer(value, name, 1, MAX_TOP)


def players(value, name):
    """A number of seats, before the game says which it takes."""
    return integer(value, name, 1, MAX_PLAYERS)


def machine_mb():
    """The machine's memory in MB (None when the system does not say)."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") // (1 << 20)
    except (AttributeError, ValueError, OSError):
        return None


def soft_limit(resource_name):
    """This process's soft limit `resource_name` ("RLIMIT_AS", "RLIMIT_NOFILE",
    ...), or None where it has none (or the system does not say)."""
    try:
        import resource
        soft = resource.getrlimit(getattr(resource, resource_name))[0]
    except (ImportError, AttributeError, OSError, ValueError):
        return None
    return None if soft == resource.RLIM_INFINITY else soft


def process_memory_limit():
    """", this process may use at most N MB in all (ulimit -v)" where its
    address space is limited (a table refused for that limit, not for the
    machine's memory, should say so), else ""."""
    soft = soft_limit("RLIMIT_AS")
    return "" if soft is None else f", this process may use at most {soft >> 20:,} MB in all (ulimit -v)"


def memory_mb(value, name, whole=True):
    """Memory for a table or tree, in MB: at least 1, at most MAX_MEMORY_MB
    and half the machine's memory (a table is written over whole when it is
    cleared: one as large as the machine would push everything else out); a
    whole number unless `whole` is False."""
    machine = machine_mb()
    high = MAX_MEMORY_MB if machine is None else max(1, min(MAX_MEMORY_MB, machine // 2))
    where = "" if machine is None else f" (half of this machine's {machine} MB)"
    if whole:
        return integer(value, name, 1, high, what=f"a whole number of MB from 1 to {high}{where}")
    return number(value, name, 0.0, high, low_open=True, what=f"a number of MB above 0 and at most {high}{where}")


def fold_seed(value):
    """A seed the program derived (a match player's), folded into 0..MAX_SEED;
    `value` must be an int."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise ClaimsolveError(f"option 'seed': must be a whole number, not {_shown(value)}")
    return value % (MAX_SEED + 1)


def ascii_digits(text):
    """True when `text` is one or more ASCII digits (str.isdigit also takes
    `１` and `١`, which int() reads as 1)."""
    return isinstance(text, str) and 0 < len(text) and text.isascii() and text.isdigit()


def choice(value, name, choices):
    """One of the words `choices`."""
    if not isinstance(value, str) or value not in choices:
        raise _refuse(name, "one of " + ", ".join(choices), value)
    return value


def spec_options(given, known, positional=None):
    """The checked options of a match player's spec ("mcts:time=0.5,c=1"):
    `given` {name: text} as claimsolve.player_kinds.parse_spec reads them,
    `known` {name: check(text, name) -> value}; `positional` names a value
    written without `name=` (threshold:2 is threshold:k=2).  An unknown
    option is refused listing the known ones, a known one written without
    `=value` (mcts:time) as needing a value; each error names the option as
    the user wrote it."""
    given = dict(given)
    labels = {name: name for name in given}
    if "" in given:
        if positional is None:
            word = given.pop("")
            if word in known:               # mcts:time, the value left out
                raise ClaimsolveError(f"option '{word}' needs a value (write {word}=VALUE)")
            raise ClaimsolveError(f"unknown option '{_shown(word)[1:-1]}' ({_known(known)}; write name=value)")
        if positional in given:
            raise ClaimsolveError(f"option '{positional}' given twice (once as {positional}=)")
        given[positional] = given.pop("")
        labels[positional] = f"option '{positional}' (given without {positional}=)"
    for name in given:
        if name not in known:
            raise ClaimsolveError(f"unknown option '{_shown(name)[1:-1]}' ({_known(known)})")
    return {name: known[name](text, labels[name]) for name, text in given.items()}


def _known(known):
    return f"known: {', '.join(known)}" if known else "this kind takes no options"


def whole_number(value):
    """(`value` as an int, None) where it is a whole number: an int, a numpy
    integer or a 0-d integer array (what policies give as an action); else
    (None, why in words): "a bool, not a whole number" (True is no action,
    but likely a flag passed by mistake) or "not a whole number" (8.7 was
    played as 8).  The environments' and the OpenSpiel states' actions."""
    if type(value) is int:
        return value, None
    if getattr(value, "shape", None) == () and hasattr(value, "dtype"):
        value = value[()]                       # a 0-d array: its scalar
    if isinstance(value, bool) or type(value).__name__ in ("bool", "bool_"):
        return None, "a bool, not a whole number"
    try:
        return operator.index(value), None
    except TypeError:
        return None, "not a whole number"

