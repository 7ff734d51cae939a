"""What the commands of the command line are made with: the command classes
(usage errors naming the command; the games a capability is for in its
help), the options checked by claimsolve.limits (`Checked`), the options
of a game's start (`GameOption`), the files a command writes
(`OUTPUT_FILE`; a picture, `SVG_FILE`; a folder of charts, `SVG_FOLDER`),
--json.  Every command module (cli/positions.py,
analyze.py, ..., study.py) builds its commands with them."""
import json
import os
import stat

import click

from claimsolve import files, limits
from claimsolve.catalog import all_games, ids_where
from claimsolve.errors import ClaimsolveError


class Command(click.Command):
    """A command whose usage errors name it (click leaves the context out of
    some: "option '--size' requires an argument"), and whose pictures
    (--svg) rewrite only a picture: refuse_unless_picture, once every
    option is read."""

    def parse_args(self, ctx, args):
        try:
            rest = super().parse_args(ctx, args)
        except click.UsageError as exc:
            if exc.ctx is None:
                exc.ctx = ctx
            raise
        refuse_unless_picture(ctx)
        return rest


class CapabilityCommand(Command):
    """A command for the games whose descriptor has one capability (solve,
    odds): its help names them (from the catalog)."""

    def __init__(self, *args, capability, **kwargs):
        super().__init__(*args, **kwargs)
        self.capability = capability

    def format_help_text(self, ctx, formatter):
        super().format_help_text(ctx, formatter)
        having = ids_where(lambda game: getattr(game, self.capability) is not None)
        formatter.write_paragraph()
        with formatter.indentation():
            formatter.write_text(f"Games: {', '.join(having) or 'none'}.")


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


def _mode(path, name, value):
    """os.stat(path)'s mode, None where nothing is there; any other failure
    refused as option `name`'s (`value` the path the user gave)."""
    try:
        return os.stat(path).st_mode
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as exc:
        raise ClaimsolveError(f"option '{name}': cannot write: {getattr(exc, 'strerror', None) or exc}",
                              value) from None


def output_file(value, name):
    """A file the command writes (--svg, --save), checked before any work:
    a name, not "-" (standard input where a file is read; no output file is
    standard output), its folder exists and can be written, a file there already may be
    written (not read-only), and it is not a folder or a
    device, pipe or socket (files are written whole, through a temporary
    file renamed into place, which would put a plain file in place of
    /dev/full).  A symbolic link is followed: the file it points to is
    written, the link kept."""
    if not isinstance(value, str) or not value:
        raise ClaimsolveError(f"option '{name}': needs a file name")
    if value == "-":
        raise ClaimsolveError(f"option '{name}': '-' names no file here (it is standard input where a file is "
                              "read, and no output file is standard output); give a file name, ./- for a file "
                              "named -")
    path = os.path.realpath(value) if os.path.islink(value) else value
    mode = _mode(path, name, value)
    if mode is not None and stat.S_ISDIR(mode):
        raise ClaimsolveError(f"option '{name}': is a folder, not a file", value)
    if mode is not None and not stat.S_ISREG(mode):
        raise ClaimsolveError(f"option '{name}': is not a plain file (a device, pipe or socket); "
                              "write to a file", value)
    if mode is not None and files.read_only(path, mode):
        raise ClaimsolveError(f"option '{name}': cannot write: the file is read-only", value)
    folder = os.path.dirname(files.absolute(path, f"option '{name}': "))
    if not os.path.isdir(folder):
        raise ClaimsolveError(f"option '{name}': cannot write: the folder {folder} does not exist", value)
    if not os.access(folder, os.W_OK | os.X_OK):
        raise ClaimsolveError(f"option '{name}': cannot write: the folder {folder} is not writable", value)
    return path


def svg_file(value, name):
    """A picture the command writes (--svg): an output_file, and, once every
    option is read, one that exists must be empty or itself an SVG picture
    to be rewritten (Command.parse_args: refuse_unless_picture)."""
    return output_file(value, name)


# the arguments that name the file a command reads: position_argument's POS
# (cli/framework.py), review's record
READ_FILES = ("pos", "rec")


def refuse_unless_picture(ctx):
    """Every picture option (SVG_FILE) of the command in `ctx` that names a
    file neither empty nor an SVG picture (a study, a game record) is
    refused before any work, never replaced; one that names the file the
    command reads (the position, the record: READ_FILES) or another file it
    writes (--save) is left to the command, whose refusal says which file
    it is (refuse_same_file)."""
    others = [ctx.params.get(param.name) for param in ctx.command.params
              if param.name in READ_FILES or param.type is OUTPUT_FILE]
    others = [other for other in others if isinstance(other, str) and other not in ("", "-")]
    for param in ctx.command.params:
        value = ctx.params.get(param.name)
        if param.type is not SVG_FILE or not value:
            continue
        if any(os.path.exists(other) and same_file(other, value) for other in others):
            continue
        files.refuse_unless_picture(value, f"option '{param.opts[0]}': ")


def svg_folder(value, name):
    """The folder a command draws its charts in (`study report --svg DIR`),
    checked before any work: a folder that exists and can be written, or a
    new one whose parent folder exists and can be written (the charts' folder
    is made, never its parents, as no output file's folder is).  A file
    there (a study, /dev/null) is refused, never replaced."""
    if not isinstance(value, str) or not value:
        raise ClaimsolveError(f"option '{name}': needs a folder name")
    mode = _mode(value, name, value)
    if mode is not None:
        if not stat.S_ISDIR(mode):
            raise ClaimsolveError(f"option '{name}': is not a folder; the charts go in a folder "
                                  "(give a folder's name)", value)
        if not os.access(value, os.W_OK | os.X_OK):
            raise ClaimsolveError(f"option '{name}': cannot write: the folder is not writable", value)
        return value
    folder = os.path.dirname(files.absolute(value, f"option '{name}': ").rstrip(os.sep) or os.sep)
    if not os.path.isdir(folder):
        raise ClaimsolveError(f"option '{name}': cannot make the folder: the folder {folder} does not exist",
                              value)
    if not os.access(folder, os.W_OK | os.X_OK):
        raise ClaimsolveError(f"option '{name}': cannot make the folder: the folder {folder} is not writable",
                              value)
    return value


def same_file(a, b):
    """Whether the paths `a` and `b` name one file: os.path.samefile when both
    exist (a symbolic link or another spelling of the path counts), else the
    same path once resolved (files a command is about to make)."""
    try:
        return os.path.samefile(a, b)
    except (OSError, ValueError):
        pass
    try:
        return os.path.realpath(a) == os.path.realpath(b)
    except (OSError, ValueError):       # a relative path with the working folder deleted
        return os.path.isabs(a) and os.path.isabs(b) and os.path.normpath(a) == os.path.normpath(b)


def refuse_existing(option, output):
    """A file the command makes and must not replace (a game record: `play
    --record`, `review --save`) is refused before any work when it exists
    and is not empty, as `match --save` refuses it.  Called after
    refuse_same_file, whose refusal says more."""
    if output:
        files.refuse_existing(output, f"option '{option}': ")


def refuse_same_file(option, output, pos):
    """A command that reads the position file `pos` and writes `output`
    (--svg, --record) refuses, before any work, when both name one file,
    which the output would replace.  No output, standard input (-) or a
    position file that does not exist: nothing to refuse (the read reports
    a missing one)."""
    if not output or not pos or pos == "-" or not os.path.exists(pos):
        return
    if same_file(output, pos):
        raise ClaimsolveError(f"option '{option}': {output} is the position file this command reads; "
                              "give another file")


OUTPUT_FILE = Checked(output_file, "file")
SVG_FILE = Checked(svg_file, "file")
SVG_FOLDER = Checked(svg_folder, "dir")


def json_option(f):
    return click.option("--json", "as_json", is_flag=True, help="Machine-readable output (one JSON document).")(f)


def emit_json(data):
    click.echo(json.dumps(data, indent=2))
