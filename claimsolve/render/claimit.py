"""Drawing Claim It!: a position as text for a terminal and as SVG, the
odds table as text, and suggested moves drawn on the board
(claimsolve.render.analysis_svg): a placement as a frame around its space
with the marker it places, a roll or a stop as a frame around its button
under the board."""
from .. import prose
from ..claimit import rules
from ..claimit.plans import (PLACEMENT_POLICY, REST_OF_GAME, best_by_decision, named, shown_win, sure_of_best,
                              sureness)
from ..claimit.position import parse_move
from ..claimit.rules import SIZE
from ..stats import signed
from ..words import counted
from . import svg as S
from .style import CLAIMIT
from .svg import escape

# ANSI foreground colours of players 1..5
ANSI = {1: "31", 2: "34", 3: "32", 4: "33", 5: "35"}
# SVG fills of players 1..5: claimsolve.render.style (the page draws with them too)
FILLS = CLAIMIT["player"]
RESET = "\033[0m"
WIDTH = 100           # the notes under the odds table are wrapped at this width when no other is given


def _cell_text(pile):
    return "/".join(pile) if pile else "."


def _paint(pile, text, color):
    if not color or not pile:
        return text
    holder = rules.holder(pile)
    if holder is not None:
        bold = "1;" if rules.is_secured(pile) else ""
        return f"\033[{bold}{ANSI[holder]}m{text}{RESET}"
    if rules.top(pile) == rules.BLACK:
        return f"\033[1;90m{text}{RESET}"
    return f"\033[1;97m{text}{RESET}"


_DECIDERS = ("largest group", "secured spaces", "spaces held")


def result_line(position):
    """Who won a finished game and by what (the largest group, then secured
    spaces, then spaces held: RULES.md), like "player 3 wins: largest group
    6, tied with player 2; secured spaces 11 to 10"."""
    standing = {p: rules.standing(position.board, p) for p in range(1, position.players + 1)}
    level = list(standing)                  # the seats still level before each decider
    for k, name in enumerate(_DECIDERS):
        best = max(standing[p][k] for p in level)
        ahead = [p for p in level if standing[p][k] == best]
        if len(ahead) == 1:
            won, tied = ahead[0], [p for p in level if p != ahead[0]]
            group = standing[won][0]
            if k == 0:
                return f"player {won} wins: largest group {group}, the next {max(standing[p][0] for p in tied)}"
            return (f"player {won} wins: largest group {group}, tied with "
                    f"{' and '.join(f'player {p}' for p in tied)}; {name} {standing[won][k]} to "
                    f"{', '.join(str(standing[p][k]) for p in tied)}")
        level = ahead
    group, secured, held = standing[level[0]]
    return (f"{' and '.join(f'player {p}' for p in level)} share the win: level in largest group ({group}), "
            f"secured spaces ({secured}) and spaces held ({held})")


def render_text(position, color=False):
    """The board (row 1 at the top, as in the JSON), who is to move, the dice,
    and each player's standing."""
    board = position.board
    width = max(5, max(len(_cell_text(p)) for p in board))
    lines = [f"Claim It!  {position.players} players, target {position.target} secured spaces"
             + ("  (variant: release_white)" if position.release_white else "")]
    lines.append("     " + "".join(f"{c:>{width + 1}}" for c in range(1, SIZE + 1)))
    for r in range(1, SIZE + 1):
        cells = []
        for c in range(1, SIZE + 1):
            pile = board[rules.space_index(r, c)]
            text = _cell_text(pile)
            cells.append(" " * (width + 1 - len(text)) + _paint(pile, text, color))
        lines.append(f"  {r:>2} " + "".join(cells))
    lines.append("")
    if position.is_over():
        lines.extend(prose.wrap(f"Game over: {result_line(position)}."))
    else:
        state = (f"dice {' '.join(map(str, position.dice))}: place a marker" if position.dice else
                 "roll or stop" if position.turn_in_progress() else "must roll")
        lines.append(f"Player {position.to_move} to move: {state}.")
        if position.final_round:
            by, left = position.final_round
            lines.extend(prose.wrap(f"Final round (player {by} reached the target): {counted(left, 'turn')} left, "
                                    "this one included."))
    for p in range(1, position.players + 1):
        lines.append(f"  player {p}: {_standing_text(board, p)}")
    if not position.is_over() and position.turn_in_progress() and not position.dice:
        # What this turn's markers become on stopping is what the roll-or-stop
        # decision weighs: the counts above leave his white markers out.
        mover = position.to_move
        lines.append(f"  player {mover} if he stops now: {_standing_text(rules.stop(board, mover), mover)}")
    return "\n".join(lines)


def _standing_text(board, player):
    return (f"{rules.secured_count(board, player)} secured, {rules.held_count(board, player)} held, "
            f"largest group {rules.largest_group(board, player)}")


def _percent_of(result):
    """The best plan's win chance as the table shows it."""
    return f"{100 * max(r['win'] for r in result.rows):.1f}%"


def _disagreement(result, bold):
    """Where the Monte Carlo plans prefer another decision than the one
    recommended (the learned win objective's): what each decision's best
    plan scores there and how sure the plans are of the difference, in
    words; else None."""
    learned = result.recommendation
    theirs_name = result.monte_carlo["recommendation"]
    if theirs_name == learned or result.confidence is None:
        return None
    best = best_by_decision(result.rows)       # each decision's best plan
    theirs, ours = best.get(theirs_name), best.get(learned)
    if theirs is None or ours is None:
        return None

    def scored(row):
        low, high = row["win_ci95"]
        return f"'{row['label']}' wins {100 * row['win']:.1f}% ({100 * low:.1f}-{100 * high:.1f}%)"
    # how sure the plans are of their own choice: that it is the best of every decision (each by its best plan)
    mine, candidates = result.monte_carlo["confidence"], result.candidates
    sure = (f"the plans are {sureness(mine)} that {theirs_name} wins more." if candidates <= 2 else
            f"the plans are {sureness(mine)} that {theirs_name} is the best of the {candidates}.")
    lower = f"{100 * (theirs['win'] - ours['win']):.1f}"
    if float(lower) == 0:
        return f"they find {theirs_name} and {learned} alike: {scored(theirs)}, and {scored(ours)}; {sure}"
    return (f"they disagree, and prefer {bold(theirs_name)}: {scored(theirs)}, where "
            f"{scored(ours)}, {lower} percentage points lower; {sure}")


def overruling(result):
    """Why the plans recommend where the learned win objective chose
    otherwise (OddsResult.overruled), in words: the decision the net
    chose, and what the plans make of the two."""
    o = result.overruled
    best = best_by_decision(result.rows)

    def scored(row):
        low, high = row["win_ci95"]
        return f"{100 * row['win']:.1f}% ({100 * low:.1f}-{100 * high:.1f}%)"
    return (f"The plans overrule the learned win objective's {o['learned']}: they are {sureness(o['confidence'])} "
            f"that it wins less than {o['by']} ({scored(best[o['learned']])} against {scored(best[o['by']])}, "
            f"{100 * o['margin']:.1f} percentage points lower).")


def leading_row(rows):
    """The plan whose win chance stands alone at the top, as shown (to
    0.1%); None where two or more share it (no plan stands out)."""
    top = max(rows, key=lambda r: r["win"])
    return top if [shown_win(r["win"]) for r in rows].count(shown_win(top["win"])) == 1 else None


def render_odds(result, color=False):
    """The table for people: aligned columns, the recommendation, the exact
    turn optimum."""
    bold = (lambda s: f"\033[1m{s}\033[0m") if color else (lambda s: s)
    lines = []

    def said(text, **how):                   # a paragraph of prose, wrapped (claimsolve.prose)
        lines.extend(prose.wrap(text, **how))

    if result.mode == "placement":
        said(f"Player {result.to_move} to move: which placement?  Ranked by win chance (the mean result "
             "of play-outs: this placement, then fixed policies).")
    elif result.mode == "must roll":
        said(f"Player {result.to_move} to move: the turn begins with a roll (stop is not legal yet); "
             "how far to go after it?  The roll busts with "
             f"{result.bust_rolls}/216 = {100 * result.bust_probability:.1f}% (exact).")
    else:
        said(f"Player {result.to_move} to move: roll again or stop?  The next roll busts with "
             f"{result.bust_rolls}/216 = {100 * result.bust_probability:.1f}% (exact).")
    if result.final_round is not None:
        by, left = result.final_round
        said(f"Final round (player {by} reached the target): {counted(left, 'turn')} left, this one included"
             + ("; the last of the game: the win chances are the result of this turn." if left == 1 else "."))
    if result.release_white:
        said("Variant release_white: a black marker put on a white marker sends that white back at once "
             "(its number can be used again this turn).")
    lines.append("")
    width = max(len(r["label"]) for r in result.rows)
    header = f"{'plan':<{width}}  {'survive':>7}  {'+secured':>8}  {'+held':>6}  {'+group':>6}  {'win (95% CI)':>20}"
    lines.append(header)
    lines.append("-" * len(header))
    best_row = leading_row(result.rows)
    for row in result.rows:
        line = (f"{row['label']:<{width}}  {100 * row['survive']:6.1f}%  {row['secured_gain']:8.2f}  "
                f"{row['held_gain']:6.2f}  {row['group_gain']:6.2f}  "
                f"{100 * row['win']:5.1f}% ({100 * row['win_ci95'][0]:4.1f}-{100 * row['win_ci95'][1]:4.1f}%)")
        lines.append(bold(line) if row is best_row else line)
    lines.append("")
    win = result.turn_optimum.get("win")
    learned = result.recommendation if result.recommended_by == result.LEARNED else None
    if win is not None:
        how = (f"exact over the rest of the turn, {win['states']:,} turn states" if win.get("whole_turn") else
               f"at most {counted(win['lower_bound']['rolls'], 'more roll')}, each line cut there valued as a stop; "
               f"{win['reason']}")
        values = ", ".join(f"{m} {v:.3f}" for m, v in win["decisions"].items())
        tied = result.learned_tied
        if learned:
            said(f"Recommendation (learned win objective): {bold(learned)}: {values}")
        elif result.overruled:               # the plans below recommend instead: said there, with why
            said(f"Learned win objective, overruled by the plans: {values}")
        elif tied:                           # no choice: said so, not headed "Recommendation"
            others = ", ".join(f"{m} {v:.3f}" for m, v in win["decisions"].items() if m not in tied)
            said(f"Learned win objective, no choice: {named(tied)} tie at "
                 f"{win['decisions'][tied[0]]:.3f}, to the 3 decimals shown"
                 + (f" (then {others})" if others else ""), fallback=WIDTH)
        else:
            said(f"Learned win objective: {values}")
        said(f"  player {result.to_move}'s expected points (1 a win, shared on a tie) where the turn ends, as "
             f"the net {win['weights']} estimates them: a model's estimate, not a proven value; {how}",
             hanging="  ", fallback=WIDTH)
        check = "Check, by the Monte Carlo plans above" if learned else "Recommendation, by the Monte Carlo plans above"
        # (where no play-out won, the line below says so: there is nothing to compare)
        disagreement = _disagreement(result, bold) if learned and any(r["win"] for r in result.rows) else None
        if disagreement:
            said(f"{check}: {disagreement}", fallback=WIDTH)
            check = None
    else:
        check = "Recommendation"
    if all(row["win"] == 0 for row in result.rows):
        said(f"No plan above won any of its {result.samples:,} play-outs: player {result.to_move}'s win "
             f"chance is under {100 * max(r['win_ci95'][1] for r in result.rows):.1f}% whatever he does "
             "here.")
    elif check is None:
        pass                                 # said: the plans disagree with the learned objective
    elif result.recommendation is None:      # the plans' best decisions win alike as shown
        said(f"No recommendation: {result.why_no_recommendation}.", fallback=WIDTH)
    elif learned and result.monte_carlo["recommendation"] is None:
        said(f"{check}: the plans' best win alike as shown ({_percent_of(result)} each): they neither "
             "confirm nor contradict it.")
    elif result.margin is None:
        said(f"{check}: {bold(result.recommendation)} (the only choice).")
    else:
        said(f"{check}: {bold(result.recommendation)}: win chance {signed(100 * result.margin, 1)} "
             f"percentage points over '{result.alternative}', "
             f"{sure_of_best(result.confidence, result.candidates)}.")
    if result.overruled and check is not None:
        said(f"  {overruling(result)}", hanging="  ", fallback=WIDTH)
    for objective in ("secured", "held"):
        entry = result.turn_optimum[objective]
        decisions = ", ".join(f"{m} {v:.3f}" for m, v in entry["decisions"].items())
        if entry.get("exact"):
            # no state evaluated: every one the next roll leads to was settled by a bound
            # proving "stop" (or by the memo of this turn's earlier searches)
            how = (f"exact, {counted(entry['states'], 'turn state')} evaluated" if entry["states"] else
                   "exact, no turn state needed evaluating: bounds (or this turn's memo) settled it")
            said(f"Turn optimum, {objective} spaces gained: {entry['value']:.3f} ({how}): {decisions}")
        else:
            said(f"Turn optimum, {objective} spaces gained: not exact ({entry['reason']})")
            said("  Monte Carlo, best plan of this table: " + ", ".join(
                 f"{m} {v:.3f}" for m, v in entry["monte_carlo"]["decisions"].items()))
            bound = entry.get("lower_bound")
            if bound:
                said(f"  at least (exact, best play with at most {counted(bound['rolls'], 'more roll')}): "
                     + ", ".join(f"{m} {v:.3f}" for m, v in bound["decisions"].items()))
    lines.append("")
    for note in ("Columns: survive, the chance the turn ends without a bust; +secured, +held, +group, the "
                 "spaces this turn secures, the spaces it adds to those held, and what it adds to the largest "
                 "group (means over the play-outs, a bust counting 0); win, the chance of winning the game.",
                 f"Placements inside plans: {PLACEMENT_POLICY}.",
                 f"Win chances: the rest of the game played out {result.samples:,} times per row "
                 f"(seed {result.seed})"
                 + (f", of {result.asked:,} asked: the time budget cut them short, so another run with the "
                    "same seed and budget may play more and differ"
                    if result.asked is not None and result.samples < result.asked else "")
                 + f"; {REST_OF_GAME}.  {result.seconds:.2f} s."):
        said(note, fallback=WIDTH)
    return "\n".join(lines)


def render_svg(position):
    """Each space a square; its pile drawn bottom to top: colour markers as
    discs, black markers as dark squares, white markers as numbered discs."""
    return board(position)[0].document()


DECISIONS = ("roll", "stop")
BUTTON_W, BUTTON_H = 96, 34


def layout(position, where="svg"):
    """Where everything sits in the picture of the board, in pixels: the one
    rule that `show --svg` (where="svg") and the analysis board's page
    (where="page", served at POST /api/layout) both place the board by, with
    the sizes of claimsolve.render.style (CLAIMIT; the page's picture has
    the dice and the standing beside the board, CLAIMIT["page"]).  The board
    is always 6 x 6: `position` changes nothing but the height of the page's
    narrow picture (its players' standing).  A JSON-ready dict:

      width, height   the picture's size (the svg's grows under the board
                      when it draws the roll and stop buttons: board())
      side            the board's square picture, its side
      cell            a space's side
      columns, rows   the left edge of each column's spaces (column 1
                      first) and the top edge of each row's (row 1 first)
      column_labels, row_labels   [{x, y, text}]: the dice numbers above
                      the board and left of it
      panel           (the page) [x, y]: where the dice and the standing
                      beside the board begin, level with the board's top
      standing        (the page) [x, y]: where the players' standing begins
      narrow          (the page) the picture for a frame narrower than
                      `below` CSS px (a phone): its width (the board's),
                      height, panel (the dice) and standing, under the board
    """
    cell, margin, size = CLAIMIT["cell"], CLAIMIT["margin"], CLAIMIT["size"]
    side = margin * 2 + cell * size
    width, height = side, side + 30
    panel = {}
    if where == "page":
        page = CLAIMIT["page"]
        width, height = side + page["panel"], side + page["bottom"]
        under = side - 8
        panel = {"panel": [side + 4, margin], "standing": [side + 4, margin + 90],
                 "narrow": {"below": page["narrow"], "width": side, "panel": [margin, under],
                            "standing": [side // 2 - 10, under + 8],
                            "height": under + 8 + page["standing"] * position.players + 30}}
    return {
        "width": width, "height": height, "side": side, "cell": cell, **panel,
        "columns": [margin + (c - 1) * cell for c in range(1, size + 1)],
        "rows": [margin + (r - 1) * cell for r in range(1, size + 1)],
        "column_labels": [{"x": margin + (i - 0.5) * cell, "y": margin - 10, "text": str(i)}
                          for i in range(1, size + 1)],
        "row_labels": [{"x": margin - 14, "y": margin + (i - 0.5) * cell + 5, "text": str(i)}
                       for i in range(1, size + 1)],
    }


class Geometry:
    """Where the board lies in its picture (its layout), and the roll and
    stop buttons (drawn when a suggestion is one of them)."""

    def __init__(self, layout, buttons_y=None):
        self.layout, self.cell, self.buttons_y = layout, layout["cell"], buttons_y

    def centre(self, r, c):
        return self.layout["columns"][c - 1] + self.cell / 2, self.layout["rows"][r - 1] + self.cell / 2

    def button(self, decision):
        """The centre of the button of `decision` ("roll" or "stop")."""
        index = DECISIONS.index(decision)
        return self.layout["columns"][0] + BUTTON_W / 2 + index * (BUTTON_W + 24), self.buttons_y + BUTTON_H / 2

    @property
    def bounds(self):
        side = self.layout["side"]
        return (4, 4, side - 4, side + (BUTTON_H + 64 if self.buttons_y is not None else 0))


def _decision(move):
    low = move.strip().lower()
    return "roll" if low.startswith("roll") else low if low in DECISIONS else None


def board(position, moves=()):
    """The board drawn on a Canvas (claimsolve.render.svg) and its Geometry;
    with a roll or stop among `moves`, the two buttons under the board."""
    placed = layout(position, "svg")
    cell, size = placed["cell"], placed["side"]
    buttons = any(_decision(move) for move in moves)
    height = placed["height"] + (BUTTON_H + 52 if buttons else 0)
    state = (f"Player {position.to_move} to move" if not position.is_over() else "Game over")
    if position.dice:
        state += ", dice " + " ".join(map(str, position.dice))
    canvas = S.Canvas(size, height, f"Claim It! {position.players} players: {state}")
    out = canvas.elements
    out.append(f'<rect width="{size}" height="{height}" fill="{CLAIMIT["background"]}"/>')
    for column, row in zip(placed["column_labels"], placed["row_labels"]):
        out.append(f'<text x="{column["x"]}" y="{column["y"]}" text-anchor="middle" font-size="14">'
                   f'{column["text"]}</text>')
        out.append(f'<text x="{row["x"]}" y="{row["y"]}" text-anchor="middle" '
                   f'font-size="14">{row["text"]}</text>')
    for r in range(1, SIZE + 1):
        for c in range(1, SIZE + 1):
            x, y = placed["columns"][c - 1], placed["rows"][r - 1]
            out.append(f'<rect x="{x}" y="{y}" width="{cell}" height="{cell}" fill="{CLAIMIT["space"]}" '
                       f'stroke="{CLAIMIT["grid"]}"/>')
            pile = position.board[rules.space_index(r, c)]
            for level, token in enumerate(pile):
                cx = x + cell / 2 + 6 * level - 3 * (len(pile) - 1)
                cy = y + cell / 2 - 6 * level + 3 * (len(pile) - 1) - 4
                out.append(_token_svg(token, cx, cy))
            if len(pile) > 1:
                # the whole pile in words: what lies under the top is hidden
                out.append(f'<text x="{x + cell / 2}" y="{y + cell - 3}" text-anchor="middle" '
                           f'font-size="10" fill="{CLAIMIT["pile_text"]}">{escape("/".join(pile))}</text>')
    out.append(f'<text x="{placed["columns"][0]}" y="{size + 10}" font-size="16">{escape(state)}</text>')
    geometry = Geometry(placed, size + 28 if buttons else None)
    if buttons:
        for decision in DECISIONS:
            x, y = geometry.button(decision)
            out.append(f'<rect x="{S.num(x - BUTTON_W / 2)}" y="{S.num(y - BUTTON_H / 2)}" width="{BUTTON_W}" '
                       f'height="{BUTTON_H}" rx="8" fill="{CLAIMIT["button"]}" stroke="{CLAIMIT["grid"]}"/>')
            out.append(S.text(x, y + 5, decision, size=15, anchor="middle", weight="bold"))
    return canvas, geometry


def move_marks(position, geometry, move, colour, width, opacity, rank=1):
    """The move `move` drawn in `colour`: a placement as a frame around its
    space with a small picture of the marker placed, a roll (its outcome
    too) or a stop as a frame around its button: (SVG elements, the places
    (x, y) its label may go next to)."""
    decision = _decision(move)
    if decision is not None:
        x, y = geometry.button(decision)
        return ([f'<rect class="mark" x="{S.num(x - BUTTON_W / 2 - 4)}" y="{S.num(y - BUTTON_H / 2 - 4)}" '
                 f'width="{BUTTON_W + 8}" height="{BUTTON_H + 8}" rx="10" fill="none" stroke="{colour}" '
                 f'stroke-width="{S.num(width)}" stroke-opacity="{opacity}"/>'], [(x, y + BUTTON_H / 2, 0, 1)])
    _kind, (kind, r, c, n) = parse_move(move)
    x, y = geometry.centre(r, c)
    half = geometry.cell / 2 - 3
    token = rules.BLACK if kind == "B" else rules.white(n)
    ghost = _token_svg(token, x, y, scale=0.8)
    return ([S.square(x, y, half, colour, width, opacity),
             f'<g opacity="{S.num(0.85 * opacity)}">{ghost}</g>'], [(x, y - half)])


def _token_svg(token, cx, cy, scale=1.0):
    if scale != 1.0:
        return (f'<g transform="translate({S.num(cx)},{S.num(cy)}) scale({scale})">'
                f'{_token_svg(token, 0, 0)}</g>')
    if token == rules.BLACK:
        return (f'<rect x="{cx - 16}" y="{cy - 16}" width="32" height="32" rx="4" fill="{CLAIMIT["black"]}" '
                f'stroke="{CLAIMIT["black_stroke"]}"/>')
    if rules.is_white(token):
        return (f'<circle cx="{cx}" cy="{cy}" r="14" fill="{CLAIMIT["white"]}" stroke="{CLAIMIT["marker_stroke"]}"/>'
                f'<text x="{cx}" y="{cy + 5}" text-anchor="middle" font-size="14">{token[1:]}</text>')
    return (f'<circle cx="{cx}" cy="{cy}" r="16" fill="{FILLS[int(token)]}" stroke="{CLAIMIT["marker_stroke"]}"/>'
            f'<text x="{cx}" y="{cy + 5}" text-anchor="middle" font-size="13" '
            f'fill="{CLAIMIT["player_text"]}">{token}</text>')
