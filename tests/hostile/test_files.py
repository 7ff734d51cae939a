"""Hostile position files (issue 8): each class of bad input is refused with
exit code 2 and one line naming the file and the field, never a traceback.
The examples are the issue's, and the classes are covered as a whole: every
field of every game's position, with every wrong type and number."""
import json

import pytest

from .common import (CLAIM, CLAIMIT, CLAIMIT_DICE, COLORCLAIM, ONE_OF_EACH, SEED_FILES, assert_contract,
                     assert_refused, run, seed_data)

COMMANDS_READING = [("show",), ("moves",), ("perft", "--depth", "1"), ("analyze", "--time", "0.05"),
                    ("apply", "roll")]


def write(tmp_path, content, name="p.json"):
    path = tmp_path / name
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    return path


def with_field(data, field, raw):
    """The JSON text of `data` with `field` (a path "a.b" or "a.[2]") set to
    the raw JSON text `raw` (which may be no valid Python value: NaN, a
    5,000-digit number, a duplicate key)."""
    marker = "@@FIELD@@"
    target, key = _parent(data, field)
    target[key] = marker
    return json.dumps(data).replace(json.dumps(marker), raw)


def _parent(data, field):
    parts = field.split(".")
    node = data
    for part in parts[:-1]:
        node = node[int(part[1:-1])] if part.startswith("[") else node[part]
    last = parts[-1]
    return node, (int(last[1:-1]) if last.startswith("[") else last)


# --- the game field -------------------------------------------------------------------

@pytest.mark.parametrize("raw", ['["colorclaim"]', '{"id": "colorclaim"}', "7", "null", "true", "1" * 5000,
                                 '"colorclaim "', '"ｃolorclaim"', '"' + "x" * 100_000 + '"', "NaN"])
@pytest.mark.parametrize("command", COMMANDS_READING)
def test_game_of_any_type_is_refused_by_every_command(tmp_path, raw, command):
    path = write(tmp_path, with_field(seed_data(COLORCLAIM), "game", raw))
    line = assert_refused(run(command[0], path, *command[1:]), path, "field 'game'")
    assert len(line) < 400


def test_missing_game_and_not_an_object(tmp_path):
    assert_refused(run("show", write(tmp_path, '{"board": []}')), "field 'game': missing")
    for content in ("[]", "7", '"claim"', "null"):
        assert_refused(run("show", write(tmp_path, content)), "p.json", "must be a JSON object")


# --- nesting, huge numbers, endless and binary input -----------------------------------

@pytest.mark.parametrize("depth", [33, 1000, 100_000])
def test_deep_nesting_is_refused(tmp_path, depth):
    whole = write(tmp_path, "[" * depth + "]" * depth, "whole.json")
    assert_refused(run("show", whole), "whole.json", "nested more than")
    inside = write(tmp_path, with_field(seed_data(COLORCLAIM), "claims", "[" * depth + "]" * depth), "in.json")
    assert_refused(run("moves", inside), "in.json", "nested more than")


HUGE = "1" * 5000


@pytest.mark.parametrize("path,field", [
    (COLORCLAIM, "to_move"), (COLORCLAIM, "shield"), (COLORCLAIM, "claims.[0]"), (COLORCLAIM, "board.[0]"),
    (CLAIMIT, "players"), (CLAIMIT, "to_move"), (CLAIMIT, "target"), (CLAIMIT_DICE, "dice.[1]"),
    (CLAIMIT, "variant.release_white"),
    (CLAIM, "players"), (CLAIM, "to_move"), (CLAIM, "first_player"), (CLAIM, "rules.draw_after"),
    (CLAIM, "history.quiet_plies"), (CLAIM, "history.streak.1.[1]"), (CLAIM, "territories.[0]"),
])
@pytest.mark.parametrize("raw", [HUGE, "-" + HUGE, "1e400", "-1e400", "NaN", "Infinity", "-Infinity",
                                 "1" * 400 + ".5", "18446744073709551616", "-1", "1.0"])
def test_numbers_no_field_takes_are_refused_by_name(tmp_path, path, field, raw):
    position = write(tmp_path, with_field(seed_data(path), field, raw))
    name = field.split(".")[0]
    line = assert_refused(run("show", position), position, name)
    assert len(line) < 600


@pytest.mark.parametrize("raw, said", [("1e400", "1e400 (beyond the range of numbers)"),
                                       ("NaN", "NaN (not a JSON number)"),
                                       ("1" * 400 + ".5", "a number of 402 characters")])
def test_a_number_no_field_takes_is_described_whole(tmp_path, raw, said):
    # "not 1e400 (beyon...(35 characters)": the description was cut mid-word
    position = write(tmp_path, with_field(seed_data(COLORCLAIM), "to_move", raw))
    line = assert_refused(run("show", position), "field 'to_move'")
    assert line.endswith(f"not {said}")


def test_huge_number_is_quoted_short(tmp_path):
    position = write(tmp_path, with_field(seed_data(CLAIMIT), "players", HUGE))
    line = assert_refused(run("show", position), "field 'players'")
    assert HUGE[:100] not in line


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom"])
def test_endless_input_is_read_to_a_limit(device):
    assert_refused(run("moves", device), device, "larger than")


def test_endless_standard_input_is_read_to_a_limit():
    assert_refused(run("show", "-", input=b" " * (17 * 1024 * 1024)), "-:", "larger than")


@pytest.mark.parametrize("content,fragment", [
    (b"\xff\xfe{}", "not UTF-8"),
    ('{"game": "colorclaim"}'.encode("utf-16"), "binary"),
    (b'{"game": "color\x00claim"}', "binary"),
    (b"", ": the file is empty"),
    (b" \n\t\n", ": the file holds only white space, no JSON"),
    (b"{", "invalid JSON"),
    (b'{"game": "colorclaim"} trailing', "invalid JSON"),
    (b"\x89PNG\r\n\x1a\n" + bytes(range(256)), "p.json"),
])
def test_binary_and_broken_files(tmp_path, content, fragment):
    assert_refused(run("show", write(tmp_path, content)), "p.json", fragment)


@pytest.mark.parametrize("content,message", [
    (b'{"game": "colorclaim", "board": ["R1\tG1"]}', "invalid JSON: Invalid control character at line 1 column 37"),
    (b'{"game": "colorclaim", "board": ["R1', "invalid JSON: Unterminated string starting at line 1 column 34"),
])
def test_json_errors_say_where_once(tmp_path, content, message):
    # json's own message ends in "at": the line said "... at at line 1 ..."
    line = assert_refused(run("show", write(tmp_path, content)), "p.json", message)
    assert "at at" not in line


def test_a_byte_order_mark_is_read():
    text = COLORCLAIM.read_text()
    result = run("show", "-", input=("\ufeff" + text).encode("utf-8"))
    assert result.exit_code == 0, result.stderr


# --- digits that are not ASCII, duplicate keys --------------------------------------------

@pytest.mark.parametrize("path,field,raw,fragment", [
    (CLAIMIT, "board.[1]", '". \\uff12 . . 1 ."', "board[1]"),            # a fullwidth 2
    (CLAIMIT, "board.[1]", '". ２ . . 1 ."', "board[1]"),
    (CLAIMIT, "board.[1]", '". \\u0662 . . 1 ."', "board[1]"),            # an Arabic-Indic 2
    (CLAIMIT, "board.[1]", '". w\\uff13 . . 1 ."', "board[1]"),
    (CLAIMIT, "board.[1]", '". \\u00b2 . . 1 ."', "board[1]"),            # a superscript 2
    (COLORCLAIM, "board.[0]", '"Y\\uff12 R2 G2"', "board[0]"),
    (CLAIM, "board.[0]", '". . . . . . . . . . . \\uff11 . . ."', "board[0]"),
    (CLAIM, "board.[0]", '". . . . . . . . . . . T\\u0661 . . ."', "board[0]"),
    (CLAIM, "history.streak.1", '["c\\uff15", 1]', "history.streak.1"),
    (CLAIM, "history.streak.1", '["c\\u0665", 1]', "history.streak.1"),
])
def test_digits_that_are_not_ascii_are_refused_in_files(tmp_path, path, field, raw, fragment):
    position = write(tmp_path, with_field(seed_data(path), field, raw))
    assert_refused(run("show", position), position, fragment)


@pytest.mark.parametrize("path,field,raw,shown", [
    (CLAIMIT, "board.[1]", '". .\\t. . 1 ."', "character 4 is U+0009 (a tab)"),
    (CLAIMIT, "board.[1]", '". .\\u3000. . 1 ."', "character 4 is U+3000 IDEOGRAPHIC SPACE"),
    (CLAIMIT, "board.[1]", '". . . . 1\\u2028."', "character 10 is U+2028 LINE SEPARATOR"),
    (COLORCLAIM, "board.[0]", '"Y2\\tR2 G2"', "character 3 is U+0009 (a tab)"),
    (COLORCLAIM, "board.[0]", '"Y2\\u3000R2 G2"', "character 3 is U+3000 IDEOGRAPHIC SPACE"),
    (COLORCLAIM, "board.[0]", '"Y2 R2\\u00a0G2"', "character 6 is U+00A0 NO-BREAK SPACE"),
    (COLORCLAIM, "board.[0]", '"Y2 R2 G2\\n"', "character 9 is U+000A (a line break)"),
    (CLAIM, "board.[0]", '". . . . . . . . . . .\\t1 . . ."', "character 22 is U+0009 (a tab)"),
    (CLAIM, "board.[0]", '". . . . . . . . . . . 1\\u2028. . ."', "character 24 is U+2028 LINE SEPARATOR"),
    (CLAIM, "territories.[0]", '"- - a a a - - - - b b b -\\u3000- -"', "character 26 is U+3000 IDEOGRAPHIC SPACE"),
])
def test_tokens_are_separated_by_spaces_only(tmp_path, path, field, raw, shown):
    """docs/positions.md: a row's tokens are separated by spaces; a tab, an
    ideographic space or a line separator was taken as one (str.split()).
    Spaces, one or more, are still taken."""
    name = field.replace(".", "")
    position = write(tmp_path, with_field(seed_data(path), field, raw))
    line = assert_refused(run("show", position), position, f"field '{name}': {shown}: tokens are separated by "
                                                           "spaces (U+0020) only")
    spaced = json.loads(raw).replace("\t", " ").replace("\u3000", "  ").replace("\u2028", " ").replace(
        "\u00a0", " ").replace("\n", " ")
    again = write(tmp_path, with_field(seed_data(path), field, json.dumps(" " + spaced + "  ")), name="q.json")
    assert run("show", again).exit_code == 0, line


@pytest.mark.parametrize("content,key", [
    ('{"game": "colorclaim", "game": "colorclaim", "board": ["R1 G1", "B1 Y1"]}', "game"),
    ('{"game": "colorclaim", "board": ["R1 G1", "B1 Y1"], "to_move": 1, "to_move": 2}', "to_move"),
    ('{"game": "claimit", "players": 2, "board": [". . . . . ."], '
     '"variant": {"release_white": false, "release_white": true}}', "variant.release_white"),
])
def test_duplicate_keys_are_refused(tmp_path, content, key):
    assert_refused(run("show", write(tmp_path, content)), "p.json", f"field '{key}'", "twice")


@pytest.mark.parametrize("field, raw", [
    ("rules.draw_after", '100, "draw_after": 150'),
    ("history.streak.1", 'null, "1": null'),
    ("history.quiet_plies", '0, "quiet_plies": 3'),
])
def test_duplicate_keys_in_nested_objects_are_named_by_their_path(tmp_path, field, raw):
    # docs/positions.md: a field is named by its dotted path, like history.streak.1
    position = write(tmp_path, with_field(seed_data(CLAIM), field, raw))
    result = run("show", position)
    assert_refused(result, position, f"field '{field}': given twice")


@pytest.mark.parametrize("path,field,raw,fragment", [
    (CLAIM, "players", "true", "field 'players': must be an integer 2..4, not true"),
    (CLAIM, "to_move", "false", "field 'to_move': must be a player 1..2, not false"),
    (CLAIM, "rules.third_party_anvil", "null", "field 'rules.third_party_anvil': must be true or false, not null"),
    (CLAIM, "history.quiet_plies", "[1, true, null]", "not [1, true, null]"),
    (COLORCLAIM, "to_move", "true", "field 'to_move': must be 1 or 2, not true"),
    (COLORCLAIM, "claims.[1]", "false", "field 'claims[1]': must be null or one of R, Y, G, B, K, not false"),
])
def test_json_values_are_quoted_back_in_json_spelling(tmp_path, path, field, raw, fragment):
    position = write(tmp_path, with_field(seed_data(path), field, raw))
    line = assert_refused(run("show", position), position, fragment)
    assert not any(word in line for word in ("True", "False", "None"))


# --- every field of every game: wrong types and numbers -----------------------------------

def _fields(data, prefix=""):
    """Every path of a position's JSON: keys, list items (the first two),
    nested objects."""
    if isinstance(data, dict):
        items = list(data.items())
    elif isinstance(data, list):
        items = [(f"[{i}]", v) for i, v in enumerate(data[:2])]
    else:
        return
    for key, value in items:
        path = f"{prefix}.{key}" if prefix else key
        yield path, value
        yield from _fields(value, path)


WRONG = ['["x"]', "[]", '{"x": 1}', "{}", '"x"', '""', "1.5", "true", "null", "-1", "0", "99", HUGE, "NaN",
         '"\\uff11"', '"1"', "[" * 40 + "]" * 40]
FIELDS = [(path, field) for path in SEED_FILES for field, _ in _fields(seed_data(path))
          if field != "game" and path.name in ("late-6x5.json", "mid-game-dice-3p.json", "final-round-3p.json",
                                               "play-2p.json", "brawl-3p.json", "play-battle-for-two.json")]


@pytest.mark.parametrize("path,field", FIELDS, ids=[f"{p.parent.name}/{p.stem}:{f}" for p, f in FIELDS])
def test_every_field_refuses_wrong_values_by_name(tmp_path, path, field):
    """A wrong value in any field is refused naming it (or its parent, for
    a list item or a key the parent's check reads), or taken when it
    happens to be a value the field allows (null for an optional field)."""
    top = field.split(".")[0]
    for raw in WRONG:
        position = write(tmp_path, with_field(seed_data(path), field, raw))
        result = assert_contract(run("show", position))
        if result.exit_code == 2:
            line = result.stderr.strip()
            assert str(position) in line, line
            named = top in line or "nested" in line or "history" in line or "final_round" in line
            assert named, f"{field} = {raw[:40]}: {line}"
            assert len(line) < 700, line


@pytest.mark.parametrize("game,path", sorted(ONE_OF_EACH.items()))
def test_unknown_and_missing_keys(tmp_path, game, path):
    data = seed_data(path)
    data["colour"] = 1
    assert_refused(run("show", write(tmp_path, json.dumps(data))), "field 'colour'", "unknown key")
    for key in list(seed_data(path)):
        data = seed_data(path)
        del data[key]
        assert_contract(run("show", write(tmp_path, json.dumps(data))))


# --- positions.md's invalid positions, written by hand, refused by the command line --------

E6 = [". . . . . ."] * 6
INVALID_BY_THE_SPEC = [
    # claim
    ({"game": "claim", "players": 2, "territories": ["a b", "b a"], "board": [". .", ". ."]},
     "territories"),                                                     # a letter not connected
    ({"game": "claim", "players": 2, "territories": ["a a", "a a"], "board": ["T1 .", ". T2"]},
     "board"),                                                           # two towers in one territory
    ({"game": "claim", "players": 2, "territories": ["- a", "a a"], "board": ["1 .", ". ."]},
     "board[0]"),                                                        # a piece on sea
    ({"game": "claim", "players": 2, "territories": ["a a", "b b"], "board": ["T1 1", "2 ."],
      "phase": "settle"}, "board"),                                      # a tower in the settle phase
    ({"game": "claim", "players": 2, "territories": ["a a", "a a"], "board": ["1 2", ". ."],
      "history": {"streak": {"1": ["b2", 1]}}}, "history.streak.1"),    # a streak on another's Viking
    # claimit
    ({"game": "claimit", "players": 2, "board": [". 3 . . . ."] + E6[1:]}, "board[0]"),  # colour > players
    ({"game": "claimit", "players": 2, "board": ["w2 . . . . w2"] + E6[1:]}, "board"),   # a white twice
    ({"game": "claimit", "players": 2, "board": ["B/1 B/2 . . . .", "B/2 B/1 . . . ."] + E6[2:],
      "dice": [1, 1, 2]}, "dice"),                                                       # dice that bust
    ({"game": "claimit", "players": 2, "board": ["B/1 B/1 B/1 B/1 B/1 B/1"] * 2 + ["B/1 . . . . ."] + E6[3:]},
     "final_round"),                                                     # the target without final_round
    # colorclaim
    ({"game": "colorclaim", "board": ["R1 R1", "R1 G2"]}, "board"),     # 3 pyramids R1
    ({"game": "colorclaim", "board": ["R1 G2"], "claims": ["G", None], "shield": 1}, "shield"),
]


@pytest.mark.parametrize("data,field", INVALID_BY_THE_SPEC,
                         ids=[f"{d['game']}:{f}:{i}" for i, (d, f) in enumerate(INVALID_BY_THE_SPEC)])
def test_positions_the_spec_calls_invalid_are_refused_naming_the_field(tmp_path, data, field):
    path = write(tmp_path, json.dumps(data))
    assert_refused(run("show", path), path, f"field '{field}'")
