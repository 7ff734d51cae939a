"""Progress lines on a terminal: standard error only, and only when it is a
terminal (cli.md).  Long work takes `progress=` callables; this makes them."""
import os
import sys
import time


class ProgressLine:
    """A single self-overwriting status line on stderr.  Calling it with a
    dict (or a string) redraws the line at most every `interval` seconds;
    `close()` clears it."""

    def __init__(self, label, stream=None, interval=0.2):
        self.label = label
        self.stream = stream or sys.stderr
        self.interval = interval
        self._last = 0.0
        self._shown = False
        self._width = 99

    def __call__(self, info):
        now = time.monotonic()
        if now - self._last < self.interval:
            return
        self._last = now
        fields = [info] if isinstance(info, str) else _fields(info)
        # one row of the terminal as it is now: a longer line wraps, and "\r" then goes back to
        # the start of its last row only (at 80 columns every redraw was a new line); fields
        # that do not fit are left out from the last, never cut through their numbers
        width = self._width = self._columns() - 1
        line = f"{self.label}: {'  '.join(fields)}"
        while len(line) > width and len(fields) > 1:
            fields.pop()
            line = f"{self.label}: {'  '.join(fields)}"
        if len(line) > width:
            line = line[:max(0, width - 3)] + "..."
        self.stream.write("\r" + line.ljust(width))
        self.stream.flush()
        self._shown = True

    def _columns(self):
        """The terminal's width in columns (the stream's own terminal; 100
        where it has none, as when a test gives a stream, or says 0, as a
        pseudo-terminal whose size was never set)."""
        try:
            columns = os.get_terminal_size(self.stream.fileno()).columns
        except (AttributeError, OSError, ValueError):
            return 100
        return columns if columns > 0 else 100

    def close(self):
        if self._shown:
            self.stream.write("\r" + " " * self._width + "\r")
            self.stream.flush()
            self._shown = False

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


# a search's report of its best move: the move first, then what the search makes of it (said to be
# the best's: "mean 0.577" alone did not say of what), then every other key as it comes (its work)
BEST_FIRST = ("best", "mean", "score")
NAMES = {"mean": "best's mean win chance", "score": "best's score", "visits": "best's visits"}


def _fields(info):
    """A report's fields as the line shows them ("key value"), the best
    move's first (BEST_FIRST, NAMES): the fields a narrow terminal leaves
    out, from the last, are the search's counts, not what it thinks of
    its best move."""
    keys = [k for k in BEST_FIRST if k in info] + [k for k in info if k not in BEST_FIRST]
    return [f"{NAMES.get(k, k)} {_signed(info[k]) if k == 'score' else _fmt(info[k])}" for k in keys]


def _signed(value):
    """A score as analyze shows it: its sign always (+3, -1.5, 0)."""
    if isinstance(value, (int, float)) and not isinstance(value, bool) and value:
        return ("+" if value > 0 else "") + _fmt(value)
    return _fmt(value)


def _fmt(value):
    if isinstance(value, float):
        return f"{value:.3g}" if abs(value) < 1000 else f"{value:,.0f}"
    if isinstance(value, int) and abs(value) >= 10000:
        return f"{value:,}"
    return str(value)


def progress_for(label, enabled=None):
    """A ProgressLine when stderr is a terminal (or `enabled`), else None."""
    if enabled is None:
        enabled = sys.stderr.isatty()
    return ProgressLine(label) if enabled else None
