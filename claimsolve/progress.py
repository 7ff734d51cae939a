"""Progress lines on a terminal: standard error only, and only when it is a
terminal (cli.md).  Long work takes `progress=` callables; this makes them."""
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

    def __call__(self, info):
        now = time.monotonic()
        if now - self._last < self.interval:
            return
        self._last = now
        text = info if isinstance(info, str) else "  ".join(f"{k} {_fmt(v)}" for k, v in info.items())
        line = f"{self.label}: {text}"
        width = 100
        self.stream.write("\r" + line[:width].ljust(width))
        self.stream.flush()
        self._shown = True

    def close(self):
        if self._shown:
            self.stream.write("\r" + " " * 100 + "\r")
            self.stream.flush()
            self._shown = False

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


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
