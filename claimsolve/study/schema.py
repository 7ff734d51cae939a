"""What a study file holds, in words a kind declares its columns with: the
format number, the types of a kind's parameters (PARAM_TYPES) and the
rules of a column's values (Rule: an SQL test of a bad value and the rule
in words; `integer`, `real`, `text`, `seats`, ...).  claimsolve.study.kinds
declares each kind's with them, claimsolve.study.check applies them to a
file, claimsolve.study.store writes the format.
"""

FORMAT = 1                         # of the study file (table `meta`, row 'format')
LAST_TIMESTAMP = 253402300799      # 9999-12-31: a report shows runs' times as dates


def _q(name):
    return '"' + name.replace('"', '""') + '"'


def _whole(value):
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _number(value):
    return isinstance(value, (int, float)) and not isinstance(value, bool)


# types of a kind's parameters (StudyKind.params_types): what each stored value must be
PARAM_TYPES = {
    "text": (lambda v: isinstance(v, str), "a text"),
    "text?": (lambda v: v is None or isinstance(v, str), "a text or null"),
    "count": (lambda v: _whole(v) and v >= 1, "a whole number, at least 1"),
    "count?": (lambda v: v is None or (_whole(v) and v >= 1), "a whole number or null"),
    "whole": (_whole, "a whole number, 0 or more"),
    "flag": (lambda v: v is True, "true (an option that is off is not stored)"),
    "number?": (lambda v: v is None or (_number(v) and v > 0), "a positive number or null"),
    "share": (lambda v: _number(v) and 0 < v < 1, "a number between 0 and 1"),
    "texts": (lambda v: isinstance(v, list) and v and all(isinstance(x, str) for x in v), "a list of texts"),
    "sprt?": (lambda v: v is None or (isinstance(v, list) and len(v) == 2 and all(_number(x) for x in v)
                                      and v[0] < v[1]), "null or [ELO0, ELO1]"),
}


def _typeof(column, types):
    return f"typeof({_q(column)}) NOT IN ({', '.join(repr(t) for t in types)})"


def _json_list(column, length=None, items=("integer", "real", "text"), item_test=None, at_least=0):
    """A text holding a JSON list: of `length` items (a number or an SQL
    expression) or at least `at_least`, each of the JSON `items` types
    (and `item_test`, an SQL test of json_each's `value`)."""
    c = _q(column)
    count = f"json_array_length({c}) != {length}" if length is not None else f"json_array_length({c}) < {at_least}"
    each = f"type NOT IN ({', '.join(repr(t) for t in items)})"
    if item_test:
        each += f" OR NOT ({item_test})"
    return (f"CASE WHEN typeof({c}) != 'text' THEN 1 WHEN NOT json_valid({c}) THEN 1 "
            f"WHEN json_type({c}) != 'array' THEN 1 WHEN {count} THEN 1 "
            f"WHEN EXISTS (SELECT 1 FROM json_each({c}) WHERE {each}) THEN 1 ELSE 0 END")


class Rule:
    """What one column of a table must hold: `bad` an SQL expression true
    for a row that breaks the rule, `what` the rule in words."""

    def __init__(self, bad, what):
        self.bad = bad
        self.what = what


def integer(column, null=False, low=None, high=None):
    types = ("integer", "null") if null else ("integer",)
    bad = _typeof(column, types)
    words = "a whole number" + (" or NULL" if null else "")
    if low is not None:
        bad += f" OR {_q(column)} < {low}"
        words += f", at least {low}" if high is None else f" from {low} to {high}"
    if high is not None:
        bad += f" OR {_q(column)} > {high}"
        if low is None:
            words += f", at most {high}"
    return Rule(bad, words)


def real(column, null=False, low=None, high=None, what=None):
    types = ("real", "integer", "null") if null else ("real", "integer")
    bad = _typeof(column, types)
    words = "a number" + (" or NULL" if null else "")
    if low is not None:
        bad += f" OR {_q(column)} < {low}"
        words += f", at least {low}"
    if high is not None:
        bad += f" OR {_q(column)} > {high}"
        words += f", at most {high}"
    return Rule(bad, what or words)


def when(column, null=False):
    """A time: seconds since 1970, up to the end of year 9999 (a report
    shows it as a date)."""
    return real(column, null, 0, LAST_TIMESTAMP, what="a time (seconds since 1970)" + (" or NULL" if null else ""))


def text(column, null=False, among=None):
    types = ("text", "null") if null else ("text",)
    bad = _typeof(column, types)
    words = "a text" + (" or NULL" if null else "")
    if among:
        bad += f" OR {_q(column)} NOT IN ({', '.join(_sql_text(x) for x in among)})"
        words = " or ".join(repr(x) for x in among) + (" or NULL" if null else "")
    return Rule(bad, words)


def reason(column, longest):
    """A text of 1 to `longest` characters, or NULL."""
    c = _q(column)
    bad = f"{_typeof(column, ('text', 'null'))} OR ({c} IS NOT NULL AND length({c}) NOT BETWEEN 1 AND {longest})"
    return Rule(bad, f"a text of 1 to {longest} characters or NULL")


def boolean(column):
    return Rule(f"{_typeof(column, ('integer',))} OR {_q(column)} NOT IN (0, 1)", "0 or 1")


def numbers(column, length):
    """A JSON list of `length` points, each from 0 to 1."""
    return Rule(_json_list(column, length, items=("integer", "real"), item_test="value BETWEEN 0 AND 1"),
                f"a JSON list of {length} points from 0 to 1")


def seats(column, count):
    """A JSON list of different seats, 1 to `count`."""
    c = _q(column)
    bad = _json_list(column, at_least=1, items=("integer",), item_test=f"value BETWEEN 1 AND {count}")
    bad = (f"CASE WHEN ({bad}) THEN 1 WHEN json_array_length({c}) > {count} THEN 1 "
           f"WHEN (SELECT COUNT(DISTINCT value) FROM json_each({c})) != json_array_length({c}) THEN 1 ELSE 0 END")
    return Rule(bad, f"a JSON list of different seats from 1 to {count}")


def texts(column, length=None, among=None):
    test = f"value IN ({', '.join(_sql_text(x) for x in among)})" if among else None
    words = f"a JSON list of {length} texts" if length is not None else "a JSON list of texts"
    if among:
        words += " among the study's"
    return Rule(_json_list(column, length, items=("text",), item_test=test), words)


def _sql_text(value):
    return "'" + str(value).replace("'", "''") + "'"
