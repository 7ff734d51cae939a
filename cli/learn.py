"""`claimsolve train`: a learned evaluation fitted to a selfplay study
(claimsolve.learn, docs/learning.md); cli/main.py adds it."""
import shlex
import sys

import click

from claimsolve import limits
from claimsolve.cli.options import SEED, Checked, Command, emit_json, json_option

HIDDEN = Checked(lambda value, name: limits.integer(value, name, 0, 1024), "h")
EPOCHS = Checked(lambda value, name: limits.integer(value, name, 1, 100_000), "e")
L2_WEIGHT = Checked(lambda value, name: limits.number(value, name, 0.0, 1.0), "l")
VALUE_WEIGHT = Checked(lambda value, name: limits.number(value, name, 0.0, 1.0), "w")


@click.command(cls=Command)
@click.argument("game")
@click.option("--db", "db", required=True, metavar="FILE", help="The selfplay study (claimsolve study selfplay).")
@click.option("--out", "out", required=True, metavar="WEIGHTS",
              help="The weights file to write (.npz); one that exists is replaced only if it is a weights file.")
@click.option("--hidden", type=HIDDEN, default=16, show_default=True,
              help="Units of the hidden layer (ReLU); 0: a linear model.")
@click.option("--epochs", type=EPOCHS, default=20, show_default=True, help="Passes over the positions.")
@click.option("--seed", type=SEED, default=0, show_default=True,
              help="Seeds the held-out games, the initial weights and the batches' order.")
@click.option("--seats", type=click.Choice(["mover", "all"]), default="mover", show_default=True,
              help="See each position from the seat to move, or from every seat.")
@click.option("--input", "input_", type=click.Choice(["sums", "observation"]), default="sums", show_default=True,
              help="The features: each observation plane's sum and the scalars (weights format 1), or the whole "
                   "observation, for one board size (format 2).")
@click.option("--value-weight", type=VALUE_WEIGHT, default=0.0, show_default=True,
              help="The targets: (1 - W) x the result + W x the search's own value where the study has it.")
@click.option("--classic", is_flag=True,
              help="Add the game's hand-written evaluation of the position as the last feature (format 2).")
@click.option("--l2", type=L2_WEIGHT, default=1e-4, show_default=True, help="The weights' L2 penalty.")
@click.option("--mirror", is_flag=True,
              help="Fit the positions' mirror images too (left-right, top-bottom, both): --input observation, "
                   "games whose rules are symmetric so (colorclaim).")
@click.option("--force", is_flag=True, help="Replace WEIGHTS even when it is not a weights file.")
@json_option
def train(game, db, out, hidden, epochs, seed, seats, input_, value_weight, classic, l2, mirror, force, as_json):
    """Fits a learned evaluation to the games of a selfplay study.  The
    model of the result (each seat's expected points) from the position is
    fitted with numpy; a tenth of the games is held out, and the held-out
    log-loss and accuracy are shown beside a constant's."""
    from claimsolve.catalog import get_game
    from claimsolve.learn.train import text, train as run_train     # deferred: numpy at first use

    get_game(game)
    made_by = " ".join(["claimsolve"] + [shlex.quote(arg) for arg in sys.argv[1:]]) if sys.argv[1:2] == ["train"] \
        else shlex.join(["claimsolve", "train", game, "--db", db, "--out", out, "--hidden", str(hidden),
                         "--epochs", str(epochs), "--seed", str(seed), "--seats", seats])
    report = run_train(game, db, out, hidden=hidden, epochs=epochs, seed=seed, seats=seats, force=force,
                       made_by=made_by, input=input_, value_weight=value_weight, l2=l2,
                       mirror=mirror, classic=classic)
    if as_json:
        emit_json(report)
    else:
        click.echo(text(report))
