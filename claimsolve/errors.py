"""The errors a user can cause.  The command line prints them as one line and
exits with code 2; anything else escaping is a bug (exit 1)."""
import contextlib
import unicodedata


class ClaimsolveError(Exception):
    """Bad input: a file, a position, a move or an option.  `source` names the
    file ("-" for standard input) once it is known."""

    def __init__(self, message, source=None):
        super().__init__(message)
        self.message = message
        self.source = source

    def __str__(self):
        if self.source is not None and self.source != "":      # (no file has the empty name)
            return f"{self.source}: {self.message}"
        return self.message

    def __reduce__(self):
        # A study's worker raises these in another process: pickled as an
        # Exception is (its class, its message), a subclass whose __init__
        # takes other arguments would not unpickle, and the process pool
        # that failed to read the error took its worker for dead.
        return _rebuilt, (self.__class__, self.args, self.__dict__)


def _rebuilt(cls, args, state):
    error = cls.__new__(cls)
    Exception.__init__(error, *args)
    error.__dict__.update(state)
    return error


class PositionError(ClaimsolveError):
    """An invalid position: `field` names the JSON field at fault, like
    `board[2]` or `claims[1]`."""

    def __init__(self, field, problem, source=None):
        self.field = field
        self.problem = problem
        super().__init__(f"field '{field}': {problem}" if field else problem, source)


def row_tokens(text, field):
    """The tokens of a row string of a position file (a board's or a
    territories' row), separated by spaces, one or more (docs/positions.md):
    any other whitespace (a tab, a no-break or ideographic space, a line
    separator), which str.split() also splits on, is a PositionError
    naming `field` (board[2]) and where it is."""
    for index, char in enumerate(text):
        if char != " " and char.isspace():
            try:
                name = f" {unicodedata.name(char)}"
            except ValueError:                    # control characters have no name
                name = {"\t": " (a tab)", "\n": " (a line break)", "\r": " (a carriage return)"}.get(char, "")
            raise PositionError(field, f"character {index + 1} is U+{ord(char):04X}{name}: tokens are separated "
                                       "by spaces (U+0020) only")
    return [token for token in text.split(" ") if token]


class MoveError(ClaimsolveError):
    """An illegal or unreadable move in a given position."""

    def __init__(self, move, problem, source=None):
        self.move = move
        self.problem = problem
        super().__init__(f"move '{_short(move)}': {problem}", source)


class MoveTypeError(MoveError, TypeError):
    """A move that is not a string (None, a number): a TypeError saying what
    a move is, and a MoveError still, for the callers that catch those."""

    def __init__(self, move, title, examples, source=None):
        self.move = move
        self.problem = (f"a move is a string in {title}'s notation ({examples}), not "
                        f"{'None' if move is None else type(move).__name__ + ' ' + _short(move, 40)}")
        ClaimsolveError.__init__(self, self.problem, source)


class ArgumentTypeError(ClaimsolveError, TypeError):
    """An argument of another type than the API takes (a position, a game
    record): a TypeError, as Python's own functions raise for one, and a
    ClaimsolveError still, for the callers that catch those."""


def check_move_type(move, title, examples):
    """`move` itself when it is a string, else the MoveTypeError saying what a
    move of the game `title` is (`examples`: "like b1-b2 or b1xb2")."""
    if not isinstance(move, str):
        raise MoveTypeError(move, title, examples)
    return move


class OptionError(ClaimsolveError):
    """An option of a game's setup refused by its `new` (players, size,
    island, variant, seed, brawl): `option` is the keyword, `problem` what
    is wrong.  It reads as the command line names the option (`option
    '--size': ...`); a Python entry point whose caller wrote the value
    under another name re-raises it with `as_parameter`."""

    def __init__(self, option, problem, source=None):
        self.option = option
        self.problem = problem
        super().__init__(f"option '--{option}': {problem}", source)

    def as_parameter(self, *names, label=None):
        """The same refusal naming the Python parameter(s) `names` the caller
        gave (default: the keyword itself): `parameter 'size': ...`,
        `parameters 'width' and 'height': ...`; or as `label(keyword)`
        words it (a study's: `parameter 'options', key 'size'`)."""
        names = names or (self.option,)
        if label is not None:
            named = label(self.option)
        else:
            named = (f"parameter '{names[0]}'" if len(names) == 1 else
                     "parameters " + " and ".join(f"'{name}'" for name in names))
        return ClaimsolveError(f"{named}: {self.problem}", self.source)


@contextlib.contextmanager
def as_parameters(*names, label=None):
    """Inside the block, a game's refusal of a setup option (OptionError,
    worded for the command line: `option '--size'`) is raised again naming
    the Python parameter (OptionError.as_parameter), or as `label` names a
    keyword: the entry points that take `new`'s options from Python
    (claimsolve.new, the environments, the OpenSpiel games, the studies)
    wrap their call of `new` in it."""
    try:
        yield
    except OptionError as exc:
        raise exc.as_parameter(*names, label=label) from None


class PlayerError(ClaimsolveError):
    """A player spec the game cannot play or that is malformed: the message
    names the spec as written (`player 'mcts:c=x': ...`)."""

    def __init__(self, spec, problem, source=None):
        self.spec = spec
        self.problem = problem
        super().__init__(f"player '{spec}': {problem}", source)

def _short(move, width=80):
    """A move as an error quotes it: a very long one cut (the whole of a
    megabyte move would drown the line)."""
    try:
        text = move if isinstance(move, str) else repr(move)
    except ValueError:                      # an int of more than 4,300 digits
        text = "a number of thousands of digits"
    if len(text) > width:
        text = f"{text[:width - 20]}...({len(text)} characters)"
    return text


class Interrupted(KeyboardInterrupt):
    """Ctrl-C (SIGINT) stopped a search or a match.  It is a KeyboardInterrupt,
    so code that does not look for it stops as on any Ctrl-C; `partial` is the
    answer so far (a SearchResult, an Analysis, a MatchResult), marked
    interrupted, or None when there is none yet."""

    def __init__(self, partial=None):
        super().__init__("interrupted")
        self.partial = partial


# the longest line an error is shown as (a message quoting a megabyte of input is cut)
MAX_LINE = 1000


def one_line(message):
    """An error (or any message) as one printable line: control characters
    (a newline in a move), lone surrogates and escapes are written as Python
    escapes, and a very long message is cut in the middle.  The command line
    prints it after `claimsolve: `; the web API answers with it."""
    text = "".join(c if c.isprintable() else c.encode("unicode_escape").decode("ascii") for c in str(message))
    if len(text) > MAX_LINE:
        text = f"{text[:MAX_LINE - 200]} ...({len(text)} characters)... {text[-150:]}"
    return text
