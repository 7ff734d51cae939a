// Claim (1983) on the analysis board: the island, its pieces, and how a
// whole turn is clicked together (docs/positions.md, "Moves").
//   settle   c3+d5 (c3=1+d5=3 in battle-for-two): click the two points, any order
//   brawl    xa1 xb2 xc3 xd4: click the Vikings to remove, any order
//   towers   T@d4 ...: click where each tower goes
//   play     T@b2 c3-e5 e5-e7 T@f6: click in the order it happens (a Viking,
//            where it goes, where it goes on, where towers go)

import { fontSize, style } from "../style.js";
import { counted } from "../words.js";

export const evalScale = 300;       // alpha-beta scores: a tower is worth 300
// a point is never shown smaller than this (CSS px): its piece's number still fits its disc at
// a legible size (app.js fitBoard); an island of 15 columns fits a phone's width
export const minCell = 18;
// on a phone, the island turned upright (a wide one: the served layout's narrow form) is drawn
// at least this tall a point (CSS px), to be tapped (app.js fitBoard): lichess's squares on a
// phone are about 48, common advice at least 40 to 44
export const tapCell = 36;

// the palette and sizes: the server's (claimsolve/render/style.py), as its pictures use them;
// where everything sits: the server's layout of the position (POST /api/layout), the rule
// its pictures place the island by (render/claim.py's layout)
const S = style.games.claim;
const PIECE = S.piece;
const PIECE_TEXT = S.piece_text;
const SEA = S.sea;
const LAND = S.land;
const SHORE = S.shore;
const BORDER = S.border;
const STROKE = S.piece_stroke;
const CELL = S.cell;

function grid(position) {
  const land = position.territories.map((row) => row.trim().split(/\s+/));
  const board = position.board.map((row) => row.trim().split(/\s+/));
  return { land, board, height: land.length, width: land[0].length };
}

const pointName = (g, column, r) => `${String.fromCharCode(97 + column)}${g.height - r}`;

function colours(position) {
  const n = position.variant === "battle-for-two" ? 4 : position.players;
  return Array.from({ length: n }, (_, i) => i + 1);
}

// the served layout (its squares' edges, labels, legend and size) with the
// island's points by name: {x, y} their centres, r and c their row and column.
// On a phone the served layout's narrow form turns a wide island a quarter
// (`turn` 90, render/claim.py's layout): its columns' edges are then their tops,
// its rows' their left sides (docs/board.md, "On a phone")
export function layout(position, served) {
  const g = grid(position);
  const points = new Map();
  const turned = served.turn === 90;
  for (let r = 0; r < g.height; r++) {
    for (let c = 0; c < g.width; c++) {
      if (g.land[r][c] !== "-") {
        const [x, y] = turned ? [served.rows[r], served.columns[c]] : [served.columns[c], served.rows[r]];
        points.set(pointName(g, c, r), { x: x + CELL / 2, y: y + CELL / 2, r, c });
      }
    }
  }
  return { ...served, points, grid: g };
}

// where a neighbour in the grid (a row down, a column right) lies on the screen: the
// same way, or on an island turned a quarter clockwise a row down is to the left and
// a column right below
const onScreen = (L, dr, dc) => (L.turn === 90 ? [-dr, dc] : [dc, dr]);

function landColours(g) {
  const touching = {};
  const letters = [];
  for (let r = 0; r < g.height; r++) {
    for (let c = 0; c < g.width; c++) {
      const t = g.land[r][c];
      if (t === "-") continue;
      if (!touching[t]) { touching[t] = new Set(); letters.push(t); }
      for (const [dr, dc] of [[1, 0], [-1, 0], [0, 1], [0, -1]]) {
        const n = (g.land[r + dr] || [])[c + dc];
        if (n && n !== "-" && n !== t) touching[t].add(n);
      }
    }
  }
  letters.sort();
  const fills = {};
  const uses = Object.fromEntries(LAND.map((c) => [c, 0]));
  for (const t of letters) {
    const used = new Set([...touching[t]].filter((n) => fills[n]).map((n) => fills[n]));
    const free = LAND.filter((c) => !used.has(c));
    const choice = (free.length ? free : LAND).reduce((a, b) => (uses[b] < uses[a] ? b : a));
    fills[t] = choice;
    uses[choice] += 1;
  }
  return fills;
}

function towerPath(x, y, size) {
  const w = size * 0.62, h = size * 0.66;
  const l = x - w / 2, r = x + w / 2, t = y - h / 2, b = y + h / 2, m = w / 5, n = h * 0.2;
  return `M${l},${b} L${l},${t} L${l + m},${t} L${l + m},${t + n} L${l + 2 * m},${t + n} L${l + 2 * m},${t} ` +
    `L${l + 3 * m},${t} L${l + 3 * m},${t + n} L${l + 4 * m},${t + n} L${l + 4 * m},${t} L${r},${t} L${r},${b} Z`;
}

function counts(position) {
  const g = grid(position);
  const out = {};
  for (const colour of colours(position)) out[colour] = { vikings: 0, towers: 0 };
  for (const row of g.board) {
    for (const token of row) {
      if (token === ".") continue;
      const tower = token.startsWith("T");
      const colour = Number(tower ? token.slice(1) : token);
      if (out[colour]) out[colour][tower ? "towers" : "vikings"] += 1;
    }
  }
  return out;
}

// a piece as the board draws it; `extra` attributes of its shape, `name`
// its point for the hover title (none: no title, as for a captured piece);
// shape and number carry the point as data-at (app.js fades the pieces a
// turn being clicked has moved or captured)
function pieceSvg(token, p, extra = "", name = null, L = null) {
  const tower = token.startsWith("T");
  const colour = Number(tower ? token.slice(1) : token);
  const title = name ? `<title>${name}: ${tower ? "tower" : "Viking"} of colour ${colour}</title>` : "";
  const at = name ? ` data-at="${name}"` : "";
  if (tower) {
    return `<path d="${towerPath(p.x, p.y, CELL)}" fill="${PIECE[colour]}" stroke="${STROKE}" stroke-width="1.5" ` +
      `stroke-linejoin="round" ${extra}${at}>${title}</path>` +
      `<text x="${p.x}" y="${p.y + 10}" font-size="${fontSize(L, 13)}" font-weight="bold" fill="${PIECE_TEXT[colour]}" ` +
      `text-anchor="middle"${at}>${colour}</text>`;
  }
  return `<circle cx="${p.x}" cy="${p.y}" r="${CELL * 0.36}" fill="${PIECE[colour]}" stroke="${STROKE}" ` +
    `stroke-width="1.2" ${extra}${at}>${title}</circle>` +
    `<text x="${p.x}" y="${p.y + 5.5 * fontSize(L, 16) / 16}" font-size="${fontSize(L, 16)}" font-weight="bold" fill="${PIECE_TEXT[colour]}" ` +
    `text-anchor="middle"${at}>${colour}</text>`;
}

// a captured piece where it stood, for the last move's marks (app.js crosses it out)
export function ghost(token, p, L) {
  return pieceSvg(token, p, "", null, L);
}

export function draw(position, L) {
  const g = L.grid;
  const [seaX, seaY, seaWidth, seaHeight] = L.sea;
  const out = [`<rect x="0" y="0" width="${L.width}" height="${L.height}" fill="${S.background}"/>`,
    `<rect x="${seaX}" y="${seaY}" width="${seaWidth}" height="${seaHeight}" rx="10" fill="${SEA}"/>`];
  const fills = landColours(g);
  for (const p of L.points.values()) {
    out.push(`<rect x="${p.x - CELL / 2}" y="${p.y - CELL / 2}" width="${CELL}" height="${CELL}" ` +
      `fill="${fills[g.land[p.r][p.c]]}"/>`);
  }
  // each territory's letter, faint, near its middle
  const byLetter = {};
  for (const p of L.points.values()) (byLetter[g.land[p.r][p.c]] ||= []).push(p);
  const labelled = new Set();
  for (const [letter, pts] of Object.entries(byLetter)) {
    const free = pts.filter((p) => g.board[p.r][p.c] === ".");
    const pool = free.length ? free : pts;
    const cx = pool.reduce((s, p) => s + p.x, 0) / pool.length;
    const cy = pool.reduce((s, p) => s + p.y, 0) / pool.length;
    const at = pool.reduce((a, b) => (Math.hypot(b.x - cx, b.y - cy) < Math.hypot(a.x - cx, a.y - cy) ? b : a));
    labelled.add(at);
    out.push(`<text x="${at.x}" y="${at.y + 11}" font-size="32" fill="${S.letter}" fill-opacity="0.16" ` +
      `font-weight="bold" text-anchor="middle">${letter}</text>`);
  }
  for (const p of L.points.values()) {
    if (g.board[p.r][p.c] === "." && !labelled.has(p)) {
      out.push(`<circle cx="${p.x}" cy="${p.y}" r="2.5" fill="${S.point}"/>`);
    }
  }
  // borders between territories (dashed) and the shore (thick): a square's side towards
  // each neighbour in the grid, where that neighbour is on the screen
  const thin = [], thick = [];
  const h = CELL / 2;
  for (const p of L.points.values()) {
    const here = g.land[p.r][p.c];
    for (const [dr, dc] of [[-1, 0], [0, 1], [1, 0], [0, -1]]) {
      const n = (g.land[p.r + dr] || [])[p.c + dc];
      const [dx, dy] = onScreen(L, dr, dc);
      const d = dx ? `M${p.x + dx * h},${p.y - h} L${p.x + dx * h},${p.y + h}` :
        `M${p.x - h},${p.y + dy * h} L${p.x + h},${p.y + dy * h}`;
      if (n === undefined || n === "-") thick.push(d);
      else if (n !== here && (dr === -1 || dc === 1)) thin.push(d);
    }
  }
  if (thin.length) out.push(`<path d="${thin.join(" ")}" stroke="${BORDER}" stroke-width="1.5" stroke-dasharray="4 3" fill="none"/>`);
  out.push(`<path d="${thick.join(" ")}" stroke="${SHORE}" stroke-width="3.5" stroke-linecap="round" fill="none"/>`);
  // the pieces
  for (const [name, p] of L.points) {
    const token = g.board[p.r][p.c];
    if (token !== ".") out.push(pieceSvg(token, p, `class="piece ${token.startsWith("T") ? "tower" : "viking"}"`, name, L));
  }
  // coordinates: those in a row under or over the island centred on their line (the columns'
  // letters below it; on an island turned a quarter, the rows' numbers above it), those in a
  // column left of it ending before it, 5 below the middle of their line for size 13
  const size = fontSize(L, 13);
  const [across, down] = L.turn === 90 ? [L.row_labels, L.column_labels] : [L.column_labels, L.row_labels];
  for (const label of across) {
    out.push(`<text x="${label.x}" y="${label.y}" font-size="${size}" fill="${S.coordinates}" text-anchor="middle">` +
      `${label.text}</text>`);
  }
  for (const label of down) {
    out.push(`<text x="${label.x}" y="${label.y - 5 + 5 * size / 13}" font-size="${size}" fill="${S.coordinates}" ` +
      `text-anchor="end">${label.text}</text>`);
  }
  // a line per colour
  const settle = position.phase === "settle";
  const pieces = counts(position);
  colours(position).forEach((colour, line) => {
    const c = pieces[colour];
    const y = L.legend.lines[line];
    const off = 18 - c.vikings;
    const text = `colour ${colour}: ${counted(c.vikings, "Viking")} on the island, ${off} ${settle ? "in hand" : "lost"}; ` +
      `${counted(c.towers, "tower")} on the island, ${3 - c.towers} in hand`;
    const short = `colour ${colour}: ${counted(c.vikings, "Viking")}, ${off} ${settle ? "in hand" : "lost"}; ` +
      `${counted(c.towers, "tower")}, ${3 - c.towers} in hand`;
    out.push(`<circle cx="${L.legend.key}" cy="${y - 5}" r="7" fill="${PIECE[colour]}" stroke="${STROKE}"/>`);
    // on a phone, at a legible size, the shorter words; the whole line its title (app.js fitTexts)
    out.push(`<g><title>${text}</title><text x="${L.legend.text}" y="${y}" font-size="${fontSize(L, 12.5)}" ` +
      `data-room="${L.width - L.legend.text - 4}" data-short="${short}">${text}</text></g>`);
  });
  return out.join("\n");
}

export function status(position, show) {
  const phase = {
    settle: "settle: click two free points for your Vikings",
    brawl: "brawl: click the opposing Vikings to remove",
    towers: "towers: click where each tower goes",
    play: "play: click a Viking of yours, then where it goes (then where it goes on, where towers go)",
  }[position.phase] || position.phase;
  const teams = position.variant === "battle-for-two" ? "Battle for two: player 1 plays colours 1 and 3, player 2 colours 2 and 4. " :
    position.players === 4 ? "Seats 1 and 3 against 2 and 4. " : "";
  const quiet = position.phase === "play" && position.history ?
    ` Quiet plies: ${position.history.quiet_plies || 0} (a draw at ${(position.rules || {}).draw_after || 200}).` : "";
  // the rules not at their defaults, in the server's words (show --json's `rules`: the text's and pictures')
  const rules = (show && show.rules) || "";
  return `${teams}Phase ${phase}.${quiet}${rules ? ` ${rules[0].toUpperCase()}${rules.slice(1)}.` : ""}`;
}

function pointOf(text) {
  return text.replace(/=\d$/, "").toLowerCase();
}

export function tokens(move, position) {
  if (move === "pass") return { tokens: ["pass"], ordered: true };
  if (move.includes("+")) return { tokens: move.split("+").map(pointOf), ordered: false };
  const parts = move.split(" ");
  if (parts.every((p) => p.startsWith("x"))) return { tokens: parts.map((p) => p.slice(1)), ordered: false };
  if (position.phase === "towers") return { tokens: parts.map((p) => p.replace("T@", "")), ordered: false };
  const out = [];
  for (const part of parts) {
    if (part.startsWith("T@")) out.push(part.slice(2));
    else if (part === "pass") out.push("pass");
    else {
      const [from, to] = part.split("-");
      if (out[out.length - 1] !== from) out.push(from);
      out.push(to);
    }
  }
  return { tokens: out, ordered: true };
}

// The parts of `move` (its space-separated movements and placements) that
// the first `count` clicks of it make whole, as tokens() counts them.
function partsClicked(move, count) {
  const out = [];
  let used = 0, at = null;
  for (const part of move.split(" ")) {
    let need = 1;
    if (part.includes("-")) {
      const [from, to] = part.split("-");
      need = from === at ? 1 : 2;
      at = to;
    } else {
      at = part.startsWith("T@") ? part.slice(2) : part;
    }
    if (used + need > count) break;
    used += need;
    out.push(part);
  }
  return out;
}

// The play turn the clicks have made so far (app.js draws it while the
// player goes on clicking), read from the legal moves alone: the movements
// that every move the clicks fit (`moves`) begins with, once they hold at
// least one. {from, at, piece, landings}: where the Viking started, where it
// stands now, its token, the points it landed on (start first); `stop`: a
// legal move that ends the turn right there (the same movements, then at
// most tower placements), whose account the server gives (the route, what
// the landings captured). Null before the first movement is whole, and
// outside the play phase.
export function turnSoFar(clicks, moves, legal, position, L) {
  if (position.phase !== "play" || !moves.length) return null;
  let common = null;
  for (const move of moves) {
    const parts = partsClicked(move, clicks.length);
    if (common === null) common = parts;
    else {
      let k = 0;
      while (k < common.length && k < parts.length && common[k] === parts[k]) k++;
      common = common.slice(0, k);
    }
  }
  const last = common.map((part) => part.includes("-")).lastIndexOf(true);
  if (last < 0) return null;
  const head = common.slice(0, last + 1);
  const movements = head.filter((part) => part.includes("-"));
  const landings = [movements[0].split("-")[0], ...movements.map((part) => part.split("-")[1])];
  const from = landings[0];
  const stop = legal.find((move) => {
    const parts = move.split(" ");
    return parts.length >= head.length && head.every((part, i) => parts[i] === part) &&
      parts.slice(head.length).every((part) => part.startsWith("T@"));
  });
  return { from, at: landings[landings.length - 1], piece: tokenAt(position, L, from), landings,
           stop: stop || head.join(" ") };
}

export function describe(move) {
  const colours = [...move.matchAll(/=(\d)/g)].map((m) => m[1]);
  if (colours.length) return `colours ${colours.join(" and ")}`;
  return "";
}

export function shapes(move, position, L) {
  const at = (name) => L.points.get(pointOf(name));
  const out = [];
  if (move === "pass") return out;
  if (move.includes("+")) {
    for (const p of move.split("+")) if (at(p)) out.push({ kind: "ring", at: at(p) });
    return out;
  }
  for (const part of move.split(" ")) {
    if (part.startsWith("x") && at(part.slice(1))) out.push({ kind: "cross", at: at(part.slice(1)) });
    else if (part.startsWith("T@") && at(part.slice(2))) out.push({ kind: "square", at: at(part.slice(2)) });
    else if (part.includes("-")) {
      const [a, b] = part.split("-");
      if (at(a) && at(b)) out.push({ kind: "arrow", from: at(a), to: at(b) });
    }
  }
  return out;
}

// the pieces the best suggested turn captures, crossed out where they stand: the points are the
// server's (each suggestion's `captured` in the analysis answer, Position.describe's account, which
// knows a tower placed as the anvil); the page works out no capture itself
export function captureShapes(points, L) {
  return points.filter((name) => L.points.get(name)).map((name) => ({ kind: "capture", at: L.points.get(name), point: name }));
}

// the line under the suggestions that says what the engine's marks on the island mean, as the
// analysis picture's key does (render/claim.py's analysis_key): only the best turn's captures are
// crossed, the others' are said here. Empty before the answer gives the captures, and outside the
// play phase (only a play turn captures)
export function marksKey(suggestions, position) {
  if (position.phase !== "play" || !suggestions.length || !suggestions.every((s) => Array.isArray(s.captured))) return "";
  const [best] = suggestions;
  const head = "Key: the magenta marks (1) are the best turn (an arrow a movement, a square a tower placed); " +
    (best.captured.length ? `a magenta cross: a piece the best turn captures (${listed(best.captured)})` :
      "the best turn captures nothing") + ". Hovering another row draws its turn, without crosses";
  // the others by rank (the table's #), those that capture the same points together
  const groups = new Map();
  suggestions.forEach((s, i) => {
    if (i === 0 || !s.captured.length) return;
    const points = listed(s.captured);
    groups.set(points, [...(groups.get(points) || []), String(i + 1)]);
  });
  const others = [...groups].map(([points, ranks]) => `${ranks.length > 1 ? `ranks ${listed(ranks)} capture` :
    `rank ${ranks[0]} captures`} ${points}`);
  if (suggestions.length === 1) return `${head}.`;
  return others.length ? `${head}; the other turns' captures are not crossed: ${others.join("; ")}.` :
    `${head}; the other turns capture nothing.`;
}

const pieceWords = (token) => (token.startsWith("T") ? `a tower of colour ${token.slice(1)}` :
  `a Viking of colour ${token}`);

function tokenAt(position, L, name) {
  const p = L.points.get(name);
  return p ? L.grid.board[p.r][p.c] : null;
}

function firstTokens(legal, position) {
  const out = new Set();
  for (const move of legal) {
    const t = tokens(move, position);
    if (t.ordered) out.add(t.tokens[0]);
    else t.tokens.forEach((x) => out.add(x));
  }
  return [...out].filter((x) => x !== "pass");
}

function some(points) {
  return points.length <= 10 ? points.join(", ") : `${points.slice(0, 10).join(", ")} and ${points.length - 10} more`;
}

// Why the clicks start no legal turn (app.js explainIllegal): {text} from the
// board where the position says it, {move} when the clicks make a whole
// movement (the server's reason), never a move the player did not click.
export function explain(clicks, position, legal, L) {
  const points = clicks.filter((c) => c !== "pass");
  if (!points.length) return null;
  const last = points[points.length - 1];
  const token = tokenAt(position, L, last);
  const occupied = token && token !== ".";
  const starts = firstTokens(legal, position);
  if (position.phase === "settle") {
    const partial = points.length === 1 ? `${last}+?` : points.join("+");
    if (occupied) {
      return { text: `move '${partial}': ${last} is occupied (${pieceWords(token)}), not free: ` +
        "Vikings settle on free points." };
    }
    return { text: `move '${partial}': no legal settle puts Vikings on ${listed(points)}.` };
  }
  if (position.phase === "brawl") {
    if (!occupied) return { text: `${last} is free: the brawl removes opposing Vikings; click them.` };
    if (token.startsWith("T")) return { text: `${last} holds ${pieceWords(token)}: the brawl removes Vikings only.` };
    const colour = Number(token);
    // the library's words (claim/notation.py, the brawl): own or an ally's, the cap, the count
    if (!opposing(position, position.to_move, colour)) {
      const whose = mineOf(position).includes(colour) ? "your own" : "your ally's";
      return { text: `${last} is ${whose} Viking (colour ${colour}): remove opposing Vikings.` };
    }
    const lost = VIKINGS - counts(position)[colour].vikings;
    const taking = points.filter((name) => tokenAt(position, L, name) === token).length;
    if (lost + taking > BRAWL_CAP) {
      return { text: `colour ${colour} has lost ${counted(lost, "Viking")}: the brawl cap of ${BRAWL_CAP} allows ` +
        `${Math.max(0, BRAWL_CAP - lost)} more, ${taking} given.` };
    }
    const quota = Math.max(0, ...legal.map((move) => (move === "pass" ? 0 : move.split(" ").length)));
    if (points.length > quota) return { text: `a brawl turn here removes ${counted(quota, "Viking")}.` };
    // a whole removal: the server's reason (rules.brawl "even": a later player left short)
    if (points.length === quota) return { move: points.map((name) => `x${name}`).join(" ") };
    // opposing, within the cap, yet in no legal removal with the clicks before: only rules.brawl
    // "even" refuses that (claim/rules.py brawl_quota and its "even" removals)
    const even = ((position.rules || {}).brawl || "even") === "even";
    return { text: `no legal removal takes ${listed(points)} together` + (even ?
      ': rules.brawl "even": every later player of the brawl must still be able to take 4 within the cap' : "") +
      (starts.includes(last) ? "." : ` (removable: ${some(starts)}).`) };
  }
  if (position.phase === "towers") {
    if (occupied) return { text: `${last} is occupied (${pieceWords(token)}): a tower goes on a free point (${some(starts)}).` };
    const why = noConquest(position, L, last, points);
    return { text: `no tower goes on ${last}${why ? `: ${why}` : ""}; the conquest check places towers on ${some(starts)}.` };
  }
  // the play phase: a Viking, where it goes, ...
  const mine = position.variant === "battle-for-two" ? [position.to_move, position.to_move + 2] : [position.to_move];
  if (points.length === 1) {
    const where = starts.length ? ` A turn starts at ${some(starts)}.` : "";
    if (!occupied) return { text: `${last} is free: click one of your Vikings first.${where}` };
    if (token.startsWith("T")) return { text: `${last} holds ${pieceWords(token)}: towers never move.${where}` };
    if (!mine.includes(Number(token))) {
      return { text: `${last} holds ${pieceWords(token)}, not yours (you move colour ${mine.join(" or ")}).${where}` };
    }
    const streak = ((position.history || {}).streak || {})[String(position.to_move)];
    if (streak && streak[0] === last && streak[1] >= 2 && (position.rules || {}).standstill !== "off") {
      return { text: `your Viking on ${last} moved in your last ${streak[1]} turns: the same Viking may not ` +
        `move three turns in a row (standstill).${where}` };
    }
    // a conquest at the turn's start: its towers are placed first, then the Viking moves
    const towersFirst = legal.filter((move) => move.startsWith("T@"));
    if (towersFirst.length && towersFirst.some((move) => move.split(" ").some((part) => part.startsWith(`${last}-`)))) {
      const first = [...new Set(towersFirst.map((move) => move.split(" ")[0].slice(2)))];
      const lands = [...new Set(first.map((name) => {
        const p = L.points.get(name);
        return p ? L.grid.land[p.r][p.c] : null;
      }).filter(Boolean))].sort();
      const one = lands.length === 1;
      return { text: `${one ? "territory" : "territories"} ${listed(lands)} ${one ? "is" : "are"} yours at the start ` +
        `of this turn: first click where ${one ? "its tower goes" : "their towers go"} (${some(first)}).` };
    }
    const p = L.points.get(last);
    const free = [[1, 0], [-1, 0], [0, 1], [0, -1]].some(([dr, dc]) => {
      const land = (L.grid.land[p.r + dr] || [])[p.c + dc];
      return land !== undefined && land !== "-" && L.grid.board[p.r + dr][p.c + dc] === ".";
    });
    // where the page cannot tell why, it says no more than the legal moves do (a single click is no
    // move the server could weigh)
    return { text: `your Viking on ${last} starts no legal turn` +
      (free ? "" : " (no free neighbouring point to step to, and no jump it may make)") + `.${where}` };
  }
  if (points.length === 2) return { move: `${points[0]}-${last}` };   // a movement clicked whole: the server's reason
  // the turn so far was legal; its next click is not
  const before = points.slice(0, -1);
  const next = new Set();
  const fitting = [];
  for (const move of legal) {
    const t = tokens(move, position);
    if (t.tokens.length > before.length && before.every((c, i) => t.tokens[i] === c)) {
      next.add(t.tokens[before.length]);
      fitting.push(move);
    }
  }
  const tower = towerDue(before, fitting, L);
  return { text: `after ${before.join(", ")} the turn does not go on at ${last}` +
    (tower ? `: ${tower}.` : next.size ? `: it goes on at ${some([...next])}.` : ".") };
}

// A tower the clicks of a play turn have made due: "b5-b6 conquers territory a: click where its
// tower goes (a4, a5, ...)", when every legal move the clicks fit (`moves`) goes on with a tower
// placement (the conquest check after the movement); else null.
function towerDue(clicks, moves, L) {
  if (!clicks.length || !moves.length) return null;
  const done = partsClicked(moves[0], clicks.length);
  const movements = done.filter((part) => part.includes("-"));
  if (!movements.length) return null;
  const next = new Set();
  for (const move of moves) {
    const parts = move.split(" ");
    const at = partsClicked(move, clicks.length).length;
    if (at !== done.length || !(parts[at] || "").startsWith("T@")) return null;
    next.add(parts[at].slice(2));
  }
  const lands = [...new Set([...next].map((name) => {
    const p = L.points.get(name);
    return p ? L.grid.land[p.r][p.c] : null;
  }).filter(Boolean))].sort();
  if (!lands.length) return null;
  const one = lands.length === 1;
  return `${movements.join(" ")} conquers ${one ? "territory" : "territories"} ${listed(lands)}: click where ` +
    `${one ? "its tower goes" : "their towers go"} (${some([...next])})`;
}

// What the page says while a turn's clicks go on (app.js clickToken), or null: a tower due.
export function prompt(clicks, moves, position, L) {
  if (position.phase !== "play") return null;
  const tower = towerDue(clicks.filter((c) => c !== "pass"), moves, L);
  return tower ? `${tower}.` : null;
}

const VIKINGS = 18;      // Vikings of a colour (claim/rules.py VIKINGS_PER_COLOUR)
const BRAWL_CAP = 4;     // no colour loses more than 4 Vikings in the brawl (claim/rules.py)

// the colours the player moves, and whether a colour opposes a seat's (claim/rules.py colours_of,
// team_of: with four colours in play odd colours are a team, even ones the other)
function mineOf(position) {
  return position.variant === "battle-for-two" ? [position.to_move, position.to_move + 2] : [position.to_move];
}

function opposing(position, seat, colour) {
  const team = (c) => (colours(position).length === 4 ? c % 2 : c);
  return team(seat) !== team(colour);
}

// why the conquest check puts no tower in the territory of `name` (claim/rules.py conquest_in),
// or null where the position does not say
function noConquest(position, L, name, clicked) {
  const here = L.points.get(name);
  const letter = L.grid.land[here.r][here.c];
  const mine = mineOf(position);
  const other = clicked.find((c) => c !== name && L.points.get(c) &&
    L.grid.land[L.points.get(c).r][L.points.get(c).c] === letter);
  if (other) return `territory ${letter} gets one tower, and ${other} is clicked for it`;
  const own = [], enemies = [];
  let tower = null;
  for (const [point, p] of L.points) {
    if (L.grid.land[p.r][p.c] !== letter) continue;
    const token = L.grid.board[p.r][p.c];
    if (token === ".") continue;
    const colour = Number(token.startsWith("T") ? token.slice(1) : token);
    if (token.startsWith("T")) {
      if (!opposing(position, position.to_move, colour)) tower = `${point} (colour ${colour})`;
    } else if (mine.includes(colour)) own.push(point);
    else if (opposing(position, position.to_move, colour)) enemies.push(`${point} (colour ${colour})`);
  }
  if (tower) return `your side has a tower in territory ${letter} already, on ${tower}`;
  if (!own.length) return `territory ${letter} holds no Viking of yours`;
  if (enemies.length) return `territory ${letter} holds opposing Vikings: ${some(enemies)}`;
  return null;
}

function listed(names) {
  return names.length === 1 ? names[0] : `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
}
