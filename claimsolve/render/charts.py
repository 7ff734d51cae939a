"""Charts of answers: the Claim It! odds table (`odds --svg`) and a match's
running score (`match --svg`), drawn by hand as SVG."""
import math
import textwrap

from . import svg as S
from .boards import PAGE, _wrap
from .style import CHARTS
from ..claimit.plans import sure_of_best
from ..stats import signed
from ..words import counted
from .claimit import leading_row, overruling

WIN = CHARTS["win"]           # win-chance bars
BUST = CHARTS["bust"]         # bust-chance bars
GRID = CHARTS["grid"]
INTERVAL = CHARTS["interval"]   # error bars


def _percent(x):
    return f"{100 * x:.1f}%"


def odds_svg(odds):
    """The odds table of Claim It! (claimsolve.odds's OddsResult) as a chart,
    an SVG document (str): a row per plan, its win chance as a bar with its
    95% interval as an error bar, and beside it the chance that the plan's
    turn busts (1 - survive), a Monte Carlo estimate like the win chance;
    the plan with the best win chance stands out in bold magenta (none
    where the best are equal as shown), and
    under the chart the recommendation (as `odds` prints it) and the
    plans' check of it.  Each row is a <g class="plan"> (class "plan best" for the best
    one) with data-plan, data-win, data-low, data-high and data-bust, and a
    <title> in words.  Each of the table's `notes` (the server's: a table
    cut short of its samples) is a sentence under the chart."""
    rows = odds.rows
    best_row = leading_row(rows)
    label_w = max(220, min(380, max(S.text_width(r["label"], 12.5) for r in rows) + 20))
    win_w, bust_w, gap = 330, 170, 40
    left = 20 + label_w
    row_h, top = 34, 92
    width = left + win_w + gap + bust_w + 90
    notes = list(odds.notes.values())                     # e.g. a table cut short of its samples (the server)
    # the recommendation and its check, each wrapped to the picture's width (the first in a larger type)
    advice = [(index, part) for index, line in enumerate(_advice(odds))
              for part in textwrap.wrap(line, int((width - 40) / (0.58 * (13 if index == 0 else 11.5))),
                                        break_on_hyphens=False)]
    height = top + row_h * len(rows) + 96 + 18 * len(notes) + 18 * (len(advice) - 1)
    top_win = max(r["win_ci95"][1] for r in rows)
    win_max = min(1.0, max(0.1, math.ceil(top_win * 10 - 1e-9) / 10))   # the axis: up to the next 10%
    tick = 0.1 if win_max <= 0.6 else 0.2
    plot_w = win_w - 64                                   # room after the bars for their values
    if odds.mode == "placement":
        title = f"Claim It!, player {odds.to_move} to move: which placement?"
        subtitle = "Win chance of each placement, followed by the play-outs' policy."
    elif odds.mode == "must roll":
        title = f"Claim It!, player {odds.to_move} to move: how far to go after the turn's first roll?"
        subtitle = (f"The roll busts with {odds.bust_rolls}/216 = {_percent(odds.bust_probability)} "
                    "(exact); stop is not legal before it.")
    else:
        title = f"Claim It!, player {odds.to_move} to move: roll again or stop?"
        subtitle = (f"The next roll busts with {odds.bust_rolls}/216 = {_percent(odds.bust_probability)} "
                    "(exact).")
    canvas = S.Canvas(width, height, title,
                      "; ".join(f"{r['label']}: win {_percent(r['win'])} (95% interval "
                                f"{_percent(r['win_ci95'][0])} to {_percent(r['win_ci95'][1])}), "
                                f"turn busts {_percent(1 - r['survive'])} of play-outs" for r in rows))
    out = canvas.elements
    out.append(f'<rect x="0" y="0" width="{width}" height="{height}" fill="{PAGE}"/>')
    out.append(S.text(20, 30, title, size=17, weight="bold"))
    out.append(S.text(20, 52, subtitle, size=13, fill="#444444"))
    axis_y = top - 10
    out.append(S.text(left, axis_y - 8, "win chance (95% interval)", size=12.5, weight="bold"))
    out.append(S.text(left + win_w + gap, axis_y - 8, "turn busts (play-outs)", size=12.5, weight="bold"))
    bottom = top + row_h * len(rows)

    def wx(value):
        return left + plot_w * value / win_max

    def bx(value):
        return left + win_w + gap + bust_w * value

    for index in range(0, len(rows), 2):                  # every other row shaded, under the grid
        out.append(f'<rect x="10" y="{S.num(top + index * row_h)}" width="{width - 20}" height="{row_h}" '
                   f'fill="#f1ede2"/>')
    for i in range(int(round(win_max / tick)) + 1):
        value = i * tick
        out.append(f'<line x1="{S.num(wx(value))}" y1="{axis_y}" x2="{S.num(wx(value))}" y2="{bottom}" '
                   f'stroke="{GRID}" stroke-width="1"/>')
        out.append(S.text(wx(value), bottom + 16, f"{100 * value:.0f}%", size=11, anchor="middle", fill="#555555"))
    for value in (0, 0.5, 1):
        out.append(f'<line x1="{S.num(bx(value))}" y1="{axis_y}" x2="{S.num(bx(value))}" y2="{bottom}" '
                   f'stroke="{GRID}" stroke-width="1"/>')
        out.append(S.text(bx(value), bottom + 16, f"{100 * value:.0f}%", size=11, anchor="middle", fill="#555555"))

    for index, row in enumerate(rows):
        y = top + index * row_h
        mid = y + row_h / 2
        best = row is best_row
        low, high = row["win_ci95"]
        bust = 1 - row["survive"]
        colour = S.BEST if best else WIN
        words = (f"{row['label']}: win chance {_percent(row['win'])}, 95% interval {_percent(low)} to "
                 f"{_percent(high)}; the turn busts in {_percent(bust)} of its play-outs"
                 + (" (the best plan)" if best else ""))
        group = [f'<g class="plan{" best" if best else ""}" data-plan="{S.escape(row["plan"])}" '
                 f'data-win="{row["win"]:.6f}" data-low="{low:.6f}" data-high="{high:.6f}" data-bust="{bust:.6f}">',
                 f"<title>{S.escape(words)}</title>"]
        group.append(S.text(left - 10, mid + 4.5, row["label"], size=12.5, anchor="end",
                            fill=S.BEST if best else S.INK, weight="bold" if best else None))
        group.append(f'<rect class="win-bar" x="{left}" y="{S.num(mid - 8)}" width="{S.num(wx(row["win"]) - left)}" '
                     f'height="16" fill="{colour}" fill-opacity="{1 if best else 0.8}"/>')
        # the error bar: the 95% interval with caps
        group.append(f'<path class="error-bar" d="M{S.num(wx(low))},{S.num(mid)} L{S.num(wx(high))},{S.num(mid)} '
                     f'M{S.num(wx(low))},{S.num(mid - 7)} L{S.num(wx(low))},{S.num(mid + 7)} '
                     f'M{S.num(wx(high))},{S.num(mid - 7)} L{S.num(wx(high))},{S.num(mid + 7)}" '
                     f'stroke="{INTERVAL}" stroke-width="1.6" fill="none"/>')
        group.append(S.text(wx(high) + 6, mid + 4.5, _percent(row["win"]), size=11.5,
                            weight="bold" if best else None))
        group.append(f'<rect class="bust-bar" x="{S.num(bx(0))}" y="{S.num(mid - 8)}" '
                     f'width="{S.num(bx(bust) - bx(0))}" height="16" fill="{BUST}" fill-opacity="0.8"/>')
        group.append(S.text(bx(bust) + 6, mid + 4.5, _percent(bust), size=11.5))
        group.append("</g>")
        out.append("\n".join(group))

    y = bottom + 40
    # the recommendation in the pink bar's colour where it is the pink bar's decision (else in ink: the
    # learned objective may recommend a decision whose plans win less, the line under it says so)
    pink = best_row is not None and odds.recommendation is not None and best_row["decision"] == odds.recommendation
    for at, (index, line) in enumerate(advice):
        out.append(S.text(20, y + 18 * at, line, size=13 if index == 0 else 11.5, weight="bold",
                          fill=S.BEST if index == 0 and pink else S.INK))
    y += 18 * (len(advice) - 1)
    out.append(S.text(20, y + 20, f"Monte Carlo: {odds.samples:,} play-outs per row (seed {odds.seed}); every "
                                  "row uses the same dice for sample i.", size=11.5, fill="#555555"))
    for index, note in enumerate(notes):
        out.append(S.text(20, y + 38 + 18 * index, note[:1].upper() + note[1:] + ".", size=11.5, weight="bold",
                          fill=BUST))
    return canvas.document()


def _advice(odds):
    """The recommendation under the chart, the same as `odds` prints (one
    line), and where the learned win objective recommends, the plans'
    check of it (a second)."""
    if odds.recommendation is None:
        return [f"No recommendation: {odds.why_no_recommendation}."]
    by_learned = odds.recommended_by == odds.LEARNED
    head = f"Recommendation ({odds.recommended_by}): {odds.recommendation}"
    if not by_learned:
        if odds.margin is None:
            return [f"{head} (the only choice)."]
        return [f"{head}: win chance {signed(100 * odds.margin, 1)} percentage points over '{odds.alternative}', "
                f"{sure_of_best(odds.confidence, odds.candidates)}."] + ([overruling(odds)] if odds.overruled else [])
    lines = [f"Recommendation ({odds.recommended_by}, a model's estimate): {odds.recommendation}."]
    if odds.margin is None or not any(r["win"] for r in odds.rows):
        return lines
    plans = odds.monte_carlo
    if plans["recommendation"] is None:
        lines.append(f"The plans' best win alike as shown ({_percent(max(r['win'] for r in odds.rows))} each): "
                     "they neither confirm nor contradict it.")
    elif plans["recommendation"] == odds.recommendation:
        lines.append(f"The plans above agree: win chance {signed(100 * odds.margin, 1)} percentage points over "
                     f"'{odds.alternative}', {sure_of_best(odds.confidence, odds.candidates)}.")
    else:
        lines.append(f"The plans above prefer {plans['recommendation']}: win chance "
                     f"{signed(-100 * odds.margin, 1)} percentage points over '{_best_label(odds, odds.recommendation)}'"
                     f", {sure_of_best(plans['confidence'], odds.candidates)}.")
    return lines


def _best_label(odds, decision):
    return max((r for r in odds.rows if r["decision"] == decision), key=lambda r: r["win"])["label"]


def match_svg(match):
    """A match's running score (claimsolve.match's MatchResult) as a chart,
    an SVG document (str): A's mean points per game after each game, its 95%
    interval as a band around it, the score an equal player would make as a
    dashed line, and each game's result as a mark along the bottom (won,
    drawn or shared, lost).  The line is a <path class="running-score">, the
    band a <path class="interval">, each game a <g class="game"> with
    data-game, data-points, data-score, data-low and data-high."""
    running = match.running()
    n = len(running)
    left, top, plot_w, plot_h = 70, 84, 640, 300
    width, height = left + plot_w + 40, top + plot_h + 134
    lo, hi = match.confidence_interval()
    title = f"{match.game}: A = {match.a} against B = {match.b}"
    canvas = S.Canvas(width, height, title,
                      f"A's score after {counted(n, 'game')}: {match.score:.3f} points per game, 95% interval {lo:.3f} "
                      f"to {hi:.3f}; an equal player scores {match.expected_share:.3f}.")
    out = canvas.elements
    out.append(f'<rect x="0" y="0" width="{width}" height="{height}" fill="{PAGE}"/>')
    out.append(S.text(20, 30, title, size=16, weight="bold"))
    seats = f"{match.players} seats" if match.teams == match.players else \
        f"{match.players} seats in {match.teams} teams"
    out.append(S.text(20, 52, f"{seats}, {counted(n, 'game')}: A's points per game after each game, with its 95% interval.",
                      size=12.5, fill="#444444"))

    def gx(k):
        return left + plot_w * ((k - 1) / (n - 1) if n > 1 else 0.5)

    def gy(value):
        return top + plot_h * (1 - value)

    out.append(f'<rect x="{left}" y="{top}" width="{plot_w}" height="{plot_h}" fill="#ffffff" stroke="#999999"/>')
    for value in (0, 0.25, 0.5, 0.75, 1):
        out.append(f'<line x1="{left}" y1="{S.num(gy(value))}" x2="{left + plot_w}" y2="{S.num(gy(value))}" '
                   f'stroke="{GRID}"/>')
        out.append(S.text(left - 8, gy(value) + 4, f"{value:.2f}", size=11, anchor="end", fill="#555555"))
    for k in _ticks(n):
        out.append(S.text(gx(k), top + plot_h + 18, k, size=11, anchor="middle", fill="#555555"))
    out.append(S.text(left + plot_w / 2, top + plot_h + 36, "games played", size=12, anchor="middle",
                      fill="#444444"))
    out.append(S.text(18, top + plot_h / 2, "A's points per game", size=12, anchor="middle", fill="#444444",
                      extra=f' transform="rotate(-90 18 {S.num(top + plot_h / 2)})"'))
    if n:
        upper = " L".join(f"{S.num(gx(k))},{S.num(gy(h))}" for k, _s, _l, h in running)
        lower = " L".join(f"{S.num(gx(k))},{S.num(gy(l))}" for k, _s, l, _h in reversed(running))
        out.append(f'<path class="interval" d="M{upper} L{lower} Z" fill="{WIN}" fill-opacity="0.18" '
                   f'stroke="{WIN}" stroke-opacity="0.35"><title>95% interval of the score</title></path>')
    share = match.expected_share
    out.append(f'<line class="equal-strength" x1="{left}" y1="{S.num(gy(share))}" x2="{left + plot_w}" '
               f'y2="{S.num(gy(share))}" stroke="#777777" stroke-width="1.5" stroke-dasharray="6 4"/>')
    out.append(S.text(left + plot_w - 4, gy(share) - 6, f"equal strength: {share:.3f}", size=11, anchor="end",
                      fill="#555555"))
    if n:
        line = " L".join(f"{S.num(gx(k))},{S.num(gy(s))}" for k, s, _l, _h in running)
        out.append(f'<path class="running-score" d="M{line}" fill="none" stroke="{WIN}" stroke-width="2.5" '
                   f'stroke-linejoin="round"><title>A\'s running score</title></path>')
    strip = top + plot_h + 52
    out.append(S.text(left - 8, strip + 4, "games", size=11, anchor="end", fill="#555555"))
    for (k, score, low, high), record in zip(running, match.records):
        points = record.a_points
        fill = "#2e8b57" if points == 1 else "#c0392b" if points == 0 else "#e0a800"
        result = "won" if points == 1 else "lost" if points == 0 else f"shared ({points:.3g})"
        words = (f"game {k}: A {result}; after it {score:.3f} points per game "
                 f"(95% interval {low:.3f} to {high:.3f})")
        out.append(f'<g class="game" data-game="{k}" data-points="{points:.4g}" data-score="{score:.4f}" '
                   f'data-low="{low:.4f}" data-high="{high:.4f}"><title>{S.escape(words)}</title>'
                   f'<circle cx="{S.num(gx(k))}" cy="{S.num(gy(score))}" r="{2.5 if n > 60 else 3.5}" '
                   f'fill="{WIN}"/>'
                   f'<rect x="{S.num(gx(k) - 4)}" y="{strip - 4}" width="8" height="8" fill="{fill}"/></g>')
    x = left + plot_w
    for word, fill in (("lost", "#c0392b"), ("drawn or shared", "#e0a800"), ("won", "#2e8b57")):
        x -= S.text_width(word, 11) + 26
        out.append(f'<rect x="{S.num(x)}" y="{strip + 14}" width="8" height="8" fill="{fill}"/>')
        out.append(S.text(x + 12, strip + 22, word, size=11, fill="#555555"))
    y = strip + 48
    text = (f"A's score {match.score:.3f} per game (95% interval {lo:.3f} to {hi:.3f}); "
            f"won {sum(1 for r in match.records if r.a_points == 1)}, "
            f"lost {sum(1 for r in match.records if r.a_points == 0)}, "
            f"drawn or shared {sum(1 for r in match.records if 0 < r.a_points < 1)}.")
    for i, line in enumerate(_wrap(text, 110)):
        out.append(S.text(20, y + 18 * i, line, size=13, weight="bold"))
    return canvas.document()


def _ticks(n):
    """Game numbers to write along the axis: 1, n and a few round ones."""
    if n <= 1:
        return [1] if n else []
    step = next(s for s in (1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 10 ** 9) if n / s <= 10)
    ticks = {1, n} | set(range(step, n, step))
    return sorted(t for t in ticks if t == 1 or t == n or abs(t - n) >= step / 2)
