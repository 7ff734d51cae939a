// Color Claim on the analysis board: stacks of pyramids; a move is a stack
// and the neighbouring stack it goes onto (b1-b2), claiming the colour of
// the stack it lands on or not (b1xb2).

import { fontSize, style } from "../style.js";

export const evalScale = 4;          // scores are final-score margins (points)
// a space is never shown smaller than this (CSS px): a wider board (64x1) scrolls in its frame,
// its stack counts and column letters still legible in their spaces (app.js fitBoard)
export const minCell = 32;

// the palette and sizes: the server's (claimsolve/render/style.py), as its pictures use them;
// where everything sits: the server's layout of the position (POST /api/layout), the rule
// its pictures place the grid by (render/colorclaim.py's layout)
const S = style.games.colorclaim;
const FILL = S.pyramid;
const NAMES = { R: "red", Y: "yellow", G: "green", B: "blue", K: "black" };
const OWNER = S.owner;
const CELL = S.cell;

// a column's letters, as spreadsheets name theirs (claimsolve/colorclaim/position.py's
// column_name and column_index): 0 is a, 25 z, then aa..az, ba, ... (63 bl)
export function columnName(c) {
  let name = "";
  for (let n = c + 1; n > 0; n = Math.floor((n - 1) / 26)) name = String.fromCharCode(97 + (n - 1) % 26) + name;
  return name;
}

export function columnIndex(letters) {
  let c = 0;
  for (const letter of letters) c = c * 26 + letter.charCodeAt(0) - 96;
  return c - 1;
}

// a move's two points and whether it claims: {from, to, claim}, null for no move.  Read by
// the points' shape, letters then digits, not by splitting at "x": a column may be x or ax
// (x1xw1, ax1-ay1)
export function parseMove(move) {
  const found = /^([a-z]+[0-9]+)([-x])([a-z]+[0-9]+)$/.exec(move.trim().toLowerCase());
  return found ? { from: found[1], to: found[3], claim: found[2] === "x" } : null;
}

function grid(position) {
  const rows = position.board.map((row) => row.trim().split(/\s+/));
  return { rows, height: rows.length, width: rows[0].length };
}

function stackOf(token) {
  if (token === ".") return null;
  return token.split("/").map((p) => ({ colour: p[0], size: Number(p[1]) }));
}

function owner(stack, claims) {
  if (!stack) return null;
  const top = stack[stack.length - 1].colour;
  const at = (claims || []).indexOf(top);
  return at >= 0 ? at + 1 : null;
}

// the served layout (its spaces' edges, labels, legend and size) with the
// spaces by name: {x, y} their centres, r and c their row and column
export function layout(position, served) {
  const g = grid(position);
  const points = new Map();
  for (let r = 0; r < g.height; r++) {
    for (let c = 0; c < g.width; c++) {
      points.set(`${columnName(c)}${g.height - r}`,
        { x: served.columns[c] + CELL / 2, y: served.rows[r] + CELL / 2, r, c });
    }
  }
  return { ...served, points, grid: g };
}

export function draw(position, L, show) {
  const g = L.grid;
  const claims = position.claims || [null, null];
  const out = [`<rect x="0" y="0" width="${L.width}" height="${L.height}" fill="${S.background}"/>`];
  // the spaces first, then the stacks: app.js draws its marks between them (the last move)
  for (const p of L.points.values()) {
    out.push(`<rect x="${p.x - CELL / 2}" y="${p.y - CELL / 2}" width="${CELL}" height="${CELL}" fill="${S.space}" stroke="${S.grid}"/>`);
  }
  for (const [name, p] of L.points) {
    const x = p.x - CELL / 2, y = p.y - CELL / 2;
    const stack = stackOf(g.rows[p.r][p.c]);
    if (!stack) continue;
    const top = stack[stack.length - 1];
    const who = owner(stack, claims);
    if (who) {
      out.push(`<rect x="${x + 3}" y="${y + 3}" width="${CELL - 6}" height="${CELL - 6}" fill="none" ` +
        `stroke="${OWNER[who]}" stroke-width="4" class="marker"/>`);
    }
    const half = 10 + 6 * top.size;
    const base = y + CELL - 10, apex = base - (18 + 10 * top.size);
    out.push(`<polygon points="${p.x - half},${base} ${p.x + half},${base} ${p.x},${apex}" fill="${FILL[top.colour]}" ` +
      `stroke="${S.pyramid_stroke}" stroke-width="1" class="piece"><title>${name}: ${g.rows[p.r][p.c]}</title></polygon>`);
    if (stack.length > 1) {
      // grown on a small board it reaches the pyramid: edged in the space's colour
      const size = fontSize(L, 13);
      out.push(`<text x="${x + CELL - 8}" y="${y + 3 + size}" font-size="${size}" font-weight="bold" text-anchor="end" ` +
        `stroke="${S.space}" stroke-width="3" paint-order="stroke">x${stack.length}</text>`);
    }
  }
  // (the served rows' labels sit 5 below the middle of the row, for size 14)
  const label = fontSize(L, 14);
  for (const row of L.row_labels) {
    out.push(`<text x="${row.x}" y="${row.y - 5 + 5 * label / 14}" font-size="${label}" text-anchor="middle">${row.text}</text>`);
  }
  for (const column of L.column_labels) {
    out.push(`<text x="${column.x}" y="${column.y}" font-size="${label}" text-anchor="middle">${column.text}</text>`);
  }
  const scores = (show && show.scores) || [];
  for (const player of [1, 2]) {
    const claim = claims[player - 1];
    let text = `Player ${player}: claims ${claim ? NAMES[claim] : "nothing"}`;
    let short = `P${player}: ${claim ? NAMES[claim] : "no claim"}`;
    if (scores.length) { text += `, score ${scores[player - 1]}`; short += `, ${scores[player - 1]}`; }
    if (position.shield === player) { text += " (shielded)"; short += " (shielded)"; }
    const y = L.legend.lines[player - 1];
    out.push(`<rect x="${L.legend.key}" y="${y - 11}" width="12" height="12" fill="${OWNER[player]}"/>`);
    // on a narrow board at a legible size the shorter words, the whole line its title (app.js fitTexts)
    out.push(`<g><title>${text}</title><text x="${L.legend.text}" y="${y}" font-size="${fontSize(L, 14)}" ` +
      `data-room="${L.width - L.legend.text - 4}" data-short="${short}">${text}</text></g>`);
  }
  return out.join("\n");
}

// a pyramid that left the board (the one claimed), small, centred on p
export function ghost(token, p) {
  const top = stackOf(token)[0];
  const half = 4 + top.size, height = 7 + 2 * top.size;
  return `<polygon points="${p.x - half},${p.y + height / 2} ${p.x + half},${p.y + height / 2} ${p.x},${p.y - height / 2}" ` +
    `fill="${FILL[top.colour]}" stroke="${S.pyramid_stroke}" stroke-width="0.8"/>`;
}

export function status() {
  return "Click a stack, then the neighbouring stack it goes onto.";
}

export function tokens(move) {
  const m = parseMove(move);
  return { tokens: m ? [m.from, m.to] : [move], ordered: true };
}

export function describe(move, position) {
  const m = parseMove(move);
  if (!m || !m.claim) return "stack, no claim";
  const target = m.to;
  const g = grid(position);
  const [, letters, number] = target.match(/^([a-z]+)([0-9]+)$/) || [];
  const row = letters ? g.rows[g.height - Number(number)] : undefined;
  const token = row ? row[columnIndex(letters)] : undefined;
  const stack = token ? stackOf(token) : null;
  return stack ? `stack and claim ${NAMES[stack[stack.length - 1].colour]}` : "stack and claim";
}

export function shapes(move, position, L) {
  const m = parseMove(move);
  const from = m && L.points.get(m.from), to = m && L.points.get(m.to);
  if (!from || !to) return [];
  const out = [{ kind: "arrow", from, to }];
  if (m.claim) out.push({ kind: "ring", at: to });
  return out;
}

// why the stack on `from` may not go onto `to` (a neighbour), by the rules'
// three refusals (seeds/colorclaim/RULES.md, "Your move"); null when it may
function refusal(position, L, from, to) {
  const g = L.grid;
  const p = L.points.get(from), q = L.points.get(to);
  const moved = stackOf(g.rows[p.r][p.c]), under = stackOf(g.rows[q.r][q.c]);
  const claims = position.claims || [null, null];
  if (!under) return `${to} is empty`;
  const mover = owner(moved, claims), target = owner(under, claims);
  const me = position.to_move, other = 3 - me;
  if (position.shield && target === position.shield) return `${to} is player ${position.shield}'s, shielded by his claim`;
  if (mover === null && target !== null) return `an unowned stack may not go onto player ${target}'s ${to}`;
  if (mover === other && target === other) return `your opponent's stack may not go onto his own ${to}`;
  return null;
}

// Why the clicks are no legal move (app.js explainIllegal): a first click on
// an empty space or a stack that cannot move, in words; a stack and where it
// goes, clicked whole, for the server to say why.
export function explain(clicks, position, legal, L) {
  const last = clicks[clicks.length - 1];
  if (clicks.length >= 2) return { move: `${clicks[clicks.length - 2]}-${last}` };
  const p = L.points.get(last);
  if (!p) return null;
  const token = L.grid.rows[p.r][p.c];
  if (token === ".") return { text: `${last} is empty: click a stack, then the neighbouring stack it goes onto.` };
  const reasons = [];
  for (const [name, q] of L.points) {
    if (Math.abs(q.r - p.r) + Math.abs(q.c - p.c) !== 1) continue;
    reasons.push(refusal(position, L, last, name) || `onto ${name}: no legal move`);
  }
  return { text: `the stack on ${last} (${token}) cannot move: ${reasons.join("; ")}.` };
}
