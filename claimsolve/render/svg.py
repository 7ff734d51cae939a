"""SVG primitives the pictures share: the document, arrows, marks, labels
that keep out of each other's way, and the panel that lists suggestions.

Everything is written by hand as text (no plotting library): a picture is a
`Canvas`, elements are added as strings, `Canvas.document()` wraps them in
an <svg> with a viewBox and an accessible <title> (and <desc>).
"""
import math

from .style import COMMON

FONT = COMMON["font"]
BEST = COMMON["best"]          # the best suggestion
OTHER = COMMON["other"]        # the others
INK = COMMON["ink"]
PANEL_WIDTH = 290


def escape(text):
    """Text for an SVG text node or attribute value (quotes escaped too): what
    xml.sax.saxutils.escape(text, {'"': "&quot;"}) gives, without loading
    xml.sax, which brings urllib and http.client into every command's
    start-up."""
    return str(text).replace("&", "&amp;").replace(">", "&gt;").replace("<", "&lt;").replace('"', "&quot;")


def num(x):
    """A coordinate as short text: 12, 12.5."""
    x = round(float(x), 1)
    return str(int(x)) if x.is_integer() else str(x)


class Canvas:
    """A picture being drawn: its size, its title for screen readers, and its
    elements in drawing order (later ones on top)."""

    def __init__(self, width, height, title, desc=None):
        self.width = width
        self.height = height
        self.title = title
        self.desc = desc
        self.elements = []

    def add(self, element):
        self.elements.append(element)

    def extend(self, elements):
        self.elements.extend(elements)

    def document(self):
        """The whole SVG document (str)."""
        w, h = num(self.width), num(self.height)
        head = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" '
                f'font-family="{FONT}" role="img" aria-labelledby="svg-title">',
                f'<title id="svg-title">{escape(self.title)}</title>']
        if self.desc:
            head.append(f"<desc>{escape(self.desc)}</desc>")
        return "\n".join(head + self.elements + ["</svg>"]) + "\n"


def text(x, y, content, size=13, anchor="start", fill=INK, weight=None, extra=""):
    bold = f' font-weight="{weight}"' if weight else ""
    return (f'<text x="{num(x)}" y="{num(y)}" font-size="{size}" text-anchor="{anchor}" fill="{fill}"{bold}'
            f'{extra}>{escape(content)}</text>')


def text_width(content, size):
    """About how wide `content` is in pixels at font size `size` (Helvetica's
    average advance; used to size label boxes and the panel)."""
    return 0.58 * size * len(str(content))


def arrow_path(points, width, head=None):
    """An arrow along `points` [(x, y), ...]: (the shaft's path data ending
    where the head begins, the head's polygon points).  The head is drawn as
    a polygon rather than an SVG marker, so it takes the arrow's own colour
    everywhere."""
    head = head or max(10.0, 3.2 * width)
    (x1, y1), (x2, y2) = points[-2], points[-1]
    length = math.hypot(x2 - x1, y2 - y1) or 1.0
    ux, uy = (x2 - x1) / length, (y2 - y1) / length
    base_x, base_y = x2 - ux * head, y2 - uy * head
    half = head * 0.55
    left = (base_x - uy * half, base_y + ux * half)
    right = (base_x + uy * half, base_y - ux * half)
    shaft = [*points[:-1], (base_x + ux * 1.0, base_y + uy * 1.0)]
    d = "M" + " L".join(f"{num(x)},{num(y)}" for x, y in shaft)
    polygon = " ".join(f"{num(x)},{num(y)}" for x, y in ((x2, y2), left, right))
    return d, polygon


def arrow(points, colour, width, opacity=1.0, dashed=False):
    """An arrow through `points`, its head at the last: a white halo under a
    coloured shaft so that it reads on any board."""
    d, polygon = arrow_path(points, width)
    dash = ' stroke-dasharray="7 5"' if dashed else ""
    return "\n".join([
        f'<path d="{d}" fill="none" stroke="#ffffff" stroke-width="{num(width + 3)}" stroke-linecap="round" '
        f'stroke-linejoin="round" stroke-opacity="{num(0.8 * opacity)}"/>',
        f'<path class="arrow" d="{d}" fill="none" stroke="{colour}" stroke-width="{num(width)}" '
        f'stroke-linecap="round" stroke-linejoin="round" stroke-opacity="{opacity}"{dash}/>',
        f'<polygon points="{polygon}" fill="{colour}" fill-opacity="{opacity}" stroke="#ffffff" '
        f'stroke-width="1"/>',
    ])


def shorten(points, start_gap, end_gap):
    """`points` with the first segment starting `start_gap` pixels later and
    the last ending `end_gap` earlier (an arrow from a piece's edge to a
    point's edge instead of centre to centre)."""
    points = list(points)
    (x1, y1), (x2, y2) = points[0], points[1]
    length = math.hypot(x2 - x1, y2 - y1) or 1.0
    points[0] = (x1 + (x2 - x1) * start_gap / length, y1 + (y2 - y1) * start_gap / length)
    (x1, y1), (x2, y2) = points[-2], points[-1]
    length = math.hypot(x2 - x1, y2 - y1) or 1.0
    points[-1] = (x2 - (x2 - x1) * end_gap / length, y2 - (y2 - y1) * end_gap / length)
    return points


def ring(x, y, r, colour, width, opacity=1.0, dashed=False):
    """A placement mark: a circle outline."""
    dash = ' stroke-dasharray="5 3"' if dashed else ""
    return (f'<circle class="mark" cx="{num(x)}" cy="{num(y)}" r="{num(r)}" fill="none" stroke="{colour}" '
            f'stroke-width="{num(width)}" stroke-opacity="{opacity}"{dash}/>')


def square(x, y, half, colour, width, opacity=1.0):
    """A placement mark around a square cell."""
    return (f'<rect class="mark" x="{num(x - half)}" y="{num(y - half)}" width="{num(2 * half)}" '
            f'height="{num(2 * half)}" rx="6" fill="none" stroke="{colour}" stroke-width="{num(width)}" '
            f'stroke-opacity="{opacity}"/>')


def cross(x, y, size, colour, width, opacity=1.0):
    """A removal or capture mark: an X with a white halo."""
    d = (f"M{num(x - size)},{num(y - size)} L{num(x + size)},{num(y + size)} "
         f"M{num(x - size)},{num(y + size)} L{num(x + size)},{num(y - size)}")
    return "\n".join([
        f'<path d="{d}" stroke="#ffffff" stroke-width="{num(width + 3)}" stroke-linecap="round" '
        f'stroke-opacity="{num(0.8 * opacity)}"/>',
        f'<path class="mark" d="{d}" stroke="{colour}" stroke-width="{num(width)}" stroke-linecap="round" '
        f'stroke-opacity="{opacity}"/>',
    ])


def link(a, b, colour, width, opacity=1.0):
    """A thin dashed line tying two marks of one move together (a settle
    pair)."""
    return (f'<path d="M{num(a[0])},{num(a[1])} L{num(b[0])},{num(b[1])}" stroke="{colour}" '
            f'stroke-width="{num(width)}" stroke-dasharray="3 4" stroke-opacity="{opacity}" fill="none"/>')


class Labels:
    """Score labels placed near their anchors without covering each other or
    the board's marks kept clear (pieces, height marks): each label tries a
    ring of spots around its anchor, nearest first, and takes the first
    free one; when none is, the one that covers the fewest other labels,
    then the fewest marks kept clear."""

    SPOTS = [(0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1)]
    BADGE = 18                        # a badge's side: a rank alone, in a ring

    def __init__(self, bounds, keep_clear=()):
        self.bounds = bounds          # (x0, y0, x1, y1): labels stay inside
        self.clear = list(keep_clear)   # boxes (x, y, w, h) of marks to keep readable
        self.taken = []                 # boxes of the labels placed

    def place(self, x, y, content, colour, best, distance=16, prefer=(0, -1), badge=False, alternatives=()):
        """The label's elements, placed near (x, y), first towards `prefer`
        (a direction (dx, dy): an arrow's label goes on past its head), or
        near one of the `alternatives` [(x, y, prefer)] at the same reach
        when (x, y) has no free spot that near.  A `badge` is `content` (a
        rank) alone in a small ring: a suggestion whose score an earlier
        one's label already says."""
        size = 12.5 if best else 11.5
        if badge:
            size, distance = 11, distance * 0.6
            w = h = max(self.BADGE, text_width(content, size) + 8)
        else:
            w, h = text_width(content, size) + 12, size + 8
        near = [(x, y, prefer)] + list(alternatives)
        # (x, y) first, near and a little further; then the alternatives so; then all of them further
        stages = [(near[:1], (1, 1.9)), (near[1:], (1, 1.9)), (near, (2.8, 3.8))]
        candidates = [(ax, ay, reach * distance, d) for places, reaches in stages for reach in reaches
                      for ax, ay, toward in places for d in _towards(self.SPOTS, toward)]
        choice, cost = None, None
        for order, (ax, ay, reach, (dx, dy)) in enumerate(candidates):
            cx, cy = ax + dx * (reach + w / 2 * abs(dx)), ay + dy * (reach * 0.8 + h / 2 * abs(dy))
            box = self._clamp(cx - w / 2, cy - h / 2, w, h)
            labels = sum(_overlap(box, other) for other in self.taken)
            marks = sum(_overlap(box, other) for other in self.clear)
            if (labels, marks) == (0, 0):
                choice = box
                break
            if cost is None or (labels, marks, order) < cost:
                choice, cost = box, (labels, marks, order)
        self.taken.append(choice)
        bx, by = choice[0], choice[1]
        fill, ink, stroke = (colour, "#ffffff", colour) if best else ("#ffffff", colour, colour)
        return "\n".join([
            f'<rect class="label" x="{num(bx)}" y="{num(by)}" width="{num(w)}" height="{num(h)}" rx="{num(h / 2)}" '
            f'fill="{fill}" fill-opacity="0.95" stroke="{stroke}" stroke-width="{1.6 if best else 1.2}"/>',
            text(bx + w / 2, by + h / 2 + size * 0.36, content, size=size, anchor="middle", fill=ink,
                 weight="bold" if best or badge else None),
        ])

    def _clamp(self, x, y, w, h):
        x0, y0, x1, y1 = self.bounds
        return (min(max(x, x0), x1 - w), min(max(y, y0), y1 - h), w, h)


def _towards(spots, prefer):
    """`spots` (directions), the nearest to `prefer` first."""
    return sorted(spots, key=lambda d: -(d[0] * prefer[0] + d[1] * prefer[1])
                  / math.hypot(*d) / (math.hypot(*prefer) or 1.0))


def _overlap(a, b):
    return not (a[0] + a[2] <= b[0] or b[0] + b[2] <= a[0] or a[1] + a[3] <= b[1] or b[1] + b[3] <= a[1])


def style(rank):
    """(colour, stroke width, opacity) of the suggestion ranked `rank` (1 the
    best): the best in BEST and heavier, the others lighter by rank."""
    if rank == 1:
        return BEST, 5.0, 1.0
    return OTHER, 3.0, max(0.45, 0.85 - 0.1 * (rank - 2))


def panel(x, y, heading, rows, note=None):
    """The list beside a board: a heading and a row per suggestion
    [(rank, move, score text)] or [(rank, move, score text, detail)], the
    best in bold and in BEST; a detail (an MCTS mean's visits and interval)
    goes under its row in small grey.  Returns (elements, height used)."""
    out = [text(x, y, heading, size=14, weight="bold")]
    y += 10
    for rank, move, score, *detail in rows:
        y += 22
        colour = BEST if rank == 1 else OTHER
        out.append(f'<circle cx="{num(x + 9)}" cy="{num(y - 4.5)}" r="9" fill="{colour if rank == 1 else "#ffffff"}" '
                   f'stroke="{colour}" stroke-width="1.5"/>')
        out.append(text(x + 9, y, rank, size=11, anchor="middle", fill="#ffffff" if rank == 1 else colour,
                        weight="bold"))
        shown = move if len(move) <= 26 else move[:25] + "\u2026"
        out.append(text(x + 24, y, shown, size=12.5, fill=colour, weight="bold" if rank == 1 else None,
                        extra=' font-family="DejaVu Sans Mono, Menlo, Consolas, monospace"'))
        out.append(text(x + PANEL_WIDTH - 24, y, score, size=12.5, anchor="end", fill=colour,
                        weight="bold" if rank == 1 else None))
        if detail and detail[0]:
            y += 15
            out.append(text(x + 24, y, detail[0], size=10.5, fill="#555555"))
    if note:
        for line in note:
            y += 18
            out.append(text(x, y, line, size=11, fill="#555555"))
    return out, y
