"""Counts in words, singular or plural as the count asks: "1 point",
"2 points", "1,024 moves", "0 inaccuracies".  A leaf module: it imports
nothing of claimsolve."""


def counted(n, word, plural=None, grouped=True):
    """`n` and `word`, in the plural unless `n` is 1 (`plural`, else `word`
    + "s"); `grouped`: thousands separated by commas (1,024)."""
    number = f"{n:,}" if grouped else str(n)
    return f"{number} {word if n == 1 else plural or word + 's'}"


def plural(n, word, plural_form=None):
    """`word` alone, in the plural unless `n` is 1."""
    return word if n == 1 else plural_form or word + "s"
