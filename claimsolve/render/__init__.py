"""Everything claimsolve shows people: answers as text and JSON, boards and
answers as pictures.

- claimsolve.render.text: `show --json`, solve, analyze and match as text
  (and JSON where a command's --json needs shaping); re-exported here.
- claimsolve.render.claim, .colorclaim, .claimit: each game's board as text
  and SVG and its moves drawn on the board; a game's descriptor names its
  module (GameDescriptor.render), and Position.render / Position.svg use it.
- claimsolve.render.boards: analysis_svg, the board with suggestions on it.
- claimsolve.render.charts: odds_svg and match_svg.
- odds_text: Claim It!'s odds table as text (claimsolve.render.claimit).
- claimsolve.render.svg: the SVG primitives they share.

The pictures are SVG documents (str) written by hand, each with a viewBox,
an accessible <title> and text labels:

    result = claimsolve.analyze(position, time=1, top=3)
    svg = claimsolve.render.analysis_svg(position, result)
"""
from .boards import analysis_svg, board_svg
from .charts import match_svg, odds_svg
from .claimit import render_odds as odds_text
from .text import (analysis_text, engine_label, line_text, match_text, score_text, solve_json, solve_text,
                   summary)

__all__ = ["analysis_svg", "analysis_text", "board_svg", "engine_label", "line_text", "match_svg",
           "match_text", "odds_svg", "odds_text", "score_text", "solve_json", "solve_text", "summary"]
