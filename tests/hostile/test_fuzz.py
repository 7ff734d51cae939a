"""Property-based fuzzing of the command line (issue 8, "Done means"): the
bundled seed positions, mutated (fields deleted, replaced, retyped; huge
numbers, NaN, deep nesting, digits that are not ASCII, duplicate keys
written as raw text, broken bytes), and the options of every command, with
hostile values mixed among good ones.  Whatever comes in, a command ends in
exit 0 with output, or exit 2 with exactly one line `claimsolve: ...`;
never exit 1, never a traceback.

Budgets stay small (`--time 0.05`, `--iterations 50`, one game) so that the
default run takes well under a minute; a value that would be a valid but
long budget is not drawn.  CLAIMSOLVE_FUZZ_EXAMPLES=2000 runs longer and
with fresh randomness (by default the examples are the same every run)."""
import json
import os
import re

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from .common import SEED_FILES, assert_contract, run

EXAMPLES = int(os.environ.get("CLAIMSOLVE_FUZZ_EXAMPLES", "0"))
FUZZ = settings(max_examples=EXAMPLES or 120, deadline=None, derandomize=not EXAMPLES, database=None,
                suppress_health_check=list(HealthCheck))

SEEDS = [(path, path.read_text(encoding="utf-8")) for path in SEED_FILES]

# digits that str.isdigit() and int() take, but that are not ASCII
DIGITS = "０１２３４５６７８９٠١٢٣٤٥٦٧٨٩۰۱۲۳۴۵۶۷۸۹०१२३४५६७८९²³¹"
HUGE = "9" * 5000

# cell tokens of the three games' boards
CELLS = {"claimit": [".", ".", "1", "2", "3", "B", "B/1", "1/B", "2/w3", "w1", "w6/B", "B/2", "5", "0", "w7", "1/1"],
         "claim": [".", ".", ".", "1", "2", "3", "T1", "T2", "T3", "4", "5", "T5", "TT"],
         "colorclaim": [".", "R1", "G2", "Y3", "K1", "B1", "R2/G1", "Y3/K2/B1", "W1", "R4"]}

# JSON text no Python value dumps to: written raw into the file
RAW = [HUGE, "-" + HUGE, "1" + "0" * 400, "1e400", "-1e400", "NaN", "Infinity", "-Infinity", "1" * 300 + ".5",
       "[" * 1000 + "]" * 1000, "{" + '"a":' * 0 + '"k": 1, "k": 2}', "-0", "1E2", "0.0000001",
       '"\\ud800"', '"\\u0000"', '"' + "x" * 20_000 + '"']

json_leaf = st.one_of(
    st.none(), st.booleans(),
    st.integers(min_value=-3, max_value=8),
    st.sampled_from([2 ** 31, 2 ** 32, 2 ** 63, 2 ** 64, -(2 ** 63), 10 ** 30, 65535, 65536]),
    st.floats(allow_nan=False, allow_infinity=False, width=64),
    st.text(alphabet=st.sampled_from("abcwxTBRGYK.-/+@=, 0123456789" + DIGITS[:12]), max_size=12),
    st.sampled_from(["colorclaim", "claimit", "claim", "", "standard", "battle-for-two", "play", "settle",
                     "same-viking", "off", "release_white", "c4", "B/1", "w3", "T1"]),
)
json_value = st.recursive(json_leaf, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                             st.dictionaries(st.text(max_size=6), inner,
                                                                             max_size=3)), max_leaves=8)


def _paths(data, prefix=()):
    """Every path (keys and indices) into the JSON value `data`."""
    items = data.items() if isinstance(data, dict) else enumerate(data) if isinstance(data, list) else ()
    for key, value in items:
        yield prefix + (key,)
        yield from _paths(value, prefix + (key,))


def _at(data, path):
    for key in path:
        data = data[key]
    return data


class Raw:
    """Marks JSON text written as it is into the file."""
    count = 0

    def __init__(self, text):
        Raw.count += 1
        self.text = text
        self.marker = f"@@RAW{Raw.count}@@"


def _dumps(data):
    raws = []

    def default(value):
        raise TypeError

    def swap(value):
        if isinstance(value, Raw):
            raws.append(value)
            return value.marker
        if isinstance(value, dict):
            return {k: swap(v) for k, v in value.items()}
        if isinstance(value, list):
            return [swap(v) for v in value]
        return value

    text = json.dumps(swap(data), indent=1, default=default)
    for raw in raws:
        text = text.replace(json.dumps(raw.marker), raw.text)
    return text


def _with_digits(text, draw):
    """`text` with some ASCII digits swapped for digits that are not ASCII."""
    return re.sub(r"[0-9]", lambda m: draw(st.sampled_from([m.group(0), m.group(0), DIGITS[int(m.group(0))],
                                                            DIGITS[10 + int(m.group(0))]])), text)


@st.composite
def mutated_position(draw):
    """The text (or bytes) of a seed position after a few mutations."""
    path, text = draw(st.sampled_from(SEEDS))
    data = json.loads(text)
    for _ in range(draw(st.sampled_from([0, 0, 1, 1, 1, 2, 3]))):
        paths = list(_paths(data))
        where = draw(st.sampled_from(paths)) if paths else ()
        parent, key = (_at(data, where[:-1]), where[-1]) if where else (None, None)
        op = draw(st.sampled_from(["delete", "replace", "raw", "retype", "digits", "duplicate", "unknown",
                                   "string"] + ["cell"] * 6 + ["small"] * 2))
        if parent is None:
            break
        if op == "cell" and isinstance(data.get("board"), list) and data["board"]:
            # a board cell changed to another token of the games (often still a legal position)
            row = draw(st.integers(0, len(data["board"]) - 1))
            if isinstance(data["board"][row], str) and data["board"][row].split():
                tokens = data["board"][row].split()
                tokens[draw(st.integers(0, len(tokens) - 1))] = draw(st.sampled_from(CELLS[path.parent.name]))
                data["board"][row] = " ".join(tokens)
        elif op == "small":
            parent[key] = draw(st.integers(-1, 6))
        elif op == "delete":
            del parent[key]
        elif op == "replace":
            parent[key] = draw(json_value)
        elif op == "raw":
            parent[key] = Raw(draw(st.sampled_from(RAW)))
        elif op == "retype":
            value = parent[key]
            parent[key] = draw(st.sampled_from([[value], {"value": value}, str(value), None, 1.5]))
        elif op == "digits":
            value = parent[key]
            if isinstance(value, (str, int)) and not isinstance(value, bool):
                parent[key] = Raw(json.dumps(_with_digits(str(value), draw), ensure_ascii=False))
        elif op == "duplicate" and isinstance(parent, dict):
            # the key written twice, the second time with a value of its own
            other = draw(json_value)
            parent[key] = Raw(f"{_dumps(parent[key])}, {json.dumps(key)}: {json.dumps(other)}")
        elif op == "unknown" and isinstance(parent, dict):
            parent[draw(st.text(max_size=8))] = draw(json_value)
        elif op == "string" and isinstance(parent[key], str):
            value = parent[key]
            cut = draw(st.integers(0, len(value)))
            parent[key] = value[:cut] + draw(st.text(max_size=4)) + value[cut + draw(st.integers(0, 3)):]
    out = _dumps(data)
    form = draw(st.sampled_from(["text"] * 16 + ["truncated", "bom", "bytes", "nul", "deep"]))
    if form == "truncated":
        return out[:draw(st.integers(0, len(out)))], path
    if form == "bom":
        return "\ufeff" + out, path
    if form == "bytes":
        raw = bytearray(out.encode("utf-8"))
        raw[draw(st.integers(0, len(raw) - 1))] = draw(st.sampled_from([0xFF, 0xC3, 0x80, 0xFE]))
        return bytes(raw), path
    if form == "nul":
        cut = draw(st.integers(0, len(out)))
        return out[:cut] + "\x00" + out[cut:], path
    if form == "deep":
        depth = draw(st.sampled_from([30, 31, 32, 33, 200, 5000]))
        return '{"game": ' + "[" * depth + "]" * depth + "}", path
    return out, path


# --- options: hostile values among good ones ------------------------------------------------

def _number(text):
    """What Python (more lenient than claimsolve: `１`, `1_0`, `inf`) reads
    `text` as, or None."""
    try:
        return float(text)
    except (ValueError, OverflowError):
        return None


def _cheap(limit):
    """True for values no more than `limit`, or values that are no number
    (refused, hence cheap)."""
    return lambda text: (value := _number(text)) is None or not value > limit or value != value \
        or value == float("inf")


HOSTILE_TEXT = st.one_of(
    st.sampled_from(["-1", "0", "-0", "1", "2", "+3", " 4 ", "1e-9", "0.05", "nan", "inf", "-inf", "1e999",
                     "0x10", "1_0", "", " ", "1e5x", "18446744073709551616", "9223372036854775808",
                     "9223372036854775807", "4611686018427387904", HUGE, "-" + HUGE, "１", "٣", "²", "½",
                     "1.5", "3x3", "６x５", "6x5x1", "random", "standard", "battle-for-two", "a\x00b", "\n",
                     "\udcff"]),
    st.text(max_size=8),
    st.integers(-5, 10 ** 25).map(str),
)


def option(name, good, cheap_limit=None):
    """(name, value) with `value` a good one or a hostile one; a hostile
    value that would be a long budget is not drawn."""
    hostile = HOSTILE_TEXT if cheap_limit is None else HOSTILE_TEXT.filter(_cheap(cheap_limit))
    return st.tuples(st.just(name), st.one_of(st.sampled_from(good), st.sampled_from(good), hostile))


def options(*choices):
    return st.lists(st.one_of(*choices), max_size=4)


SPEC_KINDS = ["mcts", "alphabeta", "solver", "random", "threshold", "risk", "optimum", "greedy", "openspiel-mcts",
              "warp", ""]
SPEC_OPTIONS = {"time": 0.02, "iterations": 30, "memory": 64, "threads": 1, "hash": 64, "depth": 2, "c": None,
                "playout": None, "samples": 50, "k": None, "p": None, "rollouts": 2, "simulations": 30,
                "foo": None, "": None}


@st.composite
def player_spec(draw):
    kind = draw(st.sampled_from(SPEC_KINDS))
    parts = []
    for _ in range(draw(st.sampled_from([0, 0, 1, 2]))):
        name = draw(st.sampled_from(sorted(SPEC_OPTIONS)))
        limit = SPEC_OPTIONS[name]
        hostile = HOSTILE_TEXT if limit is None else HOSTILE_TEXT.filter(_cheap(limit))
        value = draw(hostile).replace(",", "").replace(":", "")
        parts.append(f"{name}={value}" if name else value)
    if kind in ("mcts", "openspiel-mcts") and not any(p.startswith(("time=", "iterations=", "simulations="))
                                                     for p in parts):
        parts.append("iterations=20")
    if kind in ("alphabeta", "solver") and not any(p.startswith(("time=", "depth=")) for p in parts):
        parts.append("time=0.02" if kind == "solver" else "depth=1")
    if kind == "optimum":
        parts.append("time=0.01,samples=20")
    return kind + (":" + ",".join(parts) if parts else "")


# where --svg writes: always inside the test's folder (a hostile file name
# would write into the working directory)
SVG_PATHS = ["@/picture.svg", "@/picture.svg", "@", "@/no/such/folder.svg", "", "@/p.json"]


POSITION_COMMANDS = {
    "show": options(option("--json", [None]), st.tuples(st.just("--svg"), st.sampled_from(SVG_PATHS))),
    "moves": options(option("--json", [None])),
    "apply": options(option("--seed", ["0", "7"]), option("--json", [None])),
    "perft": options(option("--depth", ["1"], cheap_limit=1), option("--json", [None])),
    "analyze": options(option("--time", ["0.05", "1e-9"], cheap_limit=0.05),
                       option("--iterations", ["50", "1"], cheap_limit=200),
                       option("--engine", ["auto", "mcts", "alphabeta", "solver"]),
                       option("--top", ["1", "3"]), option("--seed", ["0", "5"]),
                       option("--threads", ["1"], cheap_limit=1), option("--hash", ["8"], cheap_limit=64),
                       option("--json", [None])),
    "solve": options(option("--hash", ["8"], cheap_limit=64), option("--json", [None])),
    "odds": options(option("--samples", ["10", "50"], cheap_limit=200), option("--seed", ["0", "3"]),
                    option("--json", [None])),
}
# what keeps a command short whatever else is drawn (click takes the last of an option given twice)
BUDGET = {"analyze": ["--time", "0.05"], "solve": ["--time", "0.05"], "odds": ["--time", "0.05", "--samples", "20"],
          "perft": ["--depth", "1"]}
GAME_OPTIONS = [option("--players", ["2", "3", "4", "5"], cheap_limit=1000), option("--size", ["3x3", "4x3", "6x5"]),
                option("--island", ["standard", "random", "standard-3"]),
                option("--variant", ["standard", "battle-for-two"]), option("--seed", ["0", "11"])]


def _argv(name, value, tmp):
    if value is None:
        return [name]
    if name == "--svg":
        return [name, value.replace("@", tmp, 1)]
    return [name, value]


# the commands a game's positions take (the others are refused at once: drawn less often)
COMMANDS_OF = {"colorclaim": ["show", "moves", "apply", "perft", "analyze", "solve"],
               "claimit": ["show", "moves", "apply", "analyze", "odds"],
               "claim": ["show", "moves", "apply", "perft", "analyze"]}


@st.composite
def position_command(draw, tmp, game=None):
    command = draw(st.sampled_from(COMMANDS_OF[game] * 3 + sorted(POSITION_COMMANDS) if game in COMMANDS_OF
                                   else sorted(POSITION_COMMANDS)))
    args = [command, os.path.join(tmp, "p.json")]
    if command == "apply":
        args.append(draw(st.one_of(st.sampled_from(["roll", "stop", "a1-a2", "b2xb1", "c3+d5", "T@d4", "pass",
                                                     "w3@2,5", "roll:1,2,3", "B@1,1", "xa1 xb2"]),
                                   st.text(max_size=12))))
    for name, value in draw(POSITION_COMMANDS[command]):
        args += _argv(name, value, tmp)
    return args + BUDGET.get(command, [])


@st.composite
def game_command(draw):
    command = draw(st.sampled_from(["new", "match"]))
    game = draw(st.one_of(st.sampled_from(["colorclaim", "claimit", "claim"]), st.sampled_from(["", "chess", "CLAIM"])))
    args = [command, game]
    for name, value in draw(options(*GAME_OPTIONS, option("--json", [None]))):
        args += _argv(name, value, "")
    if command == "match":
        args += ["--a", draw(player_spec()), "--b", draw(st.sampled_from(["random", "greedy", "threshold:2"])
                                                          if game in ("claimit", "claim") else st.just("random")),
                 "--games", draw(st.sampled_from(["1"] * 6 + ["0", "-1", "10" + "0" * 12, "１"]))]
        if game == "colorclaim" and "--size" not in args:
            args += ["--size", "3x3"]
    return args


def _strict_constant(name):
    raise AssertionError(f"--json output holds {name}, which is not JSON")


def check_json(result, args):
    """With --json, a command that succeeds prints one strict JSON document
    (no NaN or Infinity, which JSON tools refuse)."""
    if result.exit_code == 0 and ("--json" in args or args[0] in ("new", "apply")):
        json.loads(result.stdout, parse_constant=_strict_constant)
    return result


def run_in(folder, args):
    """The command run with `folder` as the working directory: nothing a
    drawn file name writes lands in the repository."""
    here = os.getcwd()
    os.chdir(folder)
    try:
        return run(*args)
    finally:
        os.chdir(here)


@FUZZ
@given(st.data())
def test_mutated_positions_get_an_answer_or_one_line(tmp_path_factory, data):
    tmp = str(tmp_path_factory.mktemp("fuzz"))
    content, path = data.draw(mutated_position(), label="position")
    target = os.path.join(tmp, "p.json")
    with open(target, "wb") as f:
        f.write(content if isinstance(content, bytes) else content.encode("utf-8", "surrogatepass"))
    args = data.draw(position_command(tmp, path.parent.name), label="command")
    result = check_json(assert_contract(run_in(tmp, args), args), args)
    event(f"{args[0]}: exit {result.exit_code}")     # pytest --hypothesis-show-statistics


@FUZZ
@given(st.data())
def test_hostile_options_of_every_command_get_an_answer_or_one_line(tmp_path_factory, data):
    tmp = str(tmp_path_factory.mktemp("fuzz"))
    path, text = data.draw(st.sampled_from(SEEDS), label="seed")
    with open(os.path.join(tmp, "p.json"), "w", encoding="utf-8") as f:
        f.write(text)
    args = data.draw(st.one_of(position_command(tmp, path.parent.name), game_command()), label="command")
    result = check_json(assert_contract(run_in(tmp, args), args), args)
    event(f"{args[0]}: exit {result.exit_code}")
