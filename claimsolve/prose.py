"""Sentences for people, wrapped at word boundaries to the width they are
shown at.  A leaf module: it imports nothing of claimsolve.

What draws text for people (claimsolve.render, claimsolve.play) passes each
line of prose (a note, a verdict, a reason) through `wrap` or `fill`, and
nothing else: tables, boards, move lists and aligned columns are never
wrapped.  The width is the front end's to say, once, around the work that
prints (`wrapping`): the command line gives its terminal's width; with
none given (a library call, output to a pipe or a file) the prose comes
out as it always did, each sentence on one line, unless the line asked
for a width of its own (`fallback`).

    with prose.wrapping(80):
        text = claimsolve.render.analysis_text(result)   # prose at most 80 wide
"""
import contextlib
import contextvars
import textwrap

NARROWEST = 60        # no width given is taken below this: prose in a column of 20 reads worse than cut
HANGING = "  "        # a paragraph's lines after its first: its indent and these

# the width prose is wrapped at: None, a number, or a function giving one (a terminal that is resized)
_width = contextvars.ContextVar("claimsolve_prose_width", default=None)


@contextlib.contextmanager
def wrapping(width):
    """Within the block, prose is wrapped at `width` columns (a number, or
    a function called at each paragraph that gives one or None; at least
    NARROWEST); None: not wrapped."""
    token = _width.set(width)
    try:
        yield
    finally:
        _width.reset(token)


def width():
    """The width prose is wrapped at here (wrapping), or None."""
    columns = _width.get()
    if callable(columns):
        columns = columns()
    return None if columns is None else max(NARROWEST, int(columns))


def wrap(text, hanging=None, fallback=None, whole=()):
    """One paragraph of prose as lines at most width() wide, broken between
    words (a word longer than the line stays whole, and so does each phrase
    of `whole`, like a move with spaces in it): the first line keeps the
    paragraph's indent (its leading spaces), the others have `hanging`
    (default: that indent and HANGING).  `fallback`: the width when none is
    given, for a paragraph that was always wrapped (None: one line)."""
    columns = width() or fallback
    if columns is None or len(text) <= columns:
        return [text]
    body = text.lstrip(" ")
    indent = text[:len(text) - len(body)]
    kept = [phrase for phrase in whole if " " in phrase]
    for phrase in kept:                      # textwrap breaks at ASCII white space only
        body = body.replace(phrase, phrase.replace(" ", _UNBROKEN))
    lines = textwrap.wrap(body, columns, initial_indent=indent,
                          subsequent_indent=indent + HANGING if hanging is None else hanging,
                          break_long_words=False, break_on_hyphens=False) or [text]
    return [line.replace(_UNBROKEN, " ") for line in lines] if kept else lines


_UNBROKEN = "\xa0"


def fill(text, hanging=None, fallback=None):
    """`wrap`'s lines as one string; each line of a `text` of several is a
    paragraph of its own (an empty line stays empty)."""
    return "\n".join(line for paragraph in text.split("\n") for line in wrap(paragraph, hanging, fallback))
