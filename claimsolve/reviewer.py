"""`claimsolve review`: every move of a recorded game graded, as players do
on lichess after a game (docs/review.md).

Every position of the game's main line is analysed once, on the machine's
cores, by its game's review kit (the descriptor's `review`: a module with
`evaluate`, `final`, `UNIT`, `THRESHOLDS`, ..., or a `profile` of them
for each of its objectives).  For the move played at
ply k by seat P:

- `best`: the engine's move in the position before it, and `line` the
  engine's line from there (the kit's search's principal variation, `best`
  first, at most LINE_PLIES moves; none where the search gives none: a
  forced move, a line that would run into the dice);
- `before`: the value for P of the position before the move, with the best
  move played (the kit's analysis of that position);
- `after`: the value for P of the move played: the kit's own value of it
  where its analysis gives it (Claim It!'s turn optimum, every move's;
  Claim's MCTS, a proven turn's), else the
  analysis of the position after the move, seen from P;
- `loss` = before - after, at least 0, in the game's units; the `grade`
  from the kit's thresholds (best: the engine's move, or one proven, or valued beside it, to lose
  nothing), on the loss as shown (rounded to the digits shown);
- `exact` where the values it rests on are proven (the solver, the turn
  optimum finished).

A position the kit does not analyse (its evaluation "from_next": Claim's
forced turn) takes the values of the position after it.

Games with dice add each roll's `luck`: the value after the roll minus the
mean over the 216 rolls (the kit's `luck`), so that a player's result
splits into what the dice gave and what the decisions lost.

    review = claimsolve.review(claimsolve.load_game("game.jsonl"), time=0.5)
    review.to_json()["moves"][0]      # {"ply": 1, "move": ..., "loss": ..., "grade": ...}
"""
import functools
import importlib
import multiprocessing
import signal
import time as _time
from dataclasses import dataclass, field

from . import limits
from .catalog import get_game
from .errors import ClaimsolveError, Interrupted
from .search.alphabeta import default_threads

GRADES = ("best", "good", "inaccuracy", "mistake", "blunder")
LINE_PLIES = 8          # the most moves of a graded move's `line` (the engine's line from the position before)


def line_of(best, pv, plies=LINE_PLIES):
    """A position's `line`: the search's principal variation `pv` (move
    strings) where it starts with the search's `best` move, cut to `plies`
    moves; else the best move alone; [] where there is none.  Nothing is
    added to what the search gave (a line that stops early stays short)."""
    if best is None:
        return []
    pv = list(pv or [])
    return pv[:plies] if pv[:1] == [best] else [best]


def kit_of(game_id):
    """The review kit of a game (its descriptor's `review` module)."""
    descriptor = get_game(game_id)
    if descriptor.review is None:
        raise ClaimsolveError(f"review: no review for game '{game_id}'")
    return importlib.import_module(descriptor.review)


def grade_of(loss, thresholds, engines_move, exact=False):
    """The grade of a move losing `loss` (the game's units): "best" for the
    engine's own move, or a move proven to lose nothing, else by the
    thresholds ({"inaccuracy", "mistake", "blunder"}: the least loss of
    each; "good" below them all)."""
    if engines_move or (exact and loss <= 0):
        return "best"
    if loss >= thresholds["blunder"]:
        return "blunder"
    if loss >= thresholds["mistake"]:
        return "mistake"
    if loss >= thresholds["inaccuracy"]:
        return "inaccuracy"
    return "good"


@dataclass
class ReviewedMove:
    ply: int              # 1 for the game's first move
    seat: int             # who played it
    move: str
    best: str             # the engine's move (None where the position had no analysis)
    before: float         # the mover's value with the best move
    after: float          # the mover's value with the move played
    loss: float
    grade: str
    exact: bool
    forced: bool = False  # the only legal move
    luck: float = None    # games with dice, at a roll: what the dice gave
    method: str = None    # what analysed the position
    line: list = None     # the engine's line from the position before, `best` first (None or []: none)

    def to_json(self, digits):
        out = {"ply": self.ply, "seat": self.seat, "move": self.move, "best": self.best,
               "before": _round(self.before, digits), "after": _round(self.after, digits),
               "loss": _round(self.loss, digits), "grade": self.grade, "exact": self.exact}
        if self.forced:
            out["forced"] = True
        if self.luck is not None:
            out["luck"] = _round(self.luck, digits)
        if self.method:
            out["method"] = self.method
        if self.line:
            out["line"] = list(self.line)
        return out


@dataclass
class Review:
    game: str
    unit: str                       # what the values measure, in words
    thresholds: dict
    players: list                   # who played each seat (None where unknown)
    moves: list                     # [ReviewedMove], in order
    evals: list                     # per ply 0..n: every seat's value there (the graph)
    time_per_move: float
    workers: int
    seconds: float = 0.0
    digits: int = 3
    luck: bool = False              # a game with dice: luck at its rolls
    graph: str = "chance"           # what the values are: "margin", "chance" (0..1) or "counts"
    sides: int = 2                  # teams of the game (a margin or chance of two sides mirror)
    interrupted: bool = False
    notes: list = field(default_factory=list)
    options: dict = field(default_factory=dict)   # what the kit was asked ({"objective": "win"}), or {}
    evals_exact: list = field(default_factory=list)   # per ply of `evals`: whether its position's value is proven

    def summary(self):
        """Per seat: its moves (forced ones apart), the mean and total loss,
        the count of each grade, the exact ones; with dice the luck and the
        decisions' share of the result.  The sums are of the values as shown
        (to `digits`), so that a total is its column's sum, and a review
        reloaded from its record (which keeps them so) says the same: summed
        unrounded, a live review's 3.383 was 3.381 reloaded."""
        out = []
        shown = functools.partial(_round, digits=self.digits)
        for seat in range(1, len(self.players) + 1):
            mine = [m for m in self.moves if m.seat == seat]
            chosen = [m for m in mine if not m.forced]
            total = sum(shown(m.loss) for m in chosen)
            entry = {"seat": seat, "player": self.players[seat - 1], "moves": len(chosen),
                     "forced": len(mine) - len(chosen),
                     "mean_loss": _round(total / len(chosen), self.digits) if chosen else 0.0,
                     "total_loss": _round(total, self.digits),
                     "grades": {grade: sum(1 for m in chosen if m.grade == grade) for grade in GRADES},
                     "exact": sum(1 for m in mine if m.exact)}
            if self.luck:
                luck = sum(shown(m.luck) for m in mine if m.luck is not None)
                entry["luck"] = _round(luck, self.digits)
                entry["decisions"] = _round(-total, self.digits)
                ends = self._ends(seat)
                if ends is not None:
                    # what neither his dice nor his decisions account for: the
                    # other seats' turns, and each position's search valuing
                    # anew what the one before valued (deeper, or cut elsewhere)
                    ends = [shown(v) for v in ends]
                    entry["start"], entry["end"] = ends
                    entry["rest"] = _round(ends[1] - ends[0] - luck + total, self.digits)
            out.append(entry)
        return out

    def _ends(self, seat):
        """The seat's value at the game's first ply and at the last one
        reviewed (the graph's), or None where either is missing."""
        if len(self.evals) != len(self.moves) + 1 or not self.moves:
            return None
        first, last = self.evals[0][seat - 1], self.evals[-1][seat - 1]
        return None if first is None or last is None else (first, last)

    def mirrored(self):
        """Whether the seats' values mirror each other, so that player 1's
        line alone draws them (docs/review.md): a margin or a win chance of
        two sides whose two values add up to 0 (a margin) or 1 (a chance) at
        every ply, within the rounding shown.  Claim It!'s win chance by the
        net does not (the mover's line is his value with the rest of his
        turn, the other's the net's at its start: 0.473 and 0.426 at its first
        ply): each seat has its line."""
        if self.graph not in ("margin", "chance") or self.sides != 2:
            return False
        whole = 1.0 if self.graph == "chance" else 0.0
        tolerance = 10.0 ** -self.digits
        return all(len(row) != 2 or None in row or abs(row[0] + row[1] - whole) <= tolerance
                   for row in self.evals)

    def to_json(self):
        out = {"game": self.game, "unit": self.unit, "thresholds": self.thresholds,
               "time_per_move": self.time_per_move, "workers": self.workers,
               "moves": [m.to_json(self.digits) for m in self.moves],
               "summary": self.summary(),
               "evals": [[_round(v, self.digits) for v in row] for row in self.evals],
               "evals_exact": list(self.evals_exact),
               "exact_moves": sum(1 for m in self.moves if m.exact),
               "seconds": round(self.seconds, 2), "notes": list(self.notes)}
        out.update(self.options)
        if self.interrupted:
            out["interrupted"] = True
        return out


def _round(value, digits):
    if value is None:
        return None
    value = round(float(value), digits)
    return int(value) if digits == 0 else value + 0.0


# --- the analysis of every position, on the cores --------------------------------------

def checked_options(record, objective=None, option="objective"):
    """The kit's options of a review of `record`: {"objective": ...} where
    one is given, or where the kit has a default for the game.  Refuses
    in one line, naming it `option` (the command line's "--objective"),
    an objective the game does not take, or one it cannot serve for this
    game (Claim It!'s "win" without weights for its seat count)."""
    kit = kit_of(record.game)
    options = {}
    if objective is not None:
        choices = getattr(kit, "OBJECTIVES", None)
        if choices is None:
            raise ClaimsolveError(f"option '{option}': {record.game} has one measure of a move (it is for the "
                                  "games whose turn optimum has objectives: claimit)")
        options["objective"] = limits.choice(objective, option, choices)
    elif hasattr(kit, "default_objective"):
        options["objective"] = kit.default_objective(record.start)
    try:
        profile_of(kit, record.start, options)
    except ClaimsolveError as exc:           # what the objective cannot do for this game
        raise ClaimsolveError(f"option '{option}': {exc.message}") from None
    return options


def objectives_of(game_id):
    """The objectives a review of the game can take (its kit's
    `objective_choices()`: [{"id", "label", "players", "default"}]), or
    [] where a move has one measure."""
    kit = kit_of(game_id) if get_game(game_id).review is not None else None
    return kit.objective_choices() if hasattr(kit, "objective_choices") else []


def profile_of(kit, start, options):
    """What a review shows of its values: {"unit", "thresholds", "notes",
    "graph"}, the kit's for these options (`profile`, where its values
    change with them: Claim It!'s objectives), else its constants."""
    if hasattr(kit, "profile"):
        return kit.profile(start, **options)
    return {"unit": kit.UNIT, "thresholds": dict(kit.THRESHOLDS), "notes": list(getattr(kit, "NOTES", ())),
            "graph": kit.GRAPH}


def _evaluate(job):
    """A worker's job: the kit's evaluation of each (position, move) of a
    group of consecutive positions (Claim It!: one turn, so that the turn
    optimum's memo serves all its decisions)."""
    game, items, seconds, seed, options = job
    kit = kit_of(game)
    out = []
    for index, position, move in items:
        if position.is_over():
            out.append((index, kit.final(position, **options)))
        else:
            out.append((index, kit.evaluate(position, move, seconds, limits.fold_seed(seed * 1000003 + index),
                                            **options)))
    return out


def _groups(kit, positions, moves):
    """Consecutive positions analysed by one worker: a whole turn where the
    kit asks for it (GROUP_TURNS), else one position each."""
    items = [(i, positions[i], moves[i] if i < len(moves) else None) for i in range(len(positions))]
    if not getattr(kit, "GROUP_TURNS", False):
        return [[item] for item in items]
    groups = []
    for item in items:
        if groups and groups[-1][-1][1].player_to_move == item[1].player_to_move and not item[1].is_over():
            groups[-1].append(item)
        else:
            groups.append([item])
    return groups


def _ignore_sigint():
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _analyse(game, groups, seconds, seed, options, workers, on_done):
    """Runs the groups on `workers` processes (one: in this process), calling
    on_done(index, evaluation) for each position as its group finishes, in
    the game's order.  Ctrl-C stops the workers at once."""
    jobs = [(game, group, seconds, seed, options) for group in groups]
    if workers == 1:
        for job in jobs:
            for index, evaluation in _evaluate(job):
                on_done(index, evaluation)
        return
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else None)
    try:
        pool = context.Pool(workers, initializer=_ignore_sigint)
    except OSError as exc:       # its locks are files (/dev/shm): ulimit -f 0, -n, a full /dev/shm
        raise ClaimsolveError(f"cannot start {workers} worker processes: {exc.strerror or exc} "
                              "(--threads 1 reviews in this process)") from None
    try:
        for answers in pool.imap(_evaluate, jobs, chunksize=1):
            for index, evaluation in answers:
                on_done(index, evaluation)
        pool.close()
    except BaseException:
        pool.terminate()
        raise
    finally:
        pool.join()


# --- the review ------------------------------------------------------------------------

def review(record, time=None, workers=None, progress=None, seed=0, objective=None):
    """The Review of a GameRecord (claimsolve.records): `time` seconds of
    analysis a position (None: the game's DEFAULT_TIME), on `workers`
    processes (None: the machine's cores, at most 2); `objective`: what
    values a Claim It! decision (the turn optimum's "win": the learned
    chance of winning, the default where weights are shipped for the seat
    count; "secured", the default elsewhere; or "held").  `progress(info)` is called as each move is graded
    ({"done", "total", "move": the entry}).  Ctrl-C raises Interrupted
    whose `partial` is the Review of the moves graded so far."""
    started = _time.monotonic()
    kit = kit_of(record.game)
    options = checked_options(record, objective)
    seconds = kit.DEFAULT_TIME if time is None else limits.seconds(time, "time")
    workers = default_threads() if workers is None else limits.threads(workers, "workers")
    limits.seed(seed, "seed")
    positions = record.positions()
    moves = record.mainline()
    players = record.players or [None] * record.start.num_players
    shown = profile_of(kit, record.start, options)       # (checked above: it refuses nothing now)
    result = Review(game=record.game, unit=shown["unit"], thresholds=shown["thresholds"], players=list(players),
                    moves=[], evals=[], time_per_move=seconds, workers=workers, digits=kit.DIGITS,
                    luck=getattr(kit, "HAS_LUCK", False), graph=shown["graph"], sides=len(record.start.teams()),
                    options=dict(options))
    evaluations = [None] * len(positions)
    graded = [0]

    checked = set()

    def settle(j):
        """Position j's proof check, once (its values and the next's known):
        where a move's loss would set an estimate against a proof, the kit
        searches the estimated position for a proof of its own; forced
        positions before it that took its values take them again."""
        if j in checked:
            return
        checked.add(j)
        before = None
        if j > 0 and not evaluations[j - 1].get("forced"):
            before = (positions[j - 1], moves[j - 1], evaluations[j - 1])
        last = j == len(moves)          # the game's last position: no move of its own
        if _proof_wanted(kit, positions[j], None if last else moves[j], evaluations[j],
                         None if last else evaluations[j + 1], before):
            proven = kit.prove(positions[j], seconds)
            if proven is not None:
                evaluations[j] = dict(evaluations[j], **proven)
                _retake_from_next(evaluations, positions, j)

    def ready(k):
        """Whether move k can be graded: the positions before and after it
        analysed, and the proof check done of the first position after it
        that is searched (a forced run takes that one's values), so that a
        move is graded, and streamed, once only."""
        if not (_valued(evaluations[k]) and _valued(evaluations[k + 1])):
            return False
        j = k + 1
        while j < len(moves) and evaluations[j] is not None and evaluations[j].get("forced"):
            j += 1
        if j < len(moves) and not _valued(evaluations[j + 1]):
            return False
        settle(k)                       # the first move's position (the others': as j of the move before)
        settle(j)
        return True

    def on_done(index, evaluation):
        evaluations[index] = evaluation
        _take_from_next(evaluations, positions)
        while graded[0] < len(moves) and ready(graded[0]):
            k = graded[0]
            entry = _grade(kit, result.thresholds, result.digits, positions[k], moves[k], positions[k + 1],
                           evaluations[k], evaluations[k + 1], k + 1)
            result.moves.append(entry)
            graded[0] += 1
            if progress is not None:
                progress({"done": graded[0], "total": len(moves), "move": entry.to_json(result.digits)})

    try:
        _analyse(record.game, _groups(kit, positions, moves), seconds, seed, options, workers, on_done)
    except KeyboardInterrupt:
        result.interrupted = True
        shown_plies = [i for i in range(graded[0] + 1) if _valued(evaluations[i])]
        result.evals = [kit.graph(positions[i], evaluations[i]) for i in shown_plies]
        result.evals_exact = [bool(evaluations[i]["exact"]) for i in shown_plies]
        result.seconds = _time.monotonic() - started
        raise Interrupted(result) from None
    result.evals = [kit.graph(position, evaluation) for position, evaluation in zip(positions, evaluations)]
    result.evals_exact = [bool(evaluation["exact"]) for evaluation in evaluations]
    result.notes = list(shown["notes"])
    if not all(move.exact for move in result.moves):
        result.notes += list(getattr(kit, "UNPROVEN_NOTES", ()))
    result.seconds = _time.monotonic() - started
    return result


def grade_move(position, move, time=None, seed=0, objective=None):
    """The review's grade of one move: `move` (a move string) played in
    `position`, graded as `review` grades a move of a game (the same kit,
    the same analysis of the positions before and after it, the same
    thresholds, the proof check where a loss would set an estimate against
    a proof), at `time` seconds a position (None: the game's DEFAULT_TIME;
    give a review's `time_per_move` to grade on its footing); `objective`
    as review's.  The board's practice of a reviewed game's mistakes
    (docs/board.md) judges a player's new try by it.

    Returns the one-move Review (its `moves[0]` the ReviewedMove, with the
    unit and thresholds of its values), analysed in this process.  Where
    the values are proven (Color Claim's exact solver) the grade is the
    one a review of the whole game gives the same move; where they are
    estimates, two searches may differ as two reviews do (and Claim's
    proof check does not look at the move before `position`, which a
    review of the game does)."""
    from .records import GameRecord
    record = GameRecord.from_moves(position, [move])
    return review(record, time=time, workers=1, seed=seed, objective=objective)


def _proof_wanted(kit, position, move, evaluation, next_evaluation, before=None):
    """Whether a move's loss would set an estimate against a proof, where
    the kit can prove positions (Claim: alpha-beta), so that the estimated
    position is searched for a proof of its own: the position after `move`
    proven and this one (`evaluation`) not, the move not proven by this
    position's own search, the mover's value falling; or, `before` the
    move into this position (its position, move and evaluation), that
    position proven and this one not, the value of the move's mover
    falling (a proven win before, "0.83" after: a mistake that may be
    none)."""
    if not hasattr(kit, "prove") or evaluation["exact"] or evaluation.get("forced"):
        return False
    if next_evaluation is not None and next_evaluation["exact"] and \
            kit.decision(position, move) not in (evaluation.get("moves") or {}):
        if next_evaluation["seats"][position.player_to_move - 1] < evaluation["value"] - 1e-9:
            return True
    if before is not None:
        position_before, move_before, evaluation_before = before
        if evaluation_before["exact"] and \
                kit.decision(position_before, move_before) not in (evaluation_before.get("moves") or {}):
            mover = position_before.player_to_move
            return evaluation["seats"][mover - 1] < evaluation_before["value"] - 1e-9
    return False


def _valued(evaluation):
    return evaluation is not None and not evaluation.get("from_next")


def _take_from_next(evaluations, positions):
    """A position the kit did not analyse ("from_next": a forced move's,
    whose value is the position after it's) takes the values of the next
    position as soon as they are known (a run of forced moves from the last)."""
    for i in range(len(evaluations) - 2, -1, -1):
        here, after = evaluations[i], evaluations[i + 1]
        if here is not None and here.get("from_next") and _valued(after):
            evaluations[i] = _taken(here, after, positions[i])


def _retake_from_next(evaluations, positions, j):
    """The forced positions just before j, which took j's values (a run of
    them from the last), take them again: j's values changed (a proof)."""
    for i in range(j - 1, -1, -1):
        if evaluations[i] is None or not evaluations[i].get("took_next"):
            return
        evaluations[i] = _taken(evaluations[i], evaluations[i + 1], positions[i])


def _taken(here, after, position):
    """A forced position's evaluation `here` with the values of the
    position after it (`after`), the mover's value his seat's."""
    seats = list(after["seats"])
    return dict(here, value=seats[position.player_to_move - 1], seats=seats, exact=after["exact"],
                from_next=False, took_next=True)


def _grade(kit, thresholds, digits, position, move, after_position, evaluation, next_evaluation, ply):
    """The ReviewedMove of `move` from `position` (analysed: `evaluation`) to
    `after_position` (`next_evaluation`), graded by `thresholds` on the loss
    as it is shown (`digits` after the point: a loss shown as 0.050 is an
    inaccuracy where that is the threshold, whatever the digits after)."""
    seat = position.player_to_move
    played = kit.decision(position, move)
    before = evaluation["value"]
    values = evaluation.get("moves")
    same_analysis = values is not None and played in values
    if same_analysis:
        after, exact = values[played], evaluation["exact"]
    else:
        after = next_evaluation["seats"][seat - 1]
        exact = evaluation["exact"] and next_evaluation["exact"]
    engines_move = evaluation["best"] is not None and played == evaluation["best"]
    loss = max(0.0, before - after)
    # a zero loss counts as the engine's move where it is proven, or where the
    # position's own analysis valued both moves alike (Claim It!'s mirror placements)
    if (exact or same_analysis) and loss < 1e-9:
        loss = 0.0
        engines_move = True
    luck = kit.luck(position, move, after_position, evaluation, next_evaluation) if hasattr(kit, "luck") else None
    forced = evaluation.get("forced", False)
    if forced:
        grade = "best"
    elif hasattr(kit, "grade"):
        grade = kit.grade(round(loss, digits), before, after, exact, engines_move)
    else:
        grade = grade_of(round(loss, digits), thresholds, engines_move, exact)
    # the engine's line from the position before, where it is of the best move (a proof that named
    # another best move brings its own line, or none); a forced move has none
    line = [] if forced else _line_of_best(evaluation.get("line"), evaluation["best"])
    return ReviewedMove(ply=ply, seat=seat, move=move, best=evaluation["best"], before=before, after=after,
                        loss=loss, grade=grade, exact=exact, forced=forced, luck=luck, method=evaluation.get("method"),
                        line=line)


def _number(value):
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def saved(record, options):
    """(The Review that a record's grades make (the "eval" of each move of
    its main line: review --save's, the board's Save game's), valued as a
    review with `options` (checked_options) values them, for the board to
    show its graph and summary as after a review, and `mirrored`: whether
    player 1's line alone draws them), or None where a move of the main line
    has no grade with its values (a review stopped), or there are no moves.

    A record keeps the mover's values alone (before and after his move), so
    the graph's value of a position is the next mover's `before` (the
    position's own analysis, as a review draws it; the last: the last
    mover's `after`); where the values mirror (two sides), the other seats'
    follow (a team mate's the same), else they are left unknown (None)."""
    nodes = record.moves
    evals = [node.eval for node in nodes]
    if not nodes or not all(isinstance(e, dict) and isinstance(e.get("grade"), str) and
                            all(_number(e.get(key)) for key in ("before", "after", "loss")) for e in evals):
        return None
    kit = kit_of(record.game)
    shown = profile_of(kit, record.start, options)
    positions = record.positions()
    players = record.players or [None] * record.start.num_players
    teams = record.start.teams()
    result = Review(game=record.game, unit=shown["unit"], thresholds=shown["thresholds"], players=list(players),
                    moves=[], evals=[], time_per_move=0.0, workers=0, digits=kit.DIGITS,
                    luck=any(e.get("luck") is not None for e in evals), graph=shown["graph"], sides=len(teams),
                    notes=list(shown["notes"]), options=dict(options))
    for k, (node, e) in enumerate(zip(nodes, evals)):
        result.moves.append(ReviewedMove(
            ply=k + 1, seat=positions[k].player_to_move, move=node.move, best=e.get("best"), before=e["before"],
            after=e["after"], loss=e["loss"], grade=e["grade"], exact=e.get("exact") is True,
            forced=e.get("forced") is True, luck=e.get("luck") if _number(e.get("luck")) else None,
            method=e.get("method") if isinstance(e.get("method"), str) else None,
            line=_line_of_best(e.get("line"), e.get("best")) or None))
    # Claim It!'s win chance by the net does not mirror, with 2 players too (Review.mirrored)
    mirrored = result.graph in ("margin", "chance") and result.sides == 2 and getattr(kit, "VALUES_MIRROR", True)
    whole = 1.0 if result.graph == "chance" else 0.0
    # every seat's value as saved (review --save, Save game); older records: the movers' values
    result.evals = _saved_rows(evals, record.start.num_players) or \
        _mover_rows(result.moves, teams, record.start.num_players, whole if mirrored else None)
    if not all(m.exact for m in result.moves):
        result.notes += list(getattr(kit, "UNPROVEN_NOTES", ()))
    return result, mirrored


def _mover_rows(moves, teams, seats, whole=None):
    """Each ply's row from the movers' values alone: the next mover's
    `before` (the last: the last mover's `after`); with `whole` (values
    that mirror: 1 for a chance, 0 for a margin) the other seats' follow
    (a team mate's the same), else they are unknown (None)."""
    team = {seat: i for i, members in enumerate(teams) for seat in members}
    rows = []
    for ply in range(len(moves) + 1):
        mover, value = (moves[ply].seat, moves[ply].before) if ply < len(moves) else \
            (moves[ply - 1].seat, moves[ply - 1].after)
        row = [None] * seats
        row[mover - 1] = value
        if whole is not None:
            row = [value if team[seat] == team[mover] else whole - value for seat in range(1, seats + 1)]
        rows.append(row)
    return rows


def _line_of_best(line, best):
    """A move's `line` (a kit's evaluation's, a saved record's) where it is
    of its `best` move, at most LINE_PLIES moves; else []."""
    if not isinstance(line, list) or not line or line[0] != best:
        return []
    return list(line[:LINE_PLIES])


def _saved_rows(evals, seats):
    """Every ply's row of seat values where each move's eval keeps its
    `values` (the row before it) and the last its `values_after`, each a
    list of a number or null a seat; else None (older records: the
    mover's values alone)."""
    rows = [e.get("values") for e in evals] + [evals[-1].get("values_after")]
    if all(isinstance(row, list) and len(row) == seats and all(v is None or _number(v) for v in row)
           for row in rows):
        return [list(row) for row in rows]
    return None


__all__ = ["GRADES", "LINE_PLIES", "Review", "ReviewedMove", "grade_move", "grade_of", "kit_of", "line_of",
           "objectives_of", "review", "saved"]
