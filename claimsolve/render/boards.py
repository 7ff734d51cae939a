"""Boards with answers drawn on them: `analyze --svg`.

The board is the game's own picture (its drawing module, named by the game's
descriptor `render`); each suggested move is drawn on it by that module's
`move_marks`, ranked: the best in magenta and heavier, the others in slate,
fainter by rank, each with a label "rank: score" placed clear of the other
labels and of the board's pieces (its geometry's keep_clear) where a free
spot is near; a score an earlier label says already is written as the rank
alone, in a small ring.  A panel beside the board lists the moves with
their scores and says what the scores measure, and the game's key
(analysis_key: Claim's crosses are the best turn's captures).
"""
import re

from ..analysis import answer_labels
from ..catalog import game_of
from ..words import counted
from . import svg as S
from .style import COMMON
from .text import proof_text, result_line, score_text

PAGE = COMMON["page"]


def board_svg(position):
    """The position's board as an SVG document (what `show --svg` writes)."""
    return position.svg()


def analysis_svg(position, result, top=None):
    """The board of `position` with the suggestions of `result` drawn on it,
    as an SVG document (str).

    `result` is what claimsolve.analyze returns (an Analysis) or its
    SearchResult; `top` draws only the first `top` suggestions (all by
    default).  Every suggestion is a <g class="suggestion"> with data-rank,
    data-move and data-score and a <title> in words; the best one's class is
    "suggestion best"; its label is a <g class="score-label">.  A game over
    draws the board and says so."""
    search = getattr(result, "result", result)
    suggestions = list(search.suggestions)
    if top is not None:
        suggestions = suggestions[:top]
    game = game_of(position)
    drawing = game.drawing()
    scores = [score_text(search.engine, s) for s in suggestions]
    details = [_detail(search.engine, s) for s in suggestions]
    moves = [s.move for s in suggestions]
    if drawing is not None:
        canvas, geometry = drawing.board(position, moves)
    else:
        canvas, geometry = _foreign_board(position), None
    board_width = canvas.width

    groups, labels = [], []
    drawn = []
    for rank, move in enumerate(moves, 1):
        if geometry is None:
            drawn.append(([], []))
            continue
        colour, width, opacity = S.style(rank)
        drawn.append(drawing.move_marks(position, geometry, move, colour, width, opacity, rank=rank))
    # a label goes by the part of its move that is its own: of the places its
    # move offers, the one the fewest other moves offer too
    shared = {}
    for _elements, anchors in drawn:
        for anchor in set(_key(a) for a in anchors):
            shared[anchor] = shared.get(anchor, 0) + 1
    placer = S.Labels(geometry.bounds, getattr(geometry, "keep_clear", ())) if geometry is not None else None
    for rank, (move, score, (elements, anchors)) in enumerate(zip(moves, scores, drawn), 1):
        colour, _width, _opacity = S.style(rank)
        best = rank == 1
        words = (f"{rank}. {move}: score {score}" + (f" ({details[rank - 1]})" if details[rank - 1] else "")
                 + (" (the best)" if best else ""))
        attributes = (f'class="suggestion{" best" if best else ""}" data-rank="{rank}" '
                      f'data-move="{S.escape(move)}" data-score="{S.escape(score)}"')
        groups.append(f"<g {attributes}><title>{S.escape(words)}</title>\n" + "\n".join(elements) + "\n</g>")
        if placer is not None:
            # (or, where it has no free spot near, by another of its places)
            ordered = sorted(anchors, key=lambda a: shared[_key(a)])
            anchor = ordered[0]
            prefer = anchor[2:4] if len(anchor) == 4 else (0, -1)
            alternatives = [(a[0], a[1], a[2:4] if len(a) == 4 else (0, -1)) for a in ordered[1:]]
            # a score an earlier label already says: the rank alone, in a small ring (five "+940"
            # labels buried a Claim territory under them); the panel says so
            same = score in scores[:rank - 1]
            label = placer.place(anchor[0], anchor[1], f"{rank}" if same else f"{rank}: {score}", colour, best,
                                 prefer=prefer, badge=same, alternatives=alternatives)
            labels.append(f'<g class="score-label" data-rank="{rank}"><title>{S.escape(words)}</title>\n'
                          f"{label}\n</g>")
    # the worst first, so that the best is drawn on top; labels over every mark
    canvas.extend(reversed(groups))
    canvas.extend(getattr(geometry, "above_marks", list)())     # Claim: the pieces arrows jump over
    canvas.extend(reversed(labels))

    # the panel: the moves in words, and what the scores are
    x = board_width + 12
    if position.is_over():
        # the result, as the text says it ("Game over: player 1 wins (6-4)."; it said "The game is over.")
        said = result_line(position)
        heading, note = "The game is over.", [] if said is None else _wrap(f"Game over: {said}.", 46)
    else:
        heading = f"Player {position.player_to_move} to move: {len(moves)} suggestion{'s' * (len(moves) != 1)}"
        # the text's labels (answer_labels): its order sentence, what proofs
        # do to it, and its notes; not the one that compares the odds table,
        # which the picture does not draw
        answer = answer_labels(search, game, sides=len(position.teams()))
        note = _wrap(f"Engine: {answer['method']} ({answer['scores']}).", 46)
        if answer["order"]:
            note += _wrap(answer["order"], 46)
        note += _wrap(f"{counted(search.nodes, 'node')} in {search.seconds:.2f} s"
                      + ("" if search.complete else "; interrupted" if search.info.get("interrupted")
                         else "; budget reached") + ".", 46)
        for words in answer["notes"]:
            note += _wrap(f"Note: {words}.", 46)
        for words in _same_scores(moves, scores) if geometry is not None else ():
            note += _wrap(words, 46)
        # what the game's marks mean where they could be misread (Claim: whose captures the crosses are)
        key = getattr(drawing, "analysis_key", None) if geometry is not None else None
        for words in (key(position, moves) if key is not None else ()):
            note += _wrap(words, 46)
    elements, bottom = S.panel(x, 34, heading, list(zip(range(1, len(moves) + 1), moves, scores, details)), note)
    canvas.width = board_width + S.PANEL_WIDTH + 24
    canvas.height = max(canvas.height, bottom + 20)
    canvas.elements.insert(0, f'<rect x="0" y="0" width="{S.num(canvas.width)}" height="{S.num(canvas.height)}" '
                              f'fill="{PAGE}"/>')
    canvas.extend(elements)
    if suggestions:
        canvas.title = (f"{game.title}: player {position.player_to_move} to move; best {moves[0]} "
                        f"(score {scores[0]}) of {len(moves)} suggestion{'s' * (len(moves) != 1)}")
        canvas.desc = "; ".join(f"{rank}. {move} {score}" + (f" ({detail})" if detail else "")
                                for rank, move, score, detail in zip(range(1, len(moves) + 1), moves, scores, details))
    else:
        canvas.title = f"{game.title}: " + ("the game is over" if position.is_over() else "no suggestions")
    return canvas.document()


def _same_scores(moves, scores):
    """The sentences that say which suggestions' labels on the board are
    their rank alone: those whose score an earlier one's label says."""
    out = []
    for score in dict.fromkeys(scores):
        ranks = [rank for rank, s in enumerate(scores, 1) if s == score]
        if len(ranks) > 1:
            rest = [str(rank) for rank in ranks[1:]]
            listed = rest[0] if len(rest) == 1 else ", ".join(rest[:-1]) + " and " + rest[-1]
            out.append(f"On the board, {'ranks' if len(rest) > 1 else 'rank'} {listed} "
                       f"{'score' if len(rest) > 1 else 'scores'} {score} as {ranks[0]} does: "
                       f"{'their labels are their ranks' if len(rest) > 1 else 'its label is its rank'} alone.")
    return out


def _detail(engine, s):
    """What says how sure a score is, as the text's table does: an MCTS
    mean's visits and 95% interval ("45 visits, 95% CI 0.521-0.786"), and
    whatever is proven of the move ("proven win (=+2)", "proven <=0")."""
    parts = []
    if engine == "mcts" and s.visits is not None:
        interval = s.extra.get("ci95")
        parts.append(counted(s.visits, "visit") + (f", 95% CI {interval[0]:.3f}-{interval[1]:.3f}" if interval else ""))
    proof = proof_text(s)
    if proof and not (engine == "solver" and proof == "exact"):
        parts.append(proof)
    return "; ".join(parts)


def _key(anchor):
    return (round(anchor[0]), round(anchor[1]))


def _foreign_board(position):
    """A game without a drawing module: its own svg() nested as it is."""
    document = position.svg()
    size = re.search(r'<svg\b[^>]*?\bwidth="([0-9.]+)"[^>]*?\bheight="([0-9.]+)"', document)
    width, height = (float(size.group(1)), float(size.group(2))) if size else (480.0, 480.0)
    canvas = S.Canvas(width, height, position.game)
    canvas.add(re.sub(r"^<\?xml[^>]*>\s*", "", document.strip()))
    return canvas


def _wrap(text, width):
    lines, line = [], ""
    for word in text.split():
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    return lines + ([line] if line else [])
