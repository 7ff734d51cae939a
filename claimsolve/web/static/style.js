// The drawing constants: palettes, sizes and board geometry, as the server's
// SVG pictures use them (claimsolve/render/style.py), asked of the server
// once (GET /api/style) when the page starts.  The page's scripts draw with
// these and keep no colours or sizes of their own (docs/drawing.md).
//   style.common       ink, the best suggestion's colour, ...
//   style.games[id]    a game's palette and geometry (claim, colorclaim, claimit)
//   style.marks        the page's marks on a board: selection, last move, line
//   style.charts       the odds and review charts

const response = await fetch("/api/style");
if (!response.ok) throw new Error(`the drawing style: HTTP ${response.status} from /api/style`);

export const style = await response.json();

// A text's size on a board: `size` of the board's units as drawn at full size, more
// where the board is shown small: never less than L.legible, the board's units that
// show as app.js's LEGIBLE CSS px at the size it is shown (docs/board.md, "On a
// phone, and boards wider than the page")
export const fontSize = (L, size) => Math.ceil(100 * Math.max(size, (L && L.legible) || 0)) / 100;
