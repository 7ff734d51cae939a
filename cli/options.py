"""What the commands of the command line are made with: the command class
whose usage errors name it, the options checked by claimsolve.limits
(`Checked`), the options of a game's start (`GameOption`), --json.  Both
cli/main.py and cli/study.py build their commands with them."""
import json

import click

from claimsolve import limits
from claimsolve.catalog import all_games


class Command(click.Command):
    """A command whose usage errors name it (click leaves the context out of
    some: "option '--size' requires an argument")."""

    def parse_args(self, ctx, args):
        try:
            return super().parse_args(ctx, args)
        except click.UsageError as exc:
            if exc.ctx is None:
                exc.ctx = ctx
            raise


class GameOption(click.Option):
    """An option of a game's start (`new`, `match`): its help ends with what
    each game that takes it says (from the catalog), when help is shown."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.base_help = self.help

    def get_help_record(self, ctx):
        takers = [f"{game.id}: {game.options[self.name]}" for game in all_games() if game.takes(self.name)]
        self.help = f"{self.base_help}; {'; '.join(takers) or 'no game takes it'}."
        return super().get_help_record(ctx)


class Checked(click.ParamType):
    """An option's value checked by claimsolve.limits, the one validation the
    options, the match players' specs and the Python API share: `check(value,
    name)` returns the value or raises ClaimsolveError naming the option."""

    def __init__(self, check, metavar):
        self.check = check
        self.name = metavar

    def convert(self, value, param, ctx):
        return self.check(value, param.opts[0] if param is not None else self.name)


SECONDS = Checked(limits.seconds, "seconds")
SEED = Checked(limits.seed, "seed")
MEGABYTES = Checked(limits.memory_mb, "mb")
PLAYERS = Checked(limits.players, "n")


def json_option(f):
    return click.option("--json", "as_json", is_flag=True, help="Machine-readable output (one JSON document).")(f)


def emit_json(data):
    click.echo(json.dumps(data, indent=2))
