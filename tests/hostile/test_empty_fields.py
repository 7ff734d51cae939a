"""Empty strings where a field wants a value (issue 34, class 6): a Color
Claim file with `"claims": [null, ""]` was read as `[null, null]`.  Every
field of every seed of every game, set to "" and to a blank string in
turn, and each key a file may leave out given as "", is refused: one
line naming that field (or the object it is in), never read as null or
as its default."""
import copy
import re

import pytest

from claimsolve.errors import PositionError
from claimsolve.positions import from_dict

from .common import COLORCLAIM, SEED_FILES, assert_refused, run, seed_data


def leaves(value, path=()):
    """The paths of the values that are not objects or lists (the fields)."""
    if isinstance(value, dict):
        for key, child in value.items():
            yield from leaves(child, path + (key,))
    elif isinstance(value, list):
        for index, child in enumerate(value):
            yield from leaves(child, path + (index,))
    else:
        yield path


def field_name(path):
    """A path as the errors name a field: `claims[1]`, `history.streak.1`."""
    text = ""
    for part in path:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else part)
    return text


def top(name):
    return re.split(r"[.\[]", name)[0]


# the keys a file may leave out, each game's: given as "", not read as left out
OPTIONAL = {"colorclaim": ["to_move", "claims", "shield"],
            "claimit": ["to_move", "dice", "final_round", "variant", "target"],
            "claim": ["variant", "phase", "first_player", "to_move", "rules", "history"]}


@pytest.mark.parametrize("seed", SEED_FILES, ids=lambda path: f"{path.parent.name}/{path.stem}")
def test_an_empty_string_in_any_field_is_refused_by_name(seed):
    data = seed_data(seed)
    absent = [(key,) for key in OPTIONAL[data["game"]] if key not in data]
    for path in list(leaves(data)) + absent:
        if not path or path == ("game",):
            continue
        for blank in ("", " \t"):
            changed = copy.deepcopy(data)
            parent = changed
            for part in path[:-1]:
                parent = parent[part]
            parent[path[-1]] = blank
            with pytest.raises(PositionError) as refused:
                from_dict(changed)
            assert top(refused.value.field) == top(field_name(path)), (field_name(path), str(refused.value))
            assert "\n" not in str(refused.value)


@pytest.mark.parametrize("claims, field, fragment", [
    ('[null, ""]', "claims[1]", "an empty string"),
    ('["", "G"]', "claims[0]", "an empty string"),
    ('[" ", null]', "claims[0]", "a blank string"),
])
def test_an_empty_claim_is_not_null(tmp_path, claims, field, fragment):
    """The issue's example, through the command line."""
    text = COLORCLAIM.read_text()
    text = re.sub(r'"claims": \[[^\]]*\]', f'"claims": {claims}', text)
    path = tmp_path / "p.json"
    path.write_text(text)
    assert_refused(run("show", path), str(path), f"field '{field}'", fragment)
