"""SVG charts of study reports, drawn with matplotlib (the `charts` extra;
no display needed: the Agg backend)."""
import io
import os

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from ..files import write_picture  # noqa: E402
from ..words import counted  # noqa: E402
from . import stats  # noqa: E402

COLORS = {"win": "#2e7d32", "draw": "#9e9e9e", "loss": "#c62828", "bar": "#1565c0", "fair": "#ef6c00"}


def _save(figure, folder, name):
    buffer = io.StringIO()
    figure.savefig(buffer, format="svg", bbox_inches="tight")
    plt.close(figure)
    path = os.path.join(folder, name)
    write_picture(path, buffer.getvalue())          # a chart's name on a study or a record: kept
    return path


def _errors(entries, key="share"):
    centre = [entry[key] for entry in entries]
    low = [max(0.0, c - entry["ci95"][0]) for c, entry in zip(centre, entries)]
    high = [max(0.0, entry["ci95"][1] - c) for c, entry in zip(centre, entries)]
    return centre, [low, high]


def _title(summary):
    info = summary["study"]
    done = "" if info["status"] in ("finished", "decided") else f" (unfinished: {info['done']:,} of {info['total']:,})"
    return done


def solve_charts(summary, folder):
    """results.svg (first player's wins, draws, losses with 95% intervals)
    and margins.svg (the histogram of exact values)."""
    paths = []
    words = ("win", "draw", "loss")
    entries = [summary["first_player"][word] for word in words]
    figure, axes = plt.subplots(figsize=(5, 3.5))
    centre, errors = _errors(entries)
    axes.bar(["wins", "draws", "losses"], centre, yerr=errors, capsize=6,
             color=[COLORS[word] for word in words])
    for x, entry in enumerate(entries):
        axes.text(x, entry["ci95"][1] + 0.02, f"{100 * entry['share']:.1f}%", ha="center")
    axes.set_ylim(0, 1.08)
    axes.set_ylabel("share of setups (95% Wilson interval)")
    axes.set_title(f"{summary['game']} {summary['size']}: the first player, {summary['solved']:,} setups"
                   + _title(summary), fontsize=10)
    paths.append(_save(figure, folder, "results.svg"))

    figure, axes = plt.subplots(figsize=(6, 3.5))
    values = [int(v) for v in summary["values"]]
    counts = list(summary["values"].values())
    axes.bar(values, counts, color=[COLORS["win"] if v > 0 else COLORS["draw"] if v == 0 else COLORS["loss"]
                                    for v in values])
    axes.set_xlabel("exact margin for the first player")
    axes.set_ylabel("setups")
    axes.set_title(f"{summary['game']} {summary['size']}: margins with best play" + _title(summary), fontsize=10)
    paths.append(_save(figure, folder, "margins.svg"))
    return paths


def match_charts(summary, rows, folder):
    """seats.svg (points by seat with 95% intervals, the fair share dashed)
    and score.svg (A's running score with its interval, game by game as
    recorded)."""
    paths = []
    seats = list(summary["by_seat"])
    entries = list(summary["by_seat"].values())
    figure, axes = plt.subplots(figsize=(5, 3.5))
    centre, errors = _errors(entries, "mean")
    axes.bar([f"seat {seat}" for seat in seats], centre, yerr=errors, capsize=6, color=COLORS["bar"])
    axes.axhline(summary["expected_share"], color=COLORS["fair"], linestyle="--", label="fair share")
    axes.set_ylim(0, 1)
    axes.set_ylabel("points per game (95% interval)")
    axes.legend()
    axes.set_title(f"{summary['game']}: points by seat, {counted(summary['games'], 'game')}" + _title(summary), fontsize=10)
    paths.append(_save(figure, folder, "seats.svg"))

    figure, axes = plt.subplots(figsize=(6, 3.5))
    xs, mean, low, high, total = [], [], [], [], 0.0
    for k, row in enumerate(rows, 1):
        total += row["a_points"]
        lo, hi = stats.wilson_interval(total / k, k)
        xs.append(k)
        mean.append(total / k)
        low.append(lo)
        high.append(hi)
    if xs:
        axes.fill_between(xs, low, high, color=COLORS["bar"], alpha=0.2, label="95% interval")
        axes.plot(xs, mean, color=COLORS["bar"], label=f"A = {summary['a']}")
    axes.axhline(summary["expected_share"], color=COLORS["fair"], linestyle="--", label="equal strength")
    axes.set_ylim(0, 1)
    axes.set_xlabel("games")
    axes.set_ylabel("A's mean points")
    axes.legend(fontsize=8)
    axes.set_title(f"{summary['game']}: {summary['a']} against {summary['b']}" + _title(summary), fontsize=10)
    paths.append(_save(figure, folder, "score.svg"))
    return paths


def policies_charts(summary, folder):
    """policies.svg: each policy's points per game with 95% intervals, best
    on top, the fair share dashed."""
    entries = list(reversed(summary["policies"]))
    figure, axes = plt.subplots(figsize=(6, 0.45 * len(entries) + 1.5))
    centre, errors = _errors(entries, "mean")
    axes.barh([entry["policy"] for entry in entries], centre, xerr=errors, capsize=4, color=COLORS["bar"])
    axes.axvline(summary["expected_share"], color=COLORS["fair"], linestyle="--", label="fair share")
    axes.set_xlabel("points per game (95% interval)")
    axes.legend(fontsize=8)
    axes.set_title(f"{summary['game']} at {summary['seats']} seats: {counted(summary['games'], 'game')}" + _title(summary),
                   fontsize=10)
    return [_save(figure, folder, "policies.svg")]


def ladder_charts(summary, folder):
    """ladder.svg: each spec's Elo rating with its 95% interval, best on
    top, the anchor's 0 dashed; none before the first game."""
    entries = list(reversed(summary["ladder"]))
    if not entries:
        return []
    figure, axes = plt.subplots(figsize=(6, 0.45 * len(entries) + 1.5))
    centre, errors = _errors(entries, "rating")
    labels = [entry["spec"] for entry in entries]
    axes.errorbar(centre, labels, xerr=errors, fmt="o", capsize=4, color=COLORS["bar"])
    axes.axvline(0, color=COLORS["fair"], linestyle="--", label=f"{summary['anchor']} (held at 0)")
    for y, entry in enumerate(entries):
        axes.annotate(f"{entry['rating']:+.0f}" if round(entry["rating"]) else "0", (entry["rating"], y), textcoords="offset points", xytext=(0, 6),
                      ha="center", fontsize=8)
    axes.set_xlabel(f"Elo rating above {summary['anchor']} (95% interval)")
    axes.legend(fontsize=8)
    axes.set_title(f"{summary['game']} at {summary['seats']} seats: {counted(summary['games'], 'game')}" + _title(summary),
                   fontsize=10)
    return [_save(figure, folder, "ladder.svg")]
