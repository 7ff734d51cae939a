// The analysis board: one page over the JSON API (/api/...).  The page knows
// no game by name: a game's board is drawn by /static/games/<game id>.js
// (loaded when a position of that game is first shown); a game without such
// a file is shown with the server's picture and its moves as buttons.  Its
// colours and sizes are the server's (style.js: GET /api/style), and so is
// where everything sits on a board (POST /api/layout, asked with each
// position: the game script's layout(position, served)), as the server's
// pictures use them.

import { fontSize, style } from "./style.js";
import { counted } from "./words.js";

const MARKS = style.marks;
const $ = (id) => document.getElementById(id);
// the element `id`, made (a `tag`, put in its place by `place(element)`) the first time it is asked for
function madeOnce(id, tag, place) {
  let element = $(id);
  if (!element) {
    element = document.createElement(tag);
    element.id = id;
    place(element);
  }
  return element;
}
const SVGNS = "http://www.w3.org/2000/svg";
// a count and its word, plural unless the count is 1: "1 move", "2 moves"

// --- the API --------------------------------------------------------------------------

class ApiError extends Error {
  constructor(status, message) { super(message); this.status = status; }
}

// fetch, with a network failure (the server stopped: the browser's "Failed to
// fetch") said in words; an aborted request stays an AbortError
const UNREACHABLE = "cannot reach the claimsolve server (stopped?): start `claimsolve serve` again, then retry";

async function reach(url, init) {
  try {
    return await fetch(url, init);
  } catch (e) {
    if (e.name === "AbortError") throw e;
    throw new ApiError(0, UNREACHABLE);
  }
}

async function api(path, body, options = {}) {
  const response = await reach(`/api/${path}`, {
    method: body === undefined ? "GET" : "POST",
    headers: body === undefined ? {} : { "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: options.signal,
  });
  const text = await response.text();
  if (!response.ok) {
    let message = text;
    try { message = JSON.parse(text).error; } catch (e) { /* not JSON */ }
    throw new ApiError(response.status, message || `HTTP ${response.status}`);
  }
  return options.raw ? text : JSON.parse(text);
}

// A streaming POST whose answer is server-sent events: onEvent(name, data).
async function apiEvents(path, body, signal, onEvent) {
  const response = await reach(`/api/${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "text/event-stream" },
    body: JSON.stringify(body),
    signal,
  });
  if (!response.ok) {
    const text = await response.text();
    let message = text;
    try { message = JSON.parse(text).error; } catch (e) { /* not JSON */ }
    throw new ApiError(response.status, message);
  }
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  for (;;) {
    let chunk;
    try {
      chunk = await reader.read();
    } catch (e) {                            // the server stopped in the middle of the answer
      if (e.name === "AbortError" || (signal && signal.aborted)) throw e;
      throw new ApiError(0, UNREACHABLE);
    }
    const { value, done } = chunk;
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let cut;
    while ((cut = buffer.indexOf("\n\n")) >= 0) {
      const block = buffer.slice(0, cut);
      buffer = buffer.slice(cut + 2);
      let name = "message";
      const data = [];
      for (const line of block.split("\n")) {
        if (line.startsWith("event: ")) name = line.slice(7);
        else if (line.startsWith("data: ")) data.push(line.slice(6));
      }
      onEvent(name, JSON.parse(data.join("\n")));
    }
  }
}

// --- state ----------------------------------------------------------------------------

const state = {
  games: [],
  maxTime: 30,
  line: [],          // the nodes of the line shown, from the root (line[0], move null) to its end
  index: 0,          // the entry shown
  // the moves are a tree (nodeOf): each node {id, position, move, label, parent, children, show, legal,
  // tokens, comment, eval, review}; children[0] is the main line, the others its variations
  evalSeat: 1,       // the seat the evaluation bar shows
  flipped: false,    // the board turned round
  review: null,      // {controller, result, nodes, done, total, timing}: the review of the main line
  clicks: [],        // the move being clicked together
  module: null,      // the game module of the position shown
  layout: null,      // its layout of the position shown: {points: Map name -> {x, y}, cell, ...}
  analysis: null,    // {controller, live, result, position}
  hovered: null,
  diceCount: 0,
  maxBody: 1024 * 1024,   // the bytes of a request the server reads (GET /api/games: max_body)
  fork: { node: null, child: null },   // at a move with several continuations: the one the right arrow takes
};

const modules = new Map();

async function moduleFor(game) {
  if (!modules.has(game)) {
    let module;
    try {
      module = await import(`/static/games/${encodeURIComponent(game)}.js`);
    } catch (e) {
      module = genericModule;
    }
    modules.set(game, module);
  }
  return modules.get(game);
}

// A game without a board script: the server's picture, moves as buttons.
const genericModule = {
  generic: true,
  layout: () => ({ points: new Map(), width: 10, height: 10, cell: 10 }),
  draw: () => "",
  tokens: (move) => ({ tokens: [move], ordered: true }),
  status: () => "",
};

const current = () => state.line[state.index];

// --- showing a position ---------------------------------------------------------------

async function loadEntry(entry) {
  if (!entry.show) {
    const [show, legal, layout] = await Promise.all([
      api("show", { position: entry.position }),
      api("moves", { position: entry.position }),
      api("layout", { position: entry.position }),
    ]);
    entry.show = show;
    entry.legal = legal;
    entry.layout = layout;       // where the board's things sit, in pixels: the server's rule (render/<game>.py)
    entry.tokens = null;
  }
  return entry;
}

async function showIndex(index, options = {}) {
  state.index = Math.max(0, Math.min(index, state.line.length - 1));
  followAddress();
  const entry = current();
  stopAnalysis();
  state.clicks = [];
  try {
    await loadEntry(entry);
  } catch (e) {
    setMessage(e.message, "error");
    return;
  }
  if (entry !== current()) return;           // another position was asked for meanwhile
  state.module = await moduleFor(entry.position.game);
  if (!entry.tokens) {
    entry.tokens = entry.legal.map((move) => ({ move, ...state.module.tokens(move, entry.position) }));
  }
  await drawBoard();
  applyFlip();
  renderStatus();
  renderActions();
  renderMoveList();
  moveReviewCursor();
  renderSeats(entry);
  clearSuggestions();
  if (!options.keepMessage) setMessage("");
  updateButtons();
  // the engine plays its seat after a move or a new game, not on undo/redo
  startAnalysis(Boolean(options.autoPlay));
}

async function drawBoard() {
  const entry = current();
  const svg = $("board");
  const module = state.module;
  if (module.generic) {
    const picture = await api("svg", { position: entry.position }, { raw: true });
    const doc = new DOMParser().parseFromString(picture, "image/svg+xml").documentElement;
    svg.setAttribute("viewBox", doc.getAttribute("viewBox") || "0 0 600 600");
    svg.replaceChildren(...Array.from(doc.childNodes).map((n) => document.importNode(n, true)));
    state.layout = { points: new Map(), cell: 10 };
    svg.style.minWidth = svg.style.minHeight = "";
    delete svg.dataset.turn;
    return;
  }
  // a frame narrower than the served picture's `narrow.below` CSS px (a phone): the served
  // picture's narrow form (Claim It!'s dice and standing under the board, not beside it), a
  // taller board; never on a screen held sideways, where the height is short and the frame narrow
  // only for the panels beside it
  const narrow = entry.layout.narrow;
  const served = narrow && !SIDEWAYS.matches && $("board-frame").clientWidth < narrow.below ?
    { ...entry.layout, ...narrow } : entry.layout;
  const layout = module.layout(entry.position, served);
  state.layout = layout;
  svg.setAttribute("viewBox", `0 0 ${layout.width} ${layout.height}`);
  // a wide Claim island on a phone, turned a quarter (its served narrow form): said on the board
  if (layout.turn) svg.dataset.turn = layout.turn;
  else delete svg.dataset.turn;
  layout.legible = fitBoard(layout, module);
  state.drawn = entry;
  let markup = module.draw(entry.position, layout, entry.show, entry.move);
  // the clickable points, above the pieces
  const cell = layout.cell;
  const targets = [];
  for (const [name, p] of layout.points) {
    const half = (layout.hit || cell) / 2;
    targets.push(`<rect class="point" data-point="${name}" x="${p.x - half}" y="${p.y - half}" ` +
                 `width="${2 * half}" height="${2 * half}" fill="#000" fill-opacity="0"><title>${name}</title></rect>`);
  }
  markup += `<g id="marks"></g><g id="turn-marks"></g><g id="hints"></g><g id="review-best"></g><g id="arrows"></g>` +
            `<g id="targets">${targets.join("")}</g>`;
  svg.innerHTML = markup;
  fitTexts(svg);
  drawSelection();
  drawBoardMarks();
}

// --- the board's size on the screen ----------------------------------------------------------
// A board fills its frame's width (a phone's whole width, docs/board.md "On a phone, ...") but
// never draws a space smaller than its game's minCell CSS px: a wider board (Color Claim's
// 64x1) scrolls sideways in its frame.  No text on it is drawn smaller than LEGIBLE CSS px:
// the drawing code sizes its texts with style.js fontSize, at least layout.legible, the
// board's units that show as LEGIBLE px.  A text too long for its room at that size (its
// data-room, in the board's units) takes its shorter words (data-short) or is left out;
// the drawing code keeps its words in a title.  A frame that changes size (a window
// resized or turned) draws the board anew.
const LEGIBLE = 10;
// a screen held sideways (a phone's 844x390): the panels beside the board (style.css)
const SIDEWAYS = matchMedia("(min-width: 641px) and (max-height: 500px)");
let fitted = null;              // the frame's width and the board's size when it was last drawn

function fitBoard(layout, module) {
  const svg = $("board");
  // (the min-height outweighs the max-height that keeps a board on a desktop's screen)
  const least = module.minCell ? module.minCell / layout.cell : 0;
  svg.style.minWidth = least ? `${Math.ceil(layout.width * least)}px` : "";
  // a board turned upright on a phone (a wide Claim island) is never so short that its points
  // are smaller than the module's tapCell CSS px: on a screen too low for it under the header its
  // foot goes below the screen's edge rather than its points shrink (docs/board.md, "On a phone")
  const tall = layout.turn && module.tapCell ? module.tapCell / layout.cell : least;
  svg.style.minHeight = tall ? `${Math.ceil(layout.height * tall)}px` : "";
  const box = svg.getBoundingClientRect();
  fitted = [$("board-frame").clientWidth, Math.round(box.width), Math.round(box.height)];
  const scale = Math.min(box.width / layout.width, box.height / layout.height);
  return scale > 0 ? LEGIBLE / scale : 0;
}

function fitTexts(svg) {
  for (const text of svg.querySelectorAll("text[data-room]")) {
    const room = Number(text.dataset.room);
    if (text.getComputedTextLength() <= room) continue;
    if (text.dataset.short) text.textContent = text.dataset.short;
    if (text.getComputedTextLength() > room) text.setAttribute("display", "none");
  }
  // none falls off the board's left edge (a Claim island's row 13, its label grown on a phone)
  for (const text of svg.querySelectorAll("text")) {
    const left = text.getBBox().x;
    if (left < 0) text.setAttribute("x", Number(text.getAttribute("x")) - left + 1);
  }
}

let refitting = false;
const boardResized = new ResizeObserver(() => {
  if (refitting || !fitted || !state.drawn || state.drawn !== current()) return;   // a position on its way is drawn as it comes
  const box = $("board").getBoundingClientRect();
  const now = [$("board-frame").clientWidth, Math.round(box.width), Math.round(box.height)];
  if (now.every((v, i) => v === fitted[i])) return;
  refitting = true;
  requestAnimationFrame(async () => {
    try {
      if (state.drawn === current()) {
        await drawBoard();
        applyFlip();
        drawArrows(arrowsShown());
      }
    } finally {
      refitting = false;
    }
  });
});
boardResized.observe($("board-frame"));
boardResized.observe($("board"));

function renderStatus() {
  const entry = current();
  const show = entry.show;
  const game = state.games.find((g) => g.id === entry.position.game);
  // the exact solver only where the game has one (Color Claim): offered to Claim, it was refused
  const solver = $("engine-kind").querySelector("option[value='solver']");
  solver.hidden = solver.disabled = Boolean(game) && !game.solve;
  if (solver.disabled && $("engine-kind").value === "solver") $("engine-kind").value = "auto";
  const title = game ? game.title : entry.position.game;
  let line;
  if (show.over && show.result) {
    line = `Game over: ${show.result}.`;
  } else if (show.over) {
    const winners = show.winners || [];
    line = winners.length === 1 ? `Game over: player ${winners[0]} wins.` :
      winners.length ? `Game over: players ${winners.join(", ")} share the win.` : "Game over.";
  } else {
    line = `Player ${show.to_move} to move.`;
  }
  // the game's words on how to move, not once it is over
  const sub = show.over ? "" : state.module.status(entry.position, show, entry.legal, entry.move) || "";
  $("status").innerHTML = `${escapeHtml(title)}: ${escapeHtml(line)}` +
    (sub ? `<span class="sub">${escapeHtml(sub)}</span>` : "");
}

function setMessage(text, kind = "info") {
  const box = $("message");
  box.textContent = text;
  box.className = text ? kind : "";
  if (text) promptClosed = false;
  showPrompt();
}

// --- the answer to a tap, in sight ------------------------------------------------------------
// Narrower than 640 px the board fills the screen and the message and the action buttons come
// under it, out of sight: a tap refused, or one that leaves a choice of moves, seemed to do
// nothing; so on a tablet, or in a window 1024 px wide, whose panels go under the board.  While a
// choice is pending (its buttons) or a message says what went wrong, the two are shown in a
// panel over the screen's foot (style.css #prompt.floating) on a phone, and elsewhere where their
// place is off the screen; over its top where the foot holds a point clicked; it goes once the
// choice is made or the clicks cleared, at the next tap, or with its close button (the message
// and the buttons then in their place).  Otherwise #prompt is no box at all: they stand where
// they stood.
let promptClosed = false;

function showPrompt() {
  const box = $("prompt");
  const choosing = Boolean($("actions").querySelector("button.move"));
  const refused = $("message").className === "error";
  const asking = !promptClosed && (choosing || refused);
  box.classList.toggle("asking", asking);
  box.classList.remove("floating");
  if (asking && (PHONE.matches || !inSight($("message"), $("actions")))) box.classList.add("floating");
  placePrompt();
}

// a phone's width: the answer to a tap always in its panel (style.css #prompt.floating)
const PHONE = matchMedia("(max-width: 640px)");

// whether the elements are whole within the window as they stand (the panels under the board of a
// tablet, or of a window 1024 px wide, put them below its foot)
function inSight(...elements) {
  return elements.every((e) => {
    const r = e.getBoundingClientRect();
    return !r.height || (r.top >= 0 && r.bottom <= innerHeight);
  });
}

function placePrompt() {
  const box = $("prompt");
  box.classList.remove("at-top");
  if (!box.classList.contains("floating")) return;
  const covered = () => {
    const r = box.getBoundingClientRect();
    return state.clicks.filter((name) => {
      const point = document.querySelector(`#board [data-point="${CSS.escape(name)}"]`);
      const p = point && point.getBoundingClientRect();
      return p && p.bottom > r.top && p.top < r.bottom;
    }).length;
  };
  const below = covered();
  if (!below) return;
  box.classList.add("at-top");
  if (covered() >= below) box.classList.remove("at-top");
}

function closePrompt() {
  promptClosed = true;
  showPrompt();
}

function updateButtons() {
  renderReviewObjectives(current().position);
  $("undo-button").disabled = state.index === 0;
  $("redo-button").disabled = state.index >= state.line.length - 1;
  // while a practice's try is judged the tree waits (a try deleted meanwhile, the take-back removed
  // the game's own move; a try promoted became the main line)
  const judging = practiceJudging();
  $("promote-button").disabled = judging || !inVariation(current());
  $("delete-button").disabled = judging || state.index === 0;
}

function practiceJudging() {
  return Boolean(state.practice && state.practice.status === "checking");
}

// --- the moves: a tree -------------------------------------------------------------------

let nodeCount = 0;
const nodes = new Map();        // id -> node, for the moves list's clicks

function makeNode(position, move, parent, label) {
  const node = { id: ++nodeCount, position, move, label: label || move, parent, children: [],
                 show: null, legal: null, tokens: null };
  nodes.set(node.id, node);
  return node;
}

// the child of `parent` reached by `move` (a new one, a variation when it has children already), and
// the line shown through it
function addChild(parent, position, move, label) {
  let child = parent.children.find((c) => c.move === move);
  if (!child) {
    child = makeNode(position, move, parent, label);
    parent.children.push(child);
    changed();
  }
  const at = state.line.indexOf(parent);
  state.line = state.line.slice(0, at + 1).concat(continuation(child));
  return child;
}

// the node and its main line after it
function continuation(node) {
  const out = [node];
  while (node.children.length) {
    node = node.children[0];
    out.push(node);
  }
  return out;
}

function pathTo(node) {
  const out = [];
  for (let n = node; n; n = n.parent) out.unshift(n);
  return out;
}

// shows `node`: the line through it, its main line after it
function goTo(node, options = {}) {
  const path = pathTo(node);
  const keep = state.line.indexOf(node) === path.length - 1 && path.every((n, i) => state.line[i] === n);
  if (!keep) state.line = path.concat(continuation(node).slice(1));
  return showIndex(path.length - 1, options);
}

const isMain = (node) => !node.parent || node.parent.children[0] === node;

function inVariation(node) {
  for (let n = node; n && n.parent; n = n.parent) if (!isMain(n)) return true;
  return false;
}

// the variation holding the node shown becomes its parent's main line
function promoteVariation() {
  if (practiceJudging()) return;
  let n = current();
  while (n.parent && isMain(n)) n = n.parent;
  if (!n.parent) return;
  const siblings = n.parent.children;
  const reviewed = reviewHolds(siblings[0]);
  siblings.splice(siblings.indexOf(n), 1);
  siblings.unshift(n);
  if (reviewed) closeStaleReview();
  changed();
  renderMoveList();
  updateButtons();
  setMessage(`Promoted ${n.label}: ${inVariation(n) ? "the main line of its variation" : "the main line"} now.`);
}

// the node shown and every move after it are deleted; the page shows the move before
function deleteFromHere() {
  const node = current();
  if (!node.parent || practiceJudging()) return;
  const parent = node.parent;
  parent.children.splice(parent.children.indexOf(node), 1);
  const gone = [];
  const drop = (n) => { gone.push(n); nodes.delete(n.id); n.children.forEach(drop); };
  const reviewed = reviewHolds(node);
  changed();
  drop(node);
  state.line = pathTo(parent).concat(continuation(parent).slice(1));
  if (reviewed) closeStaleReview();
  const after = gone.length - 1;
  setMessage(`Deleted ${node.label}${after ? ` and the ${after} move${after === 1 ? "" : "s"} after it` : ""}` +
             `${reviewed ? "; the review of the old main line is closed (review again)" : ""}.`);
  showIndex(state.line.indexOf(parent), { keepMessage: true });
}

const GRADE_MARKS = { inaccuracy: "?!", mistake: "?", blunder: "??" };

function moveElement(node, tag, ply, numbered) {
  const el = document.createElement(tag);
  el.dataset.id = node.id;
  el.dataset.label = node.label;
  el.classList.add("move");
  if (numbered) {
    const number = document.createElement("span");
    number.className = "ply";
    number.textContent = `${ply}.`;
    el.append(number, " ");
  }
  el.append(node.label);
  // what the move captured (the server's account), as a mark after it and in its title
  const taken = capturedBy(node.lastMove && node.lastMove.played);
  if (taken.length) {
    el.dataset.captured = taken.join(" ");
    el.title = `${node.label} captures ${taken.join(", ")}`;
  }
  const review = node.review || node.eval;
  if (review && review.grade) {
    const mark = GRADE_MARKS[review.grade];
    if (mark) {
      const span = document.createElement("span");
      // an estimated grade (not proven) is underlined with dots: it may change with a longer review
      span.className = `grade ${review.grade}${review.exact ? "" : " estimated"}`;
      span.textContent = mark;
      el.append(span);
    }
    el.title = (el.title ? el.title + "\n" : "") + gradeWords(review, gradesOf(node));
  }
  if (node.comment) el.title = (el.title ? el.title + "\n" : "") + node.comment;
  if (node === current()) el.classList.add("current");
  const at = state.line.indexOf(node);
  if (at > state.index) el.classList.add("future");
  return el;
}

// `result`: what the grade's values are ({unit, graph}: the review's, or a loaded record's grades',
// gradesOf), for the loss's unit; none: the loss alone
function gradeWords(m, result = null) {
  if (m.loss === undefined) return m.grade;
  const unit = result && result.unit ? ` ${lossUnit(result.unit, m.loss)}` : "";
  const reason = gradeReason(m, result);
  const why = reason ? ` (${reason}: a ${m.grade} whatever the loss)` : "";
  // a record's grades by a measure it does not name (Claim It!): the unit review grades it by by default
  const assumed = result && result.assumed ? "; in the unit of review's default measure for this game (the " +
    "record does not name the measure of its grades)" : "";
  // (not while a practice asks for a better move: the tooltip gave the answer away)
  const named = m.best && m.best !== m.move && !state.practice;
  const ofBest = named ? bestLine(m) : null;
  const line = ofBest && ofBest.length > 1 ? ` (its line: ${lineText(ofBest)})` : "";
  const best = named ? `; the engine's ${m.best}${line}` : "";
  // an estimated loss says so: the engine's move at a short review time may be one a longer analysis
  // proves worse than the move played
  const how = m.exact ? " (exact)" : m.forced ? "" : " (estimated, not proven)";
  // a Claim It! roll valued by a lower bound (the rest of the turn cut at d more rolls) may lose less
  const cut = m.loss > 0 && /^roll/.test(m.move) && m.method ? /at most (\d+) more roll/.exec(m.method) : null;
  const bound = cut ? `; rolling valued by a lower bound (the rest of the turn cut at ${cut[1]} more roll` +
    `${cut[1] === "1" ? "" : "s"}): it may lose less` : "";
  return `${m.grade}${m.forced ? " (forced)" : ""}: loss ${m.loss}${unit}${why}${best}${how}${bound}${assumed}`;
}

// a variation: "(ply. move move ...)", its own variations nested
function variationElement(first, ply) {
  const box = document.createElement("span");
  box.className = "variation";
  box.append("(");
  let node = first;
  let k = ply;
  while (node) {
    box.append(moveElement(node, "span", k, true), " ");
    if (node !== first && node.parent.children[0] === node) {
      for (const other of node.parent.children.slice(1)) box.append(variationElement(other, k));
    }
    node = node.children[0];
    k += 1;
  }
  box.append(")");
  return box;
}

function renderMoveList() {
  const list = $("move-list");
  const root = state.line[0];
  if (!root) return;
  const items = [];
  const start = document.createElement("li");
  start.dataset.id = root.id;
  start.dataset.label = "start";
  start.textContent = "start";
  start.className = "start";
  if (current() === root) start.classList.add("current");
  items.push(start);
  let node = root.children[0];
  let ply = 1;
  let mover = null;
  while (node) {
    const li = moveElement(node, "li", ply, false);
    // who moved, where a turn begins (a Claim It! turn is many moves: roll, place, ..., stop)
    const seat = node.parent.position.to_move;
    if (seat !== undefined && seat !== mover) {
      li.dataset.seat = `P${seat}`;          // drawn by the style sheet, before the move
      mover = seat;
    }
    items.push(li);
    if (node.parent.children.length > 1) {
      const li = document.createElement("li");
      li.className = "variations";
      for (const other of node.parent.children.slice(1)) li.append(variationElement(other, ply), " ");
      items.push(li);
    }
    node = node.children[0];
    ply += 1;
  }
  list.replaceChildren(...items);
  // room for the numbers the list reaches ("155." cut to ".55." in 28 px)
  list.style.paddingLeft = `${String(ply - 1).length * 0.62 + 1.1}em`;
  // the list scrolled to the move shown, not the page: on a phone the list is under a tall
  // board (a wide Claim island turned, docs/board.md), and scrollIntoView scrolled the page
  // down to it at every move, the board out of sight
  const shown = list.querySelector(".current");
  if (shown) {
    const box = list.getBoundingClientRect(), item = shown.getBoundingClientRect();
    if (item.top < box.top) list.scrollTop -= box.top - item.top;
    else if (item.bottom > box.bottom) list.scrollTop += Math.min(item.bottom - box.bottom, item.top - box.top);
  }
  renderFork();
}

// --- going through the moves with the keys, as on lichess's analysis board ---------------------

// The continuation the right arrow takes from the move shown: where it has several (a fork), the one
// the up and down arrows chose (drawn under the moves, as lichess's fork box), else the one on the
// line shown.
function forkChild() {
  const node = current();
  if (!node) return null;
  if (state.fork.node === node && node.children.includes(state.fork.child)) return state.fork.child;
  const next = state.line[state.index + 1];
  return next && next.parent === node ? next : node.children[0] || null;
}

// up (-1) or down (+1) at a fork: the next continuation chosen, round the list; false where there is
// no fork (the arrow goes to the first or last move instead)
function chooseFork(step) {
  const node = current();
  if (!node || node.children.length < 2) return false;
  const kids = node.children;
  const at = kids.indexOf(forkChild());
  state.fork = { node, child: kids[(at + step + kids.length) % kids.length] };
  renderFork();
  return true;
}

function renderFork() {
  const box = $("fork");
  const node = current();
  if (!box) return;
  if (!node || node.children.length < 2) {
    box.hidden = true;
    box.replaceChildren();
    return;
  }
  const chosen = forkChild();
  const head = document.createElement("span");
  head.className = "fork-head";
  head.textContent = "next:";
  const choices = node.children.map((child) => {
    const b = document.createElement("button");
    b.type = "button";
    b.dataset.id = child.id;
    b.textContent = child.label;
    b.title = isMain(child) ? "the main line" : "a variation";
    if (child === chosen) b.classList.add("chosen");
    return b;
  });
  const hint = document.createElement("span");
  hint.className = "hint";
  hint.textContent = "\u2191 \u2193 choose, \u2192 plays it";
  box.replaceChildren(head, ...choices, hint);
  box.hidden = false;
}

function stepBack() {
  if (state.index > 0) return showIndex(state.index - 1);
}

// forward one move: the continuation chosen at a fork, else the line shown's next move
function stepForward() {
  const child = forkChild();
  if (child) return goTo(child);
}

const firstMove = () => showIndex(0);
const lastMove = () => showIndex(state.line.length - 1);   // the end of the line shown

// lichess's previous branch: back to the last move before this one with several continuations
// (or the start)
function previousBranch() {
  let node = current().parent;
  while (node && node.parent && node.children.length < 2) node = node.parent;
  if (node) return goTo(node);
}

// lichess's next branch: on to the next move with several continuations along the way ahead (through
// the continuation chosen here), else to the end of that way
function nextBranch() {
  const child = forkChild();
  if (!child) return;
  const ahead = state.line[state.index + 1] === child ? state.line.slice(state.index + 1) : continuation(child);
  return goTo(ahead.find((n) => n.children.length > 1) || ahead[ahead.length - 1]);
}

// lichess's previous/next line: the line beside the one shown, at the nearest fork it leaves (the
// sibling continuations of that fork, round the list), shown from its first move
function stepLine(step) {
  let child = current();
  let fork = child.parent;
  while (fork && fork.children.length < 2 && inVariation(fork)) {
    child = fork;
    fork = fork.parent;
  }
  if (!fork || fork.children.length < 2) return;
  const kids = fork.children;
  return goTo(kids[(kids.indexOf(child) + step + kids.length) % kids.length]);
}

function toggleKeys() {
  const help = $("keys-help");
  help.open = !help.open;
  if (help.open) help.scrollIntoView({ block: "nearest" });
}

// the keys: [key, shift held] -> what it does (docs/board.md, the page's "Keys")
const KEYS = {
  "ArrowLeft": stepBack, "k": stepBack,
  "ArrowRight": stepForward, "j": stepForward,
  "ArrowUp": () => chooseFork(-1) || firstMove(),
  "ArrowDown": () => chooseFork(1) || lastMove(),
  "Home": firstMove, "0": firstMove,
  "End": lastMove, "$": lastMove,
  "shift+ArrowLeft": previousBranch, "K": previousBranch,
  "shift+ArrowRight": nextBranch, "J": nextBranch,
  "shift+ArrowUp": () => stepLine(-1),
  "shift+ArrowDown": () => stepLine(1),
  "f": () => flipBoard(),
  "?": toggleKeys,
};

// --- clicking moves together ------------------------------------------------------------

function isPoint(token) {
  return state.layout && state.layout.points.has(token);
}

function candidates(clicks) {
  const entry = current();
  return entry.tokens.filter((t) => matches(t, clicks));
}

function matches(t, clicks) {
  if (clicks.length > t.tokens.length) return false;
  if (t.ordered) return clicks.every((c, i) => t.tokens[i] === c);
  const left = [...t.tokens];
  for (const c of clicks) {
    const at = left.indexOf(c);
    if (at < 0) return false;
    left.splice(at, 1);
  }
  return true;
}

function nextTokens(cands, clicks) {
  const next = new Set();
  for (const t of cands) {
    if (t.ordered) {
      if (t.tokens.length > clicks.length) next.add(t.tokens[clicks.length]);
    } else {
      const left = [...t.tokens];
      for (const c of clicks) left.splice(left.indexOf(c), 1);
      left.forEach((x) => next.add(x));
    }
  }
  return next;
}

async function clickToken(token) {
  const entry = current();
  promptClosed = false;
  if (entry.show.over) {
    setMessage("The game is over: no move is legal.", "error");
    return;
  }
  const chosen = state.clicks;      // the clicks before this one (another click may come meanwhile)
  let clicks = [...state.clicks];
  const ordered = (current().tokens[0] || {}).ordered;
  // a second click on a point already chosen takes it back: any of them where the order does
  // not count (brawl removals), the last one where it does (a piece picked up is put down)
  if (isPoint(token) && (ordered ? clicks[clicks.length - 1] === token : clicks.includes(token))) {
    clicks.splice(clicks.lastIndexOf(token), 1);
    state.clicks = clicks;
    setMessage("");
    drawSelection();
    renderActions();
    return;
  }
  clicks.push(token);
  let cands = candidates(clicks);
  if (!cands.length && ordered && clicks.length > 1 && candidates([token]).length) {
    // a click on another piece that moves picks that one up instead (as on lichess), rather
    // than sending a move from the first to it
    clicks = [token];
    cands = candidates(clicks);
  }
  if (!cands.length) {
    await explainIllegal(clicks);
    // the refused click alone is dropped: the clicks before it stay chosen (a piece picked up, a
    // turn's landings), so a wrong click in the middle of a turn does not throw the turn away
    if (current() === entry && state.clicks === chosen) state.clicks = clicks.slice(0, -1);
    drawSelection();
    renderActions();
    return;
  }
  state.clicks = clicks;
  const complete = cands.filter((t) => t.tokens.length === clicks.length);
  if (complete.length === 1 && cands.length === 1) {
    if (!await playMove(complete[0].move) && current() === entry && state.clicks === clicks) {
      // not played (refused, or the server out of reach): the last click is taken back, the
      // rest stays chosen, so the same click tries the move again
      state.clicks = clicks.slice(0, -1);
      drawSelection();
      renderActions();
    }
    return;
  }
  // what the clicks leave to do, where the game's module says (a Claim tower due: where it goes)
  const due = state.module.prompt ? state.module.prompt(clicks, cands.map((t) => t.move), entry.position,
                                                        state.layout) : null;
  setMessage(complete.length ? "Choose the move below, or go on clicking." : due || "");
  drawSelection();
  renderActions();
}

// Clicks that start no legal move.  The game's module explains them in words
// (`explain`: {text}) from the position and its legal moves, or names the move
// the clicks wholly make ({move}: the server says why it is illegal); a move
// is never made up to have something to send.
async function explainIllegal(clicks) {
  const entry = current();
  const module = state.module;
  const why = module.explain ? module.explain(clicks, entry.position, entry.legal, state.layout) : null;
  if (why && why.text) {
    setMessage(`Illegal: ${why.text}`, "error");
    return;
  }
  if (why && why.move) {
    try {
      const answer = await api("check", { position: entry.position, moves: [why.move] });
      // legal after all (a move the clicks cannot tell apart): play it
      if (answer.legal) await playMove(why.move);
      else setMessage(`Illegal: ${answer.error}`, "error");
    } catch (e) {
      setMessage(e.message, "error");
    }
    return;
  }
  const starts = [...nextTokens(entry.tokens, [])].filter(isPoint);
  const hint = starts.length && starts.length <= 12 ? ` A move starts at ${starts.join(", ")}.` : "";
  setMessage(`Illegal: no legal move goes ${clicks.join(", ")}.${hint}`, "error");
}

// a move being checked by the server: a second click meanwhile (a double
// click on "roll") would play a second move from the same position
let moveInFlight = false;

async function playMove(move, options = {}) {
  if (moveInFlight) {
    // (a practice's try holds the move in flight while it is judged: the move clicked now is not played)
    if (practiceJudging() && !options.engine) setMessage("Wait: the move tried is being judged.", "error");
    return false;
  }
  moveInFlight = true;
  try {
    return await checkedMove(move, options);
  } finally {
    moveInFlight = false;
  }
}

async function checkedMove(move, options) {
  const entry = current();
  const body = { position: entry.position, moves: [move] };
  if (options.seed !== undefined && options.seed !== null) body.seed = options.seed;
  let next, answer;
  try {
    answer = await api("check", body);
    if (!answer.legal) {
      setMessage(`Illegal: ${answer.error}`, "error");
      return false;
    }
    next = answer.position;
  } catch (e) {
    setMessage(e.message, "error");
    return false;
  }
  if (entry !== current()) return false;     // the player went to another position meanwhile
  // the move as a record writes it: a bare roll with the dice the server drew
  const recorded = (answer.moves && answer.moves[0]) || move;
  let played = recorded;
  if (options.describe) played = options.describe(next, recorded) || move;
  if (recorded !== move && played === move) played = recorded;
  // practising a reviewed game's mistakes: a try at the position asked is judged, never added to the main line
  if (practiceAsks(entry) && !options.engine) return practiseTry(entry, answer, recorded, played);
  const child = addChild(entry, next, recorded, played);
  // the server's account of the move, for its marks on the board (drawBoardMarks)
  if (answer.played) child.lastMove = { played: answer.played, report: answer.report };
  // a move of the engine's: its words, for the message that reports every engine move since the
  // player's last one (a captured Viking never vanishes without a word): the server's account of
  // what it did, as the "Last move" line says it ("e3-e4 captures the tower T3 on e5 (T2 takes its
  // point)"); the move and its captures where the server gave none
  child.engineWords = options.engine ?
    { seat: options.engine, words: answer.report || engineWords(played, answer.played) } : null;
  if (options.engine) options.message = engineReport(child);
  await showIndex(state.index + 1, { autoPlay: true, keepMessage: Boolean(options.message) });
  if (options.message) setMessage(options.message);
  return true;
}

function drawSelection() {
  const hints = document.getElementById("hints");
  const marks = document.getElementById("marks");
  if (!hints || !marks || !state.layout) return;
  const cell = state.layout.cell;
  const chosen = [];
  for (const c of state.clicks) {
    const p = state.layout.points.get(c);
    if (p) chosen.push(`<rect x="${p.x - cell / 2 + 2}" y="${p.y - cell / 2 + 2}" width="${cell - 4}" ` +
                       `height="${cell - 4}" rx="5" fill="none" stroke="${MARKS.selection}" stroke-width="4"/>`);
  }
  marks.innerHTML = chosen.join("");
  const dots = [];
  if (state.clicks.length) {
    for (const token of nextTokens(candidates(state.clicks), state.clicks)) {
      const p = state.layout.points.get(token);
      if (p) dots.push(`<circle cx="${p.x}" cy="${p.y}" r="${cell * 0.14}" fill="${MARKS.selection}" fill-opacity="0.55"/>`);
    }
  }
  hints.innerHTML = dots.join("");
  drawTurnSoFar();
}

// What the clicks of a turn have done so far (a Claim Viking's movement and
// continuations while the player picks the next): the Viking drawn where it
// now stands, its start faded, its route, and what its landings captured
// crossed out.  Where it went comes from the legal moves the clicks fit
// (the module's turnSoFar); the route and the captures from the server's
// account of the legal move that ends the turn right there (/api/check,
// asked once a move string), as the last move's marks come from it: the
// page never works out a capture itself.  No clicks, no marks.
function drawTurnSoFar() {
  const svg = $("board");
  const layer = document.getElementById("turn-marks");
  if (!layer) return;
  for (const el of svg.querySelectorAll(".turn-left, .turn-taken")) el.classList.remove("turn-left", "turn-taken");
  const entry = current();
  const so = state.clicks.length && state.module.turnSoFar && entry && entry.legal ?
    state.module.turnSoFar(state.clicks, candidates(state.clicks).map((t) => t.move), entry.legal,
                           entry.position, state.layout) : null;
  const under = svg.querySelector("#turn-route");
  if (!so) {
    layer.innerHTML = "";
    if (under) under.innerHTML = "";
    return;
  }
  const L = state.layout;
  const cell = L.cell;
  const turns = entry.turnsSoFar || (entry.turnsSoFar = new Map());
  if (!turns.has(so.stop)) askTurnSoFar(entry, so.stop);
  const played = turns.get(so.stop) || null;         // null: not answered (yet)
  const route = (played && played.route && played.route.length > 1 ? played.route : []).map((n) => L.points.get(n));
  let line = "";
  if (route.length > 1 && route.every(Boolean)) {
    // under the pieces, as the last move's route: the pieces jumped over stay readable
    line = `<polyline class="turn-route" data-route="${played.route.join(" ")}" ` +
      `points="${route.map((p) => `${p.x},${p.y}`).join(" ")}" fill="none" stroke="${MARKS.selection}" ` +
      `stroke-width="${cell * 0.09}" stroke-linecap="round" stroke-linejoin="round" stroke-opacity="0.7" ` +
      `stroke-dasharray="${cell * 0.2} ${cell * 0.12}"/>`;
    for (const p of route.slice(1, -1)) {
      line += `<circle cx="${p.x}" cy="${p.y}" r="${cell * 0.1}" fill="${MARKS.selection}" fill-opacity="0.7"/>`;
    }
  }
  marksLayer(svg, "turn-route", svg.querySelector(".piece, .marker") || layer).innerHTML = line;
  const out = [];
  for (const gone of (played && played.removed) || []) {
    const p = L.points.get(gone.point);
    if (!p) continue;
    for (const el of svg.querySelectorAll(`[data-at="${gone.point}"]`)) el.classList.add("turn-taken");
    const r = cell * 0.3;
    out.push(`<g class="turn-captured" data-mark="${gone.point}" data-piece="${escapeHtml(gone.piece || "")}">` +
      `<title>${escapeHtml(`captured so far: ${gone.point} (${gone.piece})`)}</title>` +
      `<path d="M${p.x - r},${p.y - r} L${p.x + r},${p.y + r} M${p.x - r},${p.y + r} L${p.x + r},${p.y - r}" ` +
      `stroke="${MARKS.taken}" stroke-width="${cell * 0.08}" stroke-linecap="round"/></g>`);
  }
  const from = L.points.get(so.from), at = L.points.get(so.at);
  if (from && at && so.piece && state.module.ghost) {
    for (const el of svg.querySelectorAll(`[data-at="${so.from}"]`)) el.classList.add("turn-left");
    out.push(`<g class="turn-piece" data-mark="${so.at}" data-piece="${escapeHtml(so.piece)}">` +
      `<title>${escapeHtml(`${so.at}: the Viking from ${so.from}, this turn so far`)}</title>` +
      `${state.module.ghost(so.piece, at, L)}</g>`);
  }
  layer.innerHTML = out.join("");
  // on a board turned already (a click): its texts turned back here; on one being drawn (a flip, a
  // resize) applyFlip turns them with the rest, and turning them here too drew them upside down
  if (state.flipped && layer.closest("#flipped")) for (const el of layer.querySelectorAll("text")) standUpright(el);
}

// the server's account of `move` (a legal move ending the turn being
// clicked), kept with the position; the board redrawn when it comes
async function askTurnSoFar(entry, move) {
  entry.turnsSoFar.set(move, null);
  let played = null;
  try {
    const answer = await api("check", { position: entry.position, moves: [move] });
    if (answer.legal) played = answer.played;
  } catch (e) {
    entry.turnsSoFar.delete(move);      // the server out of reach: asked again at the next click
    return;
  }
  entry.turnsSoFar.set(move, played);
  if (played && current() === entry) drawTurnSoFar();
}

// --- the last move and the legal targets, marked on the board ------------------------------

// Draws, under the clicked selection, the marks of the move that led here (its
// route, what it captured and placed: the check answer's "played") and the
// game's highlights of where a click may go (Claim It!: the spaces a roll
// allows, each with its marker); the last move in words under the board.
function drawBoardMarks() {
  const svg = $("board");
  const entry = current();
  const below = svg.querySelector("#marks");
  if (!entry || !state.layout || !below) return;
  // squares, route and highlights under the pieces (as lichess tints a square); what was
  // taken off and put on above them
  const under = marksLayer(svg, "board-marks-under", svg.querySelector(".piece, .marker") || below);
  const over = marksLayer(svg, "board-marks", below);
  const played = entry.lastMove && entry.lastMove.played;
  const marks = played ? lastMoveMarkup(played) : { under: "", over: "" };
  let hints = "";
  if (state.module.highlights && entry.show && !entry.show.over && entry.legal) {
    hints = state.module.highlights(entry.position, entry.legal, state.layout);
  }
  under.innerHTML = marks.under + hints;
  over.innerHTML = marks.over;
  lastMoveWords(entry);
  drawReviewBest();
  if (!entry.lastMove && !entry.lastMoveAsked && entry.parent) askLastMove(entry, entry.parent);
}

// --- a graded move: what was better, on the board and in words (as lichess's "Mistake. Nf3 was best.") ---

const GRADE_NAMES = { inaccuracy: "Inaccuracy", mistake: "Mistake", blunder: "Blunder" };

// the review's words of the move that led to the position shown, where it is an inaccuracy or worse:
// {grade, words: "Blunder", how: "-8 points, exact", best}; null elsewhere
function reviewVerdict(node) {
  // none at a practice's question (the move before it, the other seat's, drew its better move there)
  if (state.practice && node === state.practice.review.nodes[state.practice.items[state.practice.at].ply - 1]) {
    return null;
  }
  const m = node && node.parent ? node.review || node.eval : null;
  if (!m || !GRADE_NAMES[m.grade]) return null;
  return gradeVerdict(m, gradesOf(node));
}

// What the values of a graded move are ({unit, graph}): those of the review that graded it, or where
// a record loaded with grades (review --save) has no review here, those of its grades (/api/record's
// "grades": the game's review unit); null where neither is known (a review still running).  A loaded
// record's losses had no unit ("Mistake (-3, exact)." where the review said "-3 points").
function gradesOf(node) {
  if (!node) return null;
  const review = state.review && state.review.result;
  if (node.review) return review && state.review.nodes.includes(node) ? review : null;
  const loaded = state.loaded && state.loaded.root === state.line[0] ? state.loaded.grades : null;
  return node.eval ? loaded || null : null;
}

// a graded move's words, the loss in the unit of its values ("points", "win chance": gradesOf) and
// "exact" where the grade is proven
function gradeVerdict(m, result) {
  const unit = result ? ` ${lossUnit(result.unit, m.loss)}` : "";
  const reason = gradeReason(m, result);
  const loss = m.loss === undefined || !(m.loss > 0) ? "" :
    `-${result && result.graph === "chance" ? Number(m.loss).toFixed(3) : m.loss}${unit}${reason ? `: ${reason}` : ""}`;
  const how = [loss, m.exact ? "exact" : ""].filter(Boolean).join(", ");
  const best = m.best && m.best !== m.move ? m.best : null;
  const line = best ? bestLine(m) : null;
  return { grade: m.grade, words: GRADE_NAMES[m.grade] || m.grade, how, best, line };
}

// a graded move's engine line from the position before (review's `line`: its search's, best move
// first), where it is of that best move; else null (a record saved before lines were kept has none)
function bestLine(m) {
  return m.best && Array.isArray(m.line) && m.line[0] === m.best ? m.line : null;
}

const GRADE_RANK = ["best", "good", "inaccuracy", "mistake", "blunder"];

// Why a move is graded above what its loss reaches of the thresholds, in words, or null: a margin's
// proven result made worse (claimsolve/colorclaim/review.py grade: a won game now lost is a blunder, a won
// game now drawn or a drawn one now lost a mistake at least), which the board never said ("Blunder (-2
// points, exact)" under thresholds of 1/3/6)
function gradeReason(m, result) {
  if (!result || result.graph !== "margin" || !m.exact || typeof m.before !== "number" ||
      typeof m.after !== "number" || !result.thresholds) return null;
  const t = result.thresholds;
  const byLoss = m.loss >= t.blunder ? "blunder" : m.loss >= t.mistake ? "mistake" : m.loss >= t.inaccuracy ?
    "inaccuracy" : "good";
  if (GRADE_RANK.indexOf(m.grade) <= GRADE_RANK.indexOf(byLoss)) return null;
  const state = (v) => (v > 0 ? "won" : v < 0 ? "lost" : "drawn");
  const [was, now] = [state(m.before), state(m.after)];
  if (was === now || now === "won" || was === "lost") return null;
  return `a ${was} game now ${now}`;
}

// a loss's unit, singular for 1 ("loss 1 point", not "1 points"): "points" of "points: the final-score ..."
function lossUnit(unit, loss) {
  const short = shortUnit(unit);
  return Number(loss) === 1 && short.endsWith("s") ? short.slice(0, -1) : short;
}

// "Blunder (-8 points, exact). c5-b5 was best.", or with the engine's line "Blunder (-8 points, exact).
// Best: c5-b5 d4xd5 e6-e5" (the line a button: showBestLine)
const verdictHead = (v) => `${v.words}${v.how ? ` (${v.how})` : ""}.`;
const verdictText = (v) => `${verdictHead(v)}${v.line ? ` Best: ${lineText(v.line)}.` : v.best ? ` ${v.best} was best.` : ""}`;

// At the position after a graded move (an inaccuracy or worse), the review's best move drawn in the
// position before it, in its own colour (MARKS.better, none of the engine line's), under the engine's
// arrows for the next move; and under the board, in words: "Blunder (-8 points, exact). c5-b5 was best."
function drawReviewBest() {
  const layer = document.getElementById("review-best");
  const node = current();
  const verdict = reviewVerdict(node);
  const box = madeOnce("review-verdict", "div", (made) => made.setAttribute("role", "status"));
  const last = $("last-move");
  if (last && box.previousElementSibling !== last) last.after(box);
  else if (!last && !box.parentNode) $("board-wrap").append(box);
  // kept (empty) while a review is open, so that the panel under the board does not jump from move to move
  box.hidden = !verdict && !(state.review && state.review.nodes.includes(node));
  box.replaceChildren();
  if (verdict) {
    const word = document.createElement("span");
    word.className = `grade ${verdict.grade}`;
    word.textContent = verdict.words;
    if (verdict.line) {
      // lichess's "Best was ...", the whole line: a click plays it as a variation from the position before
      const line = document.createElement("button");
      line.type = "button";
      line.className = "best-line";
      line.textContent = lineText(verdict.line);
      line.title = "The engine's line from the position before the move (the review's search): click to " +
        "play it as a variation, then step through it with \u2192";
      line.addEventListener("click", () => showBestLine(node, verdict.line));
      box.append(word, verdictHead(verdict).slice(verdict.words.length), " Best: ", line, ".");
    } else {
      box.append(word, verdictText(verdict).slice(verdict.words.length));
    }
    box.dataset.grade = verdict.grade;
  }
  if (!layer || !state.layout) return;
  const shapes = verdict && verdict.best && state.module.shapes ?
    state.module.shapes(verdict.best, node.parent.position, state.layout) : [];
  if (!shapes.length) {
    layer.innerHTML = "";
    return;
  }
  const colour = MARKS.better;
  layer.innerHTML = `<defs><marker id="head-better" viewBox="0 0 10 10" refX="6" refY="5" markerWidth="2.6" ` +
    `markerHeight="2.6" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="${colour}"/></marker></defs>` +
    `<g class="review-best" data-move="${escapeHtml(verdict.best)}"><title>${escapeHtml(`${verdict.best} was best ` +
    `(the review, in the position before the move played)`)}</title>` +
    shapes.map((shape) => shapeMarkup(shape, colour, 0.8, null, "head-better")).join("") + "</g>";
}

// The review's line at a graded move (`line`, from the position before `node`) as a variation there:
// the moves the tree has already followed, the others added (checked by the server, as a move clicked);
// its first move shown, the line shown through the rest, so that the right arrow steps through it
async function showBestLine(node, line) {
  const module = modules.get(node.position.game);
  const named = module && module.played;
  const added = [];
  let parent = node.parent;
  for (const move of line) {
    let child = parent.children.find((c) => c.move === move);
    if (!child) {
      let answer;
      try {
        answer = await api("check", { position: parent.position, moves: [move] });
      } catch (e) {
        setMessage(e.message, "error");
        break;
      }
      if (!answer.legal) {
        setMessage(`The best line stops before ${move}: ${answer.error}`, "error");
        break;
      }
      const recorded = (answer.moves && answer.moves[0]) || move;
      child = parent.children.find((c) => c.move === recorded);
      if (!child) {
        child = makeNode(answer.position, recorded, parent, named ? named(recorded, answer.position) : recorded);
        if (answer.played) child.lastMove = { played: answer.played, report: answer.report };
        parent.children.push(child);
        changed();
      }
    }
    added.push(child);
    parent = child;
  }
  if (!added.length) return;
  const path = pathTo(added[0]);
  state.line = path.concat(added.slice(1), continuation(added[added.length - 1]).slice(1));
  await showIndex(path.length - 1, { keepMessage: true });
  setMessage(`The engine's line from before ${node.label}: ${counted(added.length, "move")} as a variation` +
    (added.length > 1 ? " (\u2192 steps through it, \u2190 back)." : "."));
}

function marksLayer(svg, id, before) {
  let layer = svg.querySelector(`#${id}`);
  if (!layer) {
    layer = document.createElementNS(SVGNS, "g");
    layer.id = id;
    before.parentNode.insertBefore(layer, before);
  }
  return layer;
}

// A position reached otherwise than by a click here (a loaded record, a
// link): the server describes its move, when that move from the position
// before gives it.
async function askLastMove(entry, previous) {
  entry.lastMoveAsked = true;
  if (!previous || !entry.move) return;
  try {
    const answer = await api("check", { position: previous.position, moves: [entry.move] });
    if (!answer.legal || JSON.stringify(answer.position) !== JSON.stringify(entry.position)) return;
    entry.lastMove = { played: answer.played, report: answer.report };
    if (current() === entry) {
      await drawBoard();
      applyFlip();
    }
  } catch (e) {
    /* no words for this move: the board is still right */
  }
}

function lastMoveWords(entry) {
  const box = madeOnce("last-move", "div", (made) => $("board-wrap").append(made));
  const last = entry.lastMove;
  box.hidden = !(last && last.report);
  if (box.hidden) {
    box.textContent = "";
    return;
  }
  const who = last.played && last.played.player ? ` (player ${last.played.player})` : "";
  box.textContent = `Last move${who}: ${last.report}`;
}

function lastMoveMarkup(played) {
  const L = state.layout;
  const cell = L.cell;
  const at = (name) => (name ? L.points.get(name) : null);
  const box = (p, inset) => `x="${p.x - cell / 2 + inset}" y="${p.y - cell / 2 + inset}" ` +
    `width="${cell - 2 * inset}" height="${cell - 2 * inset}"`;
  const out = [], over = [];
  for (const name of [played.from, played.to]) {
    const p = at(name);
    if (p) out.push(`<rect class="last-square" data-mark="${name}" ${box(p, 1)} fill="${MARKS.last_square}" ` +
      `fill-opacity="0.55" stroke="${MARKS.last_move}" stroke-width="2"/>`);
  }
  const route = (played.route || []).map(at).filter(Boolean);
  if (route.length > 1) {
    out.push(`<polyline class="last-route" data-route="${played.route.join(" ")}" ` +
      `points="${route.map((p) => `${p.x},${p.y}`).join(" ")}" fill="none" stroke="${MARKS.last_move}" ` +
      `stroke-width="${cell * 0.09}" stroke-linecap="round" stroke-linejoin="round" stroke-opacity="0.85"/>`);
    for (const p of route.slice(1, -1)) {
      out.push(`<circle cx="${p.x}" cy="${p.y}" r="${cell * 0.1}" fill="${MARKS.last_move}" fill-opacity="0.85"/>`);
    }
  }
  for (const put of played.put || []) {
    const p = at(put.point);
    // under the piles: a pile's caption (Claim It!'s "B/1") is written over the outline, not struck by it
    if (p) out.push(`<rect class="last-placed" data-mark="${put.point}" ${box(p, 4)} rx="5" fill="none" ` +
      `stroke="${MARKS.placed}" stroke-width="3" stroke-dasharray="6 3">` +
      `<title>${escapeHtml(`placed on ${put.point}: ${put.piece}`)}</title></rect>`);
  }
  const claimed = at(played.claimed);
  if (claimed) {
    // the pyramid claimed has left the board: drawn small in the corner of its space, ringed
    const x = claimed.x + cell * 0.3, y = claimed.y - cell * 0.3;
    const badge = state.module.ghost && played.pyramid ? state.module.ghost(played.pyramid, { x, y }, L, played) : "";
    over.push(`<g class="last-claimed" data-mark="${played.claimed}" data-piece="${escapeHtml(played.pyramid || "")}">` +
      `<title>claimed ${escapeHtml(played.pyramid || "")}</title>` +
      `<circle cx="${x}" cy="${y}" r="${cell * 0.19}" fill="${MARKS.ring}" stroke="${MARKS.placed}" ` +
      `stroke-width="2.5"/>${badge}</g>`);
  }
  for (const gone of played.removed || []) {
    const p = at(gone.point);
    if (!p) continue;
    const ghost = state.module.ghost && gone.piece ? state.module.ghost(gone.piece, p, L, played) : "";
    const r = cell * 0.3;
    // where a piece stands after the move (a stop's space, a tower put at once on a captured
    // tower's point, what a bust leaves under its markers) the one taken off is drawn small
    // in the corner
    const again = Boolean(gone.left);
    const place = again ? ` transform="translate(${p.x + cell * 0.3},${p.y - cell * 0.3}) scale(0.45) ` +
      `translate(${-p.x},${-p.y})"` : "";
    over.push(`<g class="last-captured" data-mark="${gone.point}" data-piece="${escapeHtml(gone.piece || "")}"` +
      `${place}><title>${escapeHtml(`taken off ${gone.point}: ${gone.piece}`)}</title>` +
      `<g opacity="${again ? 0.85 : 0.5}">${ghost}</g>` +
      `<path d="M${p.x - r},${p.y - r} L${p.x + r},${p.y + r} M${p.x - r},${p.y + r} L${p.x + r},${p.y - r}" ` +
      `stroke="${MARKS.taken}" stroke-width="${cell * 0.08}" stroke-linecap="round"/></g>`);
  }
  return { under: out.join(""), over: over.join("") };
}

function renderActions() {
  const box = $("actions");
  const parts = [];
  const entry = current();
  if (!entry || !entry.tokens || entry.show.over) {
    box.replaceChildren();
    return;
  }
  const clicks = state.clicks;
  const cands = candidates(clicks);
  // moves complete with these clicks, when the board cannot tell them apart
  const complete = clicks.length ? cands.filter((t) => t.tokens.length === clicks.length) : [];
  if (complete.length) {
    const group = document.createElement("span");
    group.className = "group";
    for (const t of complete) {
      const b = button(describe(t.move), () => playMove(t.move));
      b.classList.add("move");
      b.dataset.move = t.move;
      group.append(b);
    }
    parts.push(group);
  }
  // words (roll, stop, pass) that come next
  const words = [...nextTokens(cands, clicks)].filter((t) => !isPoint(t));
  for (const word of words) {
    const custom = state.module.wordButton ? state.module.wordButton(word, entry, api, playMove) : null;
    const b = custom || button(word, () => clickToken(word));
    b.dataset.word = word;
    parts.push(b);
  }
  if (state.module.controls) {
    const extra = state.module.controls(entry, { playMove, setMessage, clicks });
    if (extra) parts.push(extra);
  }
  if (clicks.length) parts.push(button("clear", () => { state.clicks = []; drawSelection(); renderActions(); setMessage(""); }));
  if (state.module.generic && !clicks.length) {
    // no board script: every legal move is a button
    for (const t of entry.tokens.slice(0, 200)) {
      const b = button(t.move, () => playMove(t.move));
      b.dataset.move = t.move;
      parts.push(b);
    }
  }
  box.replaceChildren(...parts);
  showPrompt();
}

function describe(move) {
  const text = state.module.describe ? state.module.describe(move, current().position) : "";
  return text ? `${move} (${text})` : move;
}

function button(label, onClick) {
  const b = document.createElement("button");
  b.type = "button";
  b.textContent = label;
  b.addEventListener("click", onClick);
  return b;
}

// --- the engine --------------------------------------------------------------------------

function stopAnalysis() {
  if (state.analysis && state.analysis.controller) state.analysis.controller.abort();
  state.analysis = null;
}

function clearSuggestions() {
  $("suggestions").querySelector("tbody").replaceChildren();
  hovered = null;
  resting = null;
  bestTaken = null;
  showMarksKey([]);
  $("pv").textContent = "";
  $("engine-line").textContent = "";
  $("engine-state").textContent = "";
  $("engine-labels").replaceChildren();
  $("suggestions").querySelector("thead").replaceChildren();
  $("odds-panel").hidden = true;
  setEval(null);
  drawArrows(null);
}

// --- the engine playing a seat -----------------------------------------------------------

// the seats the engine plays: any set of them (a checkbox a seat)
function engineSeats() {
  return new Set(Array.from($("engine-seats").querySelectorAll("input:checked"), (box) => Number(box.dataset.seat)));
}

function engineToMove(entry) {
  return !entry.show.over && entry.legal.length > 0 && engineSeats().has(entry.show.to_move);
}

function seatCount(entry) {
  return entry.position.players || ((entry.show && entry.show.scores) || []).length || 2;   // (show: not yet answered)
}

// a checkbox for each seat of the game shown: the choices kept while the seat count is the same (a new
// game at the same table); a game of another seat count gets its own boxes, none ticked.  (The ticks
// of a 4-seat game carried over, seat 2 of four kept for seat 2 of two: the engine played a seat of
// the new game, at once where it was the first to move, that the player never chose in it.)
function renderSeats(entry) {
  const box = $("engine-seats");
  const seats = seatCount(entry);
  if (box.querySelectorAll("input").length === seats) return;
  const labels = [];
  for (let seat = 1; seat <= seats; seat++) {
    const label = document.createElement("label");
    label.title = `The engine plays player ${seat}: on that seat's turn it thinks and plays its best suggestion`;
    const input = document.createElement("input");
    input.type = "checkbox";
    input.dataset.seat = String(seat);
    input.id = `engine-seat-${seat}`;
    input.checked = false;
    input.addEventListener("change", () => { stopAnalysis(); clearSuggestions(); startAnalysis(true); });
    label.append(input, String(seat));
    labels.push(label);
  }
  box.replaceChildren(...labels);
}

// the analysis asked for the engine's own move is over: play its best suggestion
async function engineMove(analysis, result) {
  if (state.analysis !== analysis || current().position !== analysis.position) return;
  const best = result.suggestions && result.suggestions.length ? result.suggestions[0].move :
    (result.pv && result.pv.length ? result.pv[0] : null);
  if (!best) {
    setMessage("The engine found no move to play.", "error");
    return;
  }
  const seat = current().show.to_move;
  // named from the move recorded, the server's dice in it ("roll:4,1,4 (bust)"), as the player's own
  // rolls are: from the bare "roll" a bust was "roll (bust)", its dice nowhere in the moves
  const describe = state.module.played ? (next, recorded) => state.module.played(recorded || best, next) :
    undefined;
  await playMove(best, { describe, engine: seat });
}

// the points a Claim movement captured, from the server's account of the move (a brawl's
// removals are the move itself)
function capturedBy(played) {
  return played && played.vikings_captured !== undefined && played.route && played.route.length > 1 ?
    played.captured || [] : [];
}

// an engine move in words: the move, and the pieces a Claim movement captured (the server's
// account: the page works out no capture itself)
function engineWords(label, played) {
  const taken = capturedBy(played);
  return taken.length ? `${label} captures ${taken.join(", ")}` : label;
}

// every engine move since the player's last one (the engine playing several seats one after
// another), the last one `node`: "The engine (player 4) played f5-d5." for one, "The engine
// played: player 2 k5-e5 captures e6; player 3 h10-h6; player 4 f5-d5." for several
function engineReport(node) {
  const moves = [];
  for (let n = node; n && n.engineWords; n = n.parent) moves.unshift(n.engineWords);
  if (moves.length === 1) return `The engine (player ${moves[0].seat}) played ${moves[0].words}.`;
  return `The engine played: ${moves.map((m) => `player ${m.seat} ${m.words}`).join("; ")}.`;
}

// --- the engine's suggestions ---------------------------------------------------------------

function startAnalysis(autoPlay = false) {
  const entry = current();
  if (state.practice) {       // its suggestions would give the answer away (lichess hides them too)
    $("engine-state").textContent = "(hidden while you practise)";
    return;
  }
  const playing = autoPlay && engineToMove(entry);
  if (!playing && (!$("engine-on").checked || entry.show.over || state.module.generic && !entry.legal.length)) {
    $("engine-state").textContent = entry.show.over ? "(the game is over)" : "(engine off)";
    return;
  }
  const controller = new AbortController();
  const analysis = { controller, position: entry.position, result: null, started: performance.now(), playing };
  state.analysis = analysis;
  const time = Math.min(Number($(playing ? "engine-move-time" : "engine-time").value), state.maxTime);
  const body = { position: entry.position, time, top: 8, engine: $("engine-kind").value };
  $("engine-state").textContent = thinkingText();
  apiEvents("analyze", body, controller.signal, (name, data) => {
    if (state.analysis !== analysis) return;
    if (name === "progress") showProgress(data);
    else if (name === "result") {
      showResult(data);
      if (playing) engineMove(analysis, data);
    } else if (name === "error") {
      analysisCut(data.error);
      setMessage(data.error, "error");
    }
  }).catch((e) => {
    if (e.name === "AbortError" || state.analysis !== analysis) return;
    analysisCut(e.message);
    setMessage(`Engine: ${e.message}`, "error");
  });
}

// an analysis that ended without its answer: the suggestions shown are its last report, and say so
// (they stayed, unmarked, as if current)
function analysisCut(why) {
  const shown = $("suggestions").querySelector("tbody").children.length;
  $("engine-state").textContent = shown ? "(interrupted: the suggestions are the search's last report, not its " +
    "answer)" : "(interrupted)";
  if (shown) $("engine-line").textContent += ` (cut short: ${why})`;
}

function thinkingText() {
  return state.analysis && state.analysis.playing ? `(player ${current().show.to_move}: the engine is choosing its move...)` :
    "(thinking...)";
}

function showProgress(info) {
  const parts = [];
  if (info.depth !== undefined) parts.push(`depth ${info.depth}`);
  if (info.iterations !== undefined) parts.push(`${info.iterations.toLocaleString()} simulations`);
  if (info.nodes !== undefined) parts.push(`${info.nodes.toLocaleString()} nodes`);
  if (info.seconds !== undefined) parts.push(`${Number(info.seconds).toFixed(1)} s`);
  if (info.lower !== undefined && info.lower !== null) parts.push(`value in [${info.lower}, ${info.upper}]`);
  if (info.samples !== undefined) parts.push(`odds: ${info.samples} play-outs`);
  $("engine-line").textContent = parts.join(", ");
  $("engine-state").textContent = thinkingText();
  let suggestions = info.suggestions;
  if (!suggestions && info.best) {
    const score = info.score !== undefined ? info.score : info.mean;
    suggestions = [{ move: info.best, score, depth: info.depth, visits: info.visits }];
  }
  if (suggestions && suggestions.length) {
    const engine = info.engine || (info.iterations !== undefined ? "mcts" : "alphabeta");
    renderSuggestions({ engine, suggestions, pv: info.pv || [suggestions[0].move] }, true);
  }
}

function showResult(result) {
  state.analysis.result = result;
  // "exact" only where every score shown is proven (the answer's own field), never because the
  // search finished its depth; otherwise what the numbers are
  const method = result.method || result.engine;
  const proven = (result.suggestions || []).filter((x) => x.exact).length;
  $("engine-state").textContent = result.exact ? "(done, exact)" :
    proven ? `(done: ${method}; ${proven} row${proven === 1 ? "" : "s"} proven (=), the others bounds or estimates)` :
      `(done: ${method}; not proven)`;
  const rate = result.nodes_per_second ? `, ${Math.round(result.nodes_per_second).toLocaleString()}/s` : "";
  const depth = result.depth !== undefined ? `depth ${result.depth}, ` : "";
  $("engine-line").textContent = `${result.engine}: ${depth}${result.nodes.toLocaleString()} nodes in ` +
    `${Number(result.seconds).toFixed(2)} s${rate}`;
  renderSuggestions(result, false);
  renderLabels(result);
  if (result.odds) {
    renderOdds(result.odds);
    renderOddsRanking(result);
  }
}

// what the scores are, which column orders the list, and the notes (a solver that did not finish...)
function renderLabels(result) {
  const box = $("engine-labels");
  const lines = [];
  if (result.scores) lines.push(`Scores: ${result.scores}.`);
  // the answer's sentence says how the list is ordered, proofs included (an older answer: its column)
  if (result.order) lines.push(result.order);
  else if (result.ordered_by) lines.push(`Ordered by ${result.ordered_by}.`);
  const parts = lines.map((text) => {
    const p = document.createElement("p");
    p.textContent = text;
    return p;
  });
  for (const note of result.notes || []) {
    const p = document.createElement("p");
    p.className = "note";
    p.textContent = `Note: ${note}.`.replace(/\.\.$/, ".");
    parts.push(p);
  }
  box.replaceChildren(...parts);
}

// the roll-or-stop panel says what it ranks by, and why its order and the suggestions' can differ
function renderOddsRanking(result) {
  let note = $("odds-ranking");
  if (!note) {
    note = document.createElement("p");
    note.id = "odds-ranking";
    ($("odds-verdict") || $("odds-panel").querySelector("h2")).after(note);
  }
  note.textContent = "Each plan is valued by its win chance in play-outs that follow it with a fixed placement " +
    `policy; the pink bar is the plan that won most of them. The suggestions above rank moves by ${result.ordered_by || "their own column"} ` +
    "of a search over every seat's choices: the two can differ in order and in level (the search's means " +
    "rest on the learned value where its play-outs stop, an estimate; the plans' on whole games played out).";
}

function signed(v) {
  const n = Number(v);
  const text = Number.isInteger(n) ? String(n) : n.toFixed(2);
  // a zero without a sign (-0.001 read "-0.00")
  if (Number(text) === 0) return text.replace(/^-/, "");
  return (n > 0 ? "+" : "") + text;
}

function scoreText(engine, s) {
  if (s.score === null || s.score === undefined) return "?";
  if (engine === "mcts") return Number(s.score).toFixed(3);
  if (!s.exact && ("lower" in s || "upper" in s)) {
    // the solver proved bounds on this move, not its value
    if (s.lower === null) return s.upper === null ? "?" : "<=" + signed(s.upper);
    return s.upper === null ? ">=" + signed(s.lower) : signed(s.lower) + ".." + signed(s.upper);
  }
  const prefix = s.bound === "upper" ? "<=" : "";
  return prefix + signed(s.score);
}

// the columns of a list of suggestions, by engine: [name, cell(s), ordering key]
function suggestionColumns(engine) {
  if (engine === "mcts") {
    return [
      // every bound MCTS-Solver proved, as the text shows it ("win (proven =+3)", "0.412 (proven <=+11)")
      ["mean", (s) => (s.result ? `${s.result} (proven${s.proven ? " " + s.proven : ""})` :
        scoreText(engine, s) + (s.proven ? ` (proven ${s.proven})` : "")), "score"],
      // to the means' 3 decimals: at 2, "stop 0.549 0.55-0.55" read as certain
      ["95% interval", (s) => (s.ci95 ? `${s.ci95[0].toFixed(3)}-${s.ci95[1].toFixed(3)}` : ""), null],
      ["visits", (s) => (s.visits ?? "").toLocaleString(), "visits"],
      ["share", (s) => (s.share !== undefined && s.share !== null ? `${(100 * s.share).toFixed(1)}%` : ""), null],
    ];
  }
  if (engine === "solver") {
    return [["value", (s) => (s.proven ? `${s.proven}${s.result ? " " + s.result : ""}` : scoreText(engine, s)),
             "value"]];
  }
  return [
    ["score", (s) => scoreText(engine, s) + (s.proven ? ` (proven ${s.proven}${s.result ? " " + s.result : ""})` : ""),
     "score"],
    ["depth", (s) => String(s.depth ?? ""), "depth"],
  ];
}

let hovered = null;     // the move of the suggestion under the pointer
let resting = null;     // the arrow shown when none is hovered: the best suggestion's move, as on lichess
// the best suggestion's captures as the answer gives them ({move, points}: its `captured`; Claim), crossed
// out with its arrows; null before the answer gives them (the live reports do not)
let bestTaken = null;

// the line whose arrows the board shows: the hovered suggestion's, else the resting one (a board
// drawn anew, as when flipped, draws them again)
function arrowsShown() {
  const row = document.querySelector("#suggestions tbody tr.hover");
  return (row && row.line) || resting;
}

function renderSuggestions(result, live) {
  const table = $("suggestions");
  table.classList.toggle("live", live);
  const engine = result.engine;
  const columns = suggestionColumns(engine);
  const ordered = result.ordered_by || { mcts: "visits", solver: "value" }[engine] || "score";
  const head = document.createElement("tr");
  for (const [name, , key] of [["#", null, null], ["move", null, null], ...columns]) {
    const th = document.createElement("th");
    th.textContent = name;
    if (key && key === ordered) {
      th.classList.add("ordered");
      th.title = `The list is ordered by ${ordered}`;
      th.textContent = `${name} \u25BE`;
    }
    head.append(th);
  }
  table.querySelector("thead").replaceChildren(head);
  const rows = [];
  result.suggestions.forEach((s, i) => {
    const tr = document.createElement("tr");
    tr.dataset.move = s.move;
    const cells = [String(i + 1), s.move, ...columns.map(([, cell]) => cell(s))];
    cells.forEach((text, k) => {
      const td = document.createElement("td");
      td.textContent = text;
      if (k >= 2 && columns[k - 2][2] === ordered) td.classList.add("ordered");
      tr.append(td);
    });
    const line = i === 0 && result.pv && result.pv.length ? result.pv : [s.move];
    tr.line = line;
    tr.addEventListener("mouseenter", () => { hovered = s.move; tr.classList.add("hover"); drawArrows(line); });
    tr.addEventListener("mouseleave", () => { hovered = null; tr.classList.remove("hover"); drawArrows(resting); });
    tr.addEventListener("click", () => playMove(s.move));
    rows.push(tr);
  });
  table.querySelector("tbody").replaceChildren(...rows);
  resting = result.suggestions.length ? [result.suggestions[0].move] : null;
  const first = result.suggestions[0];
  bestTaken = first && Array.isArray(first.captured) ? { move: first.move, points: first.captured } : null;
  showMarksKey(result.suggestions);
  // the rows are replaced as the answer comes in: a row removed under the pointer gets no
  // mouseleave, so its arrows are carried to its new row, or go back to the best move when it is gone
  const again = rows.find((tr) => tr.dataset.move === hovered);
  if (again) {
    again.classList.add("hover");
    drawArrows(again.line);
  } else {
    hovered = null;
    drawArrows(resting);
  }
  if (!table.dataset.watched) {                // the table stays: leaving it clears the arrows
    table.dataset.watched = "1";
    table.addEventListener("mouseleave", () => {
      hovered = null;
      table.querySelectorAll("tr.hover").forEach((tr) => tr.classList.remove("hover"));
      drawArrows(resting);
    });
  }
  // a line the search stopped before the game's end though its first move's value is proven says so, as the
  // command line does (it read "Best line: d4xd3" alone after a move the solver proved)
  const cut = result.pv_cut_short ? ` (cut short at ${counted(result.pv.length, "move")}: the value is proven, ` +
    "the line does not reach the game's end)" : "";
  $("pv").textContent = result.pv && result.pv.length ? `Best line: ${lineText(result.pv)}${cut}` : "";
  if (result.suggestions.length) setEval(evaluation(result));
}

// the line that says what the engine's marks on the board mean (the game's marksKey: Claim's crosses
// are the best turn's captures), under the best line
function showMarksKey(suggestions) {
  const key = madeOnce("marks-key", "p", (made) => $("pv").after(made));
  const words = suggestions.length && state.module && state.module.marksKey ?
    state.module.marksKey(suggestions, current().position) : "";
  key.textContent = words;
  key.hidden = !words;
}

function lineText(moves) {
  return moves.join(moves.some((m) => m.includes(" ")) ? " | " : " ");
}

// the best suggestion's value for the side to move: {share in [0, 1], score (a signed number, or
// null), result, its 95% interval (MCTS: ci), and what the number is (`scores`: the analysis's own
// words; `simulations`)}
function evaluation(result) {
  const engine = result.engine, s = result.suggestions[0];
  const about = { engine, scores: result.scores, simulations: result.iterations, visits: s.visits };
  // a result's margin as proven (the solver stopped in its time may have proven only a bound, >=+1)
  const bounds = provenBounds(s.proven, s.score);
  if (s.result === "win") return { ...about, share: 1, score: s.score, result: "win", bounds };
  if (s.result === "loss") return { ...about, share: 0, score: s.score, result: "loss", bounds };
  if (s.result === "draw") return { ...about, share: 0.5, score: s.score, result: "draw", bounds };
  if (s.score === null || s.score === undefined) return null;
  if (engine === "mcts") return { ...about, share: Number(s.score), score: null, ci: s.ci95 || null };
  const scale = (state.module && state.module.evalScale) || 10;
  const share = 1 / (1 + Math.exp(-Number(s.score) / scale));
  return { ...about, share, score: Number(s.score) };
}

const OTHER_RESULT = { win: "loss", loss: "win", draw: "draw" };

// [lower, upper] (null: no bound that side) of a proven text (=+3, >=+1, <=-2, +1..+3); without one,
// the score as exact
function provenBounds(text, score) {
  let m;
  if (!text) return [score, score];
  if ((m = /^=(.+)$/.exec(text))) return [Number(m[1]), Number(m[1])];
  if ((m = /^>=(.+)$/.exec(text))) return [Number(m[1]), null];
  if ((m = /^<=(.+)$/.exec(text))) return [null, Number(m[1])];
  if ((m = /^(.+?)\.\.(.+)$/.exec(text))) return [Number(m[1]), Number(m[2])];
  return [score, score];
}

// a proven margin's words for the bar and its tooltip: ["=+3", "by +3"], [">=+1", "by at least 1"]
function provenWords([low, high], result) {
  if (low !== null && low === high) return [`=${signed(low)}`, `by ${signed(low)}`];
  const text = high === null ? `>=${signed(low)}` : low === null ? `<=${signed(high)}` : `${signed(low)}..${signed(high)}`;
  // how much the winner wins by: a win's margin is above 0, a loss's below
  const [least, most] = result === "loss" ? [high, low] : [low, high];
  const size = (v) => (v === null ? null : Math.abs(v));
  const by = size(most) === null ? `by at least ${size(least)}` : size(least) === null ? `by at most ${size(most)}` :
    `by ${size(least)} to ${size(most)}`;
  return [text, by];
}

// the bar shows one seat's value (player 1 unless flipped), whoever is to move: a two-seat game's
// values mirror.  With more seats the engine values only the seat to move, so the bar follows the
// mover (its label says whose value it is) and the flip button rests.
function setEval(value) {
  showEval(value);
  fitEvalText();
}

// The bar's number on a phone's slim bar: across where it fits, else its characters upright one
// under another (style.css #eval-text.stacked), never sideways; a desktop's bar holds it across.
function fitEvalText() {
  const text = $("eval-text");
  text.classList.remove("stacked");
  if (text.textContent && text.scrollWidth > text.clientWidth) text.classList.add("stacked");
}

function showEval(value) {
  $("eval-fair").hidden = true;                // shown again below where the bar is a win chance at 3+ sides
  const fill = $("eval-fill");
  const text = $("eval-text");
  const entry = current();
  const seats = entry ? seatCount(entry) : 2;
  const mover = entry && entry.show ? entry.show.to_move : null;
  const seat = seats === 2 || !mover ? state.evalSeat : mover;
  $("eval-seat").textContent = `P${seat}`;
  const bar = $("eval-bar");
  const flip = $("eval-flip");
  flip.disabled = seats !== 2;
  flip.title = seats === 2 ? "Show the other seat's evaluation" :
    `With ${seats} seats the engine values only the seat to move: the bar follows it`;
  bar.title = seats === 2 ? `Evaluation for player ${seat} (the flip button below shows the other seat's)` :
    `Evaluation for player ${seat}, the seat to move (with ${seats} seats the engine values only the mover)`;
  if (entry && entry.show && entry.show.over) {
    // a finished game shows its result, not an evenly split bar (lichess shows 1-0)
    const winners = entry.show.winners || [];
    const shown = seats === 2 ? state.evalSeat : (winners[0] || seat);
    const won = winners.includes(shown);
    const drawn = winners.length === seats;
    fill.style.height = drawn ? "50%" : won ? "100%" : "0%";
    text.textContent = drawn ? "draw" : won ? (winners.length > 1 ? "shared" : "won") : "lost";
    $("eval-seat").textContent = `P${shown}`;
    bar.title = `Game over${entry.show.result ? `: ${entry.show.result}` : ""} (the bar: player ${shown}'s result)`;
    return;
  }
  if (!value && entry && entry.show && !$("engine-on").checked && showReviewEval(entry, seat, fill, text, bar)) return;
  if (!value || !entry || !entry.show) {
    fill.style.height = "50%";
    text.textContent = "";
    return;
  }
  let share = value.share, score = value.score, result = value.result, bounds = value.bounds, ci = value.ci;
  if (mover !== seat) {
    share = 1 - share;
    score = score === null || score === undefined ? score : -score;
    result = result && OTHER_RESULT[result];
    bounds = bounds && bounds.map((v) => (v === null ? null : -v)).reverse();
    ci = ci && [1 - ci[1], 1 - ci[0]];
  }
  fill.style.height = `${Math.round(100 * Math.max(0.02, Math.min(0.98, share)))}%`;
  const margin = value.engine === "solver" && typeof score === "number";
  if (result && margin) {          // the exact solver's proven final-score margin (=+3), or its bound (>=+1)
    const [shown, by] = provenWords(bounds || [score, score], result);
    text.textContent = shown;
    bar.title += `: a proven ${result} ${by}`;
  } else if (result) text.textContent = result;
  else if (value.engine === "mcts" || score === null || score === undefined) {
    // an equal share is one of the sides' (Claim's 4 seats play as 2 teams: it said 25% there)
    const sides = (entry.show && entry.show.teams) || seats;
    text.textContent = `${Math.round(100 * share)}%`;
    bar.title += `: ${winChanceWords(share, ci, value.visits, value.simulations, seats, sides)}`;
    if (sides > 2) showFairShare(sides);
  } else {
    text.textContent = signed(score);
    if (value.scores) {
      bar.title += `: ${signed(score)}` + (mover !== seat ? " (the side to move's score, negated)" : "") +
        `; ${value.scores}`;
    }
  }
}

// With the live engine off, the bar shows the review's value at the ply shown (as lichess's gauge shows
// the server analysis): `seat`'s value in the review's unit, its tooltip saying that it is the review's
// estimate, proven or not, and by what method.  It stayed empty at 50% on every reviewed ply while the
// graph and the verdict showed the value.  False where no review holds the position shown.
function showReviewEval(entry, seat, fill, text, bar) {
  const review = state.review;
  const result = review && review.result;
  const ply = result ? review.nodes.indexOf(entry) : -1;
  const row = ply >= 0 ? result.evals[ply] : null;
  const v = row ? row[seat - 1] : null;
  if (v === null || v === undefined) return false;
  let share;
  if (result.graph === "chance") share = Number(v);
  else if (result.graph === "margin") {
    const scale = (state.module && state.module.evalScale) || 10;
    share = 1 / (1 + Math.exp(-Number(v) / scale));
  } else {
    // a count: where it stands between the least and the most of the review's values (as the graph draws it)
    const all = result.evals.flat().filter((x) => x !== null && x !== undefined);
    const low = Math.min(...all), high = Math.max(...all);
    share = high > low ? (v - low) / (high - low) : 0.5;
  }
  fill.style.height = `${Math.round(100 * Math.max(0.02, Math.min(0.98, share)))}%`;
  text.textContent = result.graph === "chance" ? `${Math.round(100 * v)}%` : valueWords(result, v);
  // the analysis of this position: the method of the move played from it (of the move before, at the end)
  const from = result.moves[ply] || result.moves[ply - 1];
  const method = from && from.method ? from.method : null;
  // the position's own value proven (a move's `exact` needs the positions before and after it both proven);
  // a review loaded from a record has no evals_exact: the move's, as near as it has
  const proven = Array.isArray(result.evals_exact) && ply < result.evals_exact.length ?
    Boolean(result.evals_exact[ply]) : Boolean(result.moves[ply] ? result.moves[ply].exact : from && from.exact);
  const how = [proven ? "proven" : "an estimate, not proven", method ? `by ${method}` : null].filter(Boolean).join(", ");
  bar.title += `: the review's value at this ply (the live engine is off), ${text.textContent} ` +
    `${shortUnit(result.unit)} (${how})`;
  return true;
}

// an MCTS bar's number in words: what it is and how sure (the mean of the simulations through the best
// move, its interval theirs), and the share that is fair at the table of `sides` (seats, or teams)
function winChanceWords(share, ci, visits, simulations, seats, sides) {
  const percent = (x, digits = 0) => `${(100 * x).toFixed(digits)}%`;
  // an interval narrower than the whole percents shown gets a decimal (it read "49%-49%")
  const digits = ci && percent(ci[0]) === percent(ci[1]) ? 1 : 0;
  const interval = ci ? ` (95% interval ${percent(ci[0], digits)}-${percent(ci[1], digits)}, as if the simulations ` +
    "were independent)" : "";
  const count = (n) => n.toLocaleString("en-US");
  const over = visits ? ` over the ${count(visits)} simulations through its best move` +
    (simulations ? ` (of ${count(simulations)})` : "") : simulations ? ` over ${count(simulations)} simulations` : "";
  return `${percent(share)}, the search's mean result (a win 100%, a shared win its share)${over}${interval}; ` +
    `an equal share of the wins ${sides === seats ? `at ${seats} seats` : `between the ${sides} teams`} is ` +
    `${percent(1 / sides)}` + (sides > 2 ? " (the line across the bar)" : " (the bar's middle)");
}

// the line across the bar at an equal share of the wins (1/sides): where a seat of a table of three sides
// or more is neither ahead nor behind, which the bar's middle (50%) is not
function showFairShare(sides) {
  const line = $("eval-fair");
  line.style.bottom = `${(100 / sides).toFixed(2)}%`;
  line.hidden = false;
}

function drawArrows(line) {
  const layer = document.getElementById("arrows");
  if (!layer || !state.layout) return;
  if (!line || !state.module.shapes) {
    layer.innerHTML = "";
    return;
  }
  const colours = MARKS.line;
  const parts = [];
  let position = current().position;
  line.slice(0, 8).forEach((move, ply) => {
    const colour = colours[ply % colours.length];
    const opacity = Math.max(0.35, 0.9 - ply * 0.08);
    for (const shape of state.module.shapes(move, position, state.layout)) {
      parts.push(shapeMarkup(shape, colour, opacity, ply + 1));
    }
    // the best turn's captures, the server's account (a turn other than the best crosses nothing, as
    // in the analysis picture: a cross reads "the best turn takes this")
    if (ply === 0 && bestTaken && move === bestTaken.move && state.module.captureShapes) {
      for (const shape of state.module.captureShapes(bestTaken.points, state.layout)) {
        parts.push(shapeMarkup(shape, colour, opacity, null));
      }
    }
  });
  layer.innerHTML = `<defs>${colours.map((c, i) => `<marker id="head${i}" viewBox="0 0 10 10" refX="6" refY="5" ` +
    `markerWidth="2.6" markerHeight="2.6" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="${c}"/></marker>`).join("")}</defs>` +
    parts.join("");
}

// a shape of a move (an arrow, a ring, ...) in `colour`, numbered `number` (the ply of the engine's line;
// null: none), its arrow's head the marker `headId`
function shapeMarkup(shape, colour, opacity, number, headId = `head${MARKS.line.indexOf(colour)}`) {
  const cell = state.layout.cell;
  const width = cell * 0.16;
  // on a flipped board (arrows drawn inside its turned group) the number turns back about its disc
  const upright = (x, y) => state.flipped && document.getElementById("flipped") ? ` transform="rotate(180 ${x} ${y})"` : "";
  // the ply's number: its disc grows with it where the board is shown small (fitBoard)
  const size = fontSize(state.layout, cell * 0.24), k = size / (cell * 0.24);
  const label = (x, y) => number === null ? "" : `<circle cx="${x}" cy="${y}" r="${cell * 0.19 * k}" fill="${colour}" opacity="${opacity}"/>` +
    `<text x="${x}" y="${y + cell * 0.08 * k}" font-size="${size}" text-anchor="middle" fill="#fff" ` +
    `font-weight="bold"${upright(x, y)}>${number}</text>`;
  if (shape.kind === "arrow") {
    const [a, b] = [shape.from, shape.to];
    const dx = b.x - a.x, dy = b.y - a.y, d = Math.hypot(dx, dy) || 1;
    const end = { x: b.x - (dx / d) * cell * 0.3, y: b.y - (dy / d) * cell * 0.3 };
    // the number on the arrow a third of a cell from its start: beside the piece that moves,
    // not over it (it hid a Claim Viking's colour number, a pyramid), nor over a piece jumped
    // (0.35 of the way: a move and its reverse, d3-d4 then d4-d3, put their numbers apart)
    const along = Math.min(cell, d) * 0.35;
    // and the line from the piece's edge, its number in sight
    const off = Math.min(cell * 0.3, d / 4), start = { x: a.x + (dx / d) * off, y: a.y + (dy / d) * off };
    return `<line x1="${start.x}" y1="${start.y}" x2="${end.x}" y2="${end.y}" stroke="${colour}" stroke-width="${width}" ` +
      `stroke-linecap="round" opacity="${opacity}" marker-end="url(#${headId})"/>` +
      label(a.x + (dx / d) * along, a.y + (dy / d) * along);
  }
  const p = shape.at;
  if (shape.kind === "capture") {       // a piece captured: a smaller cross than a brawl's removal, haloed
    const r = cell * 0.2;               // white as the analysis picture's (render/svg.py cross)
    const d = `M${p.x - r},${p.y - r} L${p.x + r},${p.y + r} M${p.x - r},${p.y + r} L${p.x + r},${p.y - r}`;
    return `<g class="capture" data-captured="${shape.point}" opacity="${opacity}">` +
      `<title>${shape.point}: the best turn captures it</title>` +
      `<path d="${d}" stroke="#ffffff" stroke-width="${width * 0.6 + 3}" stroke-linecap="round" stroke-opacity="0.8"/>` +
      `<path d="${d}" stroke="${colour}" stroke-width="${width * 0.6}" stroke-linecap="round"/></g>`;
  }
  if (shape.kind === "cross") {
    const r = cell * 0.28;
    return `<path d="M${p.x - r},${p.y - r} L${p.x + r},${p.y + r} M${p.x - r},${p.y + r} L${p.x + r},${p.y - r}" ` +
      `stroke="${colour}" stroke-width="${width}" stroke-linecap="round" opacity="${opacity}"/>`;
  }
  if (shape.kind === "square") {
    const r = cell * 0.36;
    return `<rect x="${p.x - r}" y="${p.y - r}" width="${2 * r}" height="${2 * r}" rx="4" fill="none" ` +
      `stroke="${colour}" stroke-width="${width * 0.8}" opacity="${opacity}"/>` + label(p.x + r, p.y - r);
  }
  return `<circle cx="${p.x}" cy="${p.y}" r="${cell * 0.36}" fill="none" stroke="${colour}" ` +
    `stroke-width="${width * 0.8}" opacity="${opacity}"/>` + label(p.x + cell * 0.3, p.y - cell * 0.3);
}

// --- Claim It!'s odds ---------------------------------------------------------------------

function renderOdds(odds) {
  const panel = $("odds-panel");
  if (!odds.rows || !odds.rows.length) {
    panel.hidden = true;
    return;
  }
  panel.hidden = false;
  // the chance that the roll the player faces busts: none where the dice are rolled and a
  // placement is to choose (the JSON's figure there is of a roll on the board as it stands,
  // before the placement: no roll he faces; the command line's text leaves it out too)
  const bust = odds.mode !== "placement" && odds.bust_probability !== undefined && odds.bust_probability !== null ?
    `The ${odds.mode === "must roll" ? "" : "next "}roll busts with ${odds.bust_rolls}/216 = ` +
    `${(100 * odds.bust_probability).toFixed(1)}% (exact).` : "";
  // the panel's question: which placement, where the dice are rolled (its heading said "Roll or
  // stop?" there); else roll or stop, with how the turn stands
  panel.querySelector("h2").textContent = odds.mode === "placement" ? "Which placement?" : "Roll or stop?";
  const asked = { "roll or stop": "Roll again or stop?",
    "must roll": "The turn begins with a roll (stop is not legal yet): how far to go after it?" }[odds.mode] || "";
  $("odds-note").textContent = `${asked} ${bust}`.trim();
  renderOddsVerdict(odds);
  const rows = odds.rows.map((r) => {
    const tr = document.createElement("tr");
    const ci = r.win_ci95 ? ` (${pct(r.win_ci95[0])}-${pct(r.win_ci95[1])})` : "";
    for (const text of [r.label, pct(r.survive), r.secured_gain !== undefined ? r.secured_gain.toFixed(2) : "",
      `${pct(r.win)}${ci}`]) {
      const td = document.createElement("td");
      td.textContent = text;
      tr.append(td);
    }
    return tr;
  });
  $("odds-table").querySelector("tbody").replaceChildren(...rows);
  // the chart: win chance with its interval, bust chance (1 - survive) beside it; a plan's
  // label wraps onto as many lines as it needs (never cut), its row as tall as they are
  const w = 440, line = 13, left = 160, top = 20, barW = 240, bar = 14;
  const labels = odds.rows.map((r) => wrapWords(shortPlan(r, odds.mode), 24));
  const heights = labels.map((lines) => Math.max(26, lines.length * line + 10));
  const h = top + heights.reduce((a, b) => a + b, 0) + 26;
  // its colours are those of odds --svg (render/charts.py): the best plan's bar in the best
  // suggestion's colour, the others' in the win colour, the bust chance in the bust colour
  const C = style.charts;
  const parts = [`<rect width="${w}" height="${h}" fill="#fff"/>`,
    `<text x="${left}" y="13" font-size="11" fill="#5b6770">win chance with its 95% interval; red: bust chance</text>`];
  const best = Math.max(...odds.rows.map((r) => r.win));
  const x = (v) => left + v * barW;
  let y = top;
  odds.rows.forEach((r, i) => {
    const rowH = heights[i];
    const middle = y + rowH / 2;
    const first = middle - ((labels[i].length - 1) * line) / 2 + 4;
    parts.push(`<text class="plan-label" x="${left - 6}" y="${first}" font-size="11" text-anchor="end">` +
      labels[i].map((text, k) => `<tspan x="${left - 6}" dy="${k ? line : 0}">${escapeHtml(text)}</tspan>`).join("") +
      `<title>${escapeHtml(r.label)}</title></text>`);
    const barTop = middle - bar / 2 - 2;
    parts.push(`<rect x="${left}" y="${barTop}" width="${r.win * barW}" height="${bar}" ` +
      `fill="${r.win === best ? style.common.best : C.win}"/>`);
    if (r.win_ci95) {
      const [lo, hi] = r.win_ci95.map(x);
      const cy = barTop + bar / 2;
      parts.push(`<path d="M${lo},${cy} L${hi},${cy} M${lo},${cy - 5} L${lo},${cy + 5} M${hi},${cy - 5} ` +
        `L${hi},${cy + 5}" stroke="${C.interval}" stroke-width="1.2"/>`);
    }
    parts.push(`<rect x="${left}" y="${barTop + bar + 1}" width="${(1 - r.survive) * barW}" height="4" fill="${C.bust}"/>`);
    // the number beside its bar and interval, inside the bar where they reach the right edge
    const reach = r.win_ci95 ? Math.max(r.win, r.win_ci95[1]) : r.win;
    const inside = reach > 0.8;
    parts.push(`<text x="${inside ? x(r.win) - 4 : x(reach) + 5}" y="${barTop + bar - 3}" font-size="10.5" ` +
      `text-anchor="${inside ? "end" : "start"}" fill="${inside ? "#fff" : style.common.ink}">${pct(r.win)}</text>`);
    y += rowH;
  });
  const axisY = y + 4;
  for (const v of [0, 0.25, 0.5, 0.75, 1]) {
    parts.push(`<text x="${left + v * barW}" y="${axisY + 14}" font-size="10" text-anchor="middle" fill="#5b6770">${v * 100}%</text>`);
    parts.push(`<line x1="${left + v * barW}" y1="${top}" x2="${left + v * barW}" y2="${axisY}" stroke="${C.grid}"/>`);
  }
  const chart = $("odds-chart");
  chart.setAttribute("viewBox", `0 0 ${w} ${h}`);
  chart.innerHTML = parts.join("");
}

// the table's verdict at the panel's top, as the command line says it (render/claimit.py
// render_odds): what is recommended, by whom, by how much over the best other choice and how
// sure the play-outs are of it, or why nothing is; and, where the pink bar (the plan that won
// most in the play-outs) decides otherwise, why the two differ
function renderOddsVerdict(odds) {
  let box = $("odds-verdict");
  if (!box) {
    box = document.createElement("p");
    box.id = "odds-verdict";
    $("odds-panel").querySelector("h2").after(box);
  }
  const line = document.createElement("strong");
  line.textContent = oddsVerdict(odds);
  const parts = [line];
  const why = oddsDisagreement(odds);
  if (why) {
    const note = document.createElement("span");
    note.className = "note";
    note.textContent = ` ${why}`;
    parts.push(note);
  }
  box.replaceChildren(...parts);
}

const LEARNED_OBJECTIVE = "learned win objective";      // (claimsolve.claimit.odds.LEARNED)

function sureness(confidence) {       // (claimsolve.claimit.plans.sureness)
  if (confidence >= 0.995) return "over 99% sure";
  return confidence < 0.01 ? "under 1% sure" : `${(100 * confidence).toFixed(0)}% sure`;
}

// how sure the plans are that a choice is the best of `candidates` (claimsolve.claimit.plans.sure_of_best):
// of two, the paired comparison alone
function sureOfBest(confidence, candidates) {
  const words = sureness(confidence);
  return candidates > 2 ? `${words} it is the best of the ${candidates}` : words;
}

function oddsVerdict(odds) {
  if (odds.recommendation === null || odds.recommendation === undefined) {
    return `No recommendation: ${odds.no_recommendation || "the plans prefer no choice"}.`;
  }
  const who = odds.recommended_by === LEARNED_OBJECTIVE ? "by the learned win objective" : "by the play-outs";
  const head = `Recommendation (${who}): ${odds.recommendation}`;
  if (odds.margin === null || odds.margin === undefined || odds.confidence === null || odds.confidence === undefined) {
    if ((odds.rows || []).every((r) => !r.win)) {
      return `${head}; no plan won any of its ${Number(odds.samples).toLocaleString("en")} play-outs, so they ` +
        "neither confirm nor contradict it.";
    }
    return odds.compared_with ? `${head}.` : `${head} (the only choice).`;
  }
  const points = (100 * Math.abs(odds.margin)).toFixed(1);
  if (odds.margin < 0) {            // the play-outs prefer another: the note under it says which, and why
    return `${head}, though in the play-outs its win chance is ${points} percentage points under ` +
      `'${odds.compared_with}' (${odds.candidates > 2 ? sureOfBest(odds.confidence, odds.candidates) :
        `${sureness(odds.confidence)} it is the better`}).`;
  }
  return `${head}: in the play-outs its win chance is +${points} percentage points over ` +
    `'${odds.compared_with}', ${sureOfBest(odds.confidence, odds.candidates)}.` + overruledWords(odds);
}

// where the play-outs overrule the learned win objective (claimsolve.claimit.odds OddsResult.overruled):
// which decision the net chose and how sure the play-outs are that it wins less
function overruledWords(odds) {
  const o = odds.overruled;
  if (!o) return "";
  return ` The play-outs overrule the learned win objective's ${o.learned}: they are ${sureness(o.confidence)} ` +
    `that it wins less than ${o.by} (${(100 * o.margin).toFixed(1)} percentage points lower).`;
}

// where the pink bar's decision is not the recommendation's (the learned objective recommends,
// the play-outs' best plan decides otherwise, or wins alike): why, in a short note
function oddsDisagreement(odds) {
  const rows = odds.rows || [];
  if (!rows.length || odds.recommendation === null || odds.recommendation === undefined) return null;
  const top = Math.max(...rows.map((r) => r.win));
  const pink = rows.filter((r) => r.win === top);
  if (pink.every((r) => r.decision === odds.recommendation)) return null;
  const scored = (r) => `'${r.label}' wins ${pct(r.win)}` +
    (r.win_ci95 ? ` (${(100 * r.win_ci95[0]).toFixed(1)}-${pct(r.win_ci95[1])})` : "");
  const ours = rows.filter((r) => r.decision === odds.recommendation).sort((a, b) => b.win - a.win)[0];
  const bar = pink[0];
  const theirs = odds.monte_carlo && odds.monte_carlo.recommendation;
  const learned = odds.recommended_by === LEARNED_OBJECTIVE ?
    "the recommendation follows the learned win objective (the net's estimate of the whole turn, not " +
    "the play-outs'); " : "";
  let said;
  if (!theirs) said = "the play-outs' best plans win alike as shown: they neither confirm nor contradict it";
  else if (odds.confidence !== null && odds.confidence !== undefined) {
    const at = `'${bar.label}' at ${pct(bar.win)}${bar.win_ci95 ? ` (${(100 * bar.win_ci95[0]).toFixed(1)}-` +
      `${pct(bar.win_ci95[1])})` : ""}`;
    said = `the pink bar, ${at}, ${bar.decision === null ? "plays the turn optimum" : `decides ${bar.decision}`}` +
      (ours ? `, where ${scored(ours)}` : "") + `; the play-outs are ` +
      `${sureness(odds.monte_carlo.confidence ?? 1 - odds.confidence)} that ${theirs} ` +
      (odds.candidates > 2 ? `is the best of the ${odds.candidates}` : "wins more");
  } else said = `the pink bar, '${bar.label}', decides ${bar.decision}`;
  return `Why the pink bar differs: ${learned}${said}.`;
}

function shortPlan(r, mode) {
  if (r.plan === "stop") return "stop now";
  // the table's words, shorter; at a turn's start the first roll is the compulsory one
  if (mode === "must roll" && r.plan === "roll:1") return "the compulsory roll, stop";
  if (mode === "must roll" && r.plan && r.plan.startsWith("roll:")) return `roll up to ${r.plan.slice(5)} times, stop`;
  if (r.plan === "roll:1") return "roll once more, stop";
  if (r.plan && r.plan.startsWith("roll:")) return `roll up to ${r.plan.slice(5)} more, stop`;
  return r.label;
}

// `text` in lines of at most `width` characters, broken between words (a
// longer word stands on a line of its own, whole)
function wrapWords(text, width) {
  const lines = [];
  for (const word of String(text).split(/\s+/).filter(Boolean)) {
    const last = lines.length - 1;
    if (last >= 0 && lines[last].length + 1 + word.length <= width) lines[last] += ` ${word}`;
    else lines.push(word);
  }
  return lines.length ? lines : [""];
}

function pct(v) {
  return v === undefined || v === null ? "" : `${(100 * v).toFixed(1)}%`;
}

function escapeHtml(text) {
  return String(text).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));
}

// --- new game, load, save ------------------------------------------------------------------

function openNewDialog() {
  const select = $("new-game");
  if (!select.options.length) {
    for (const game of state.games) select.append(new Option(game.title, game.id));
    select.addEventListener("change", renderNewOptions);
  }
  renderNewOptions();
  $("new-error").textContent = "";
  $("new-dialog").showModal();
}

// a select box for each option with a closed set of values (its default chosen), a field for the
// open ones (a seed); the command line's help as the tooltip
function renderNewOptions() {
  const game = state.games.find((g) => g.id === $("new-game").value);
  const box = $("new-options");
  const fields = [];
  const choices = game.choices || {};
  const defaults = game.defaults || {};
  for (const [name, help] of Object.entries(game.options)) {
    const label = document.createElement("label");
    label.title = help;
    const caption = document.createElement("span");
    caption.textContent = name;
    let input;
    if (choices[name]) {
      input = document.createElement("select");
      for (const value of choices[name]) {
        const option = new Option(String(value) + (value === defaults[name] ? " (default)" : ""), String(value));
        option.dataset.number = typeof value === "number" ? "1" : "";
        input.append(option);
      }
      if (defaults[name] !== undefined) input.value = String(defaults[name]);
      input.dataset.default = defaults[name] === undefined ? "" : String(defaults[name]);
    } else {
      input = document.createElement("input");
      input.type = name === "seed" ? "number" : "text";
      input.placeholder = name === "seed" ? "random" : "default";
    }
    input.name = name;
    input.id = `new-${name}`;
    input.title = help;
    label.append(caption, input);
    fields.push(label);
  }
  box.replaceChildren(...fields);
}

async function startNewGame(event) {
  event.preventDefault();
  const body = { game: $("new-game").value };
  for (const input of $("new-options").querySelectorAll("input, select")) {
    if (input.tagName === "SELECT") {
      if (input.value === input.dataset.default) continue;      // the default: the server's own
      const option = input.selectedOptions[0];
      body[input.name] = option.dataset.number ? Number(input.value) : input.value;
      continue;
    }
    if (input.value.trim() === "") continue;
    body[input.name] = input.type === "number" ? Number(input.value) : input.value.trim();
  }
  try {
    const position = await api("new", body);
    $("new-dialog").close();
    if (!await askDiscard()) return;        // Keep: the game shown stays as it was
    address.kept = false;        // a new game is a change of the game, even one like the game shown
    setLine(position);
  } catch (e) {
    $("new-error").textContent = e.message;
  }
}

function setLine(position, message, options = {}) {
  const root = makeNode(position, null, null, "start");
  nodes.clear();
  nodes.set(root.id, root);
  state.line = [root];
  endReview();
  kept();
  showIndex(0, { keepMessage: Boolean(message), autoPlay: options.autoPlay !== false });
  if (message) setMessage(message, options.kind || "info");
}

// a game read by /api/record: its tree of moves, each with the position after it
function setGame(answer, message, at) {
  // the moves' names as the game's module gives them (a Claim It! bust: "roll:4,1,4 (bust)"); its
  // module is loaded by the time a record of it is read (the page asked the server about it)
  const module = modules.get(answer.start.game);
  const named = module && module.played;
  kept();
  const root = makeNode(answer.start, null, null, "start");
  nodes.clear();
  nodes.set(root.id, root);
  const addLine = (parent, items) => {
    let p = parent;
    for (const item of items) {
      const node = makeNode(item.position, item.move, p, named ? named(item.move, item.position) : item.move);
      if (item.comment !== undefined) node.comment = item.comment;
      if (item.eval !== undefined) node.eval = item.eval;
      p.children.push(node);
      for (const line of item.variations || []) addLine(p, line);
      p = node;
    }
  };
  addLine(root, answer.moves);
  endReview();
  // the move `at` names (the child at each step); one the game does not have: the start, and false
  let node = root;
  for (const k of at || []) node = node && Number.isInteger(k) ? node.children[k] : null;
  const found = Boolean(node);
  node = node || root;
  state.line = pathTo(node).concat(continuation(node).slice(1));
  // what the record had beside its moves (players, comment, event, date, result): Save game keeps it
  state.loaded = { root, record: answer.record, grades: answer.grades || null };
  showIndex(at ? state.line.indexOf(node) : state.line.length - 1, { keepMessage: true, autoPlay: false });
  if (answer.review) showSavedReview(answer.review);
  setMessage(message || "");
  return found;
}

// A record whose every main-line move has its grades (review --save, Save game after a review) loads with
// the review panel they make (/api/record's "review"): its graph, summary and the bar's values, as after
// Review (the marks and verdicts came back, the graph and summary stayed hidden until Review was run again)
function showSavedReview(result) {
  const line = mainLine();
  if (line.length !== result.moves.length + 1) return;
  const review = { controller: null, result, nodes: line, done: result.moves.length, total: result.moves.length,
    timing: {}, pace: "", saved: true };
  state.review = review;
  $("review-panel").hidden = false;
  $("board-column").classList.add("reviewing");
  $("board-area").classList.add("reviewing");
  $("review-tip").hidden = true;
  drawReview(review);
  showReviewProgress(review, `Review loaded with the record: ${counted(result.moves.length, "move")} graded, ` +
    `${result.exact_moves} exact. Values: ${result.unit}. Review grades it again here.`);
  renderMoveList();
}

async function loadFile() {
  const file = $("load-file").files[0];
  if (!file) return;
  const text = await file.text();
  $("load-file").value = "";
  try {
    await loadText(text, file.name);
  } catch (e) {
    setMessage(`${file.name}: ${e.message}`, "error");
  }
}

// a position file, or a game record (a file of many: the player chooses the game); false where the
// player chose none (nothing changed), "kept" where he kept the game shown rather than lose its
// unsaved moves (askDiscard), an error where the text is not one (nothing changed either)
async function loadText(text, name) {
  text = text.replace(/^\ufeff/, "");      // a byte-order mark (pasted): skipped, as a file's is
  let data = null;
  try { data = JSON.parse(text); } catch (e) { /* JSON lines: a file of games */ }
  if (data && typeof data === "object" && !Array.isArray(data) && !("record" in data) &&
      !("start" in data && "moves" in data)) {
    await api("show", { position: data });
    if (!await askDiscard()) return "kept";
    address.kept = false;        // a game loaded replaces a kept address, even one like the game shown
    setLine(data, `Loaded ${name}.`);
    return true;
  }
  // the reader names the text it was sent "record"; the caller names the file (it read "syntax.json:
  // record: invalid JSON ..." for a position file with a trailing comma, where the command line says
  // "syntax.json: invalid JSON ...")
  const read = (body) => api("record", body).catch((e) => {
    e.message = e.message.replace(/^record: /, "");
    throw e;
  });
  let answer = await read({ record: text });
  if (answer.list) {
    const game = await chooseGame(answer.list, name);
    if (game === null) return false;
    answer = await read({ record: text, game });
  }
  const which = answer.games > 1 ? ` (game ${answer.game} of ${answer.games})` : "";
  await moduleFor(answer.start.game);
  if (!await askDiscard()) return "kept";
  address.kept = false;
  setGame(answer, `Loaded ${name}${which}: ${counted(answer.record.moves.length, "move")}.`);
  return true;
}

// Paste: the text of a position file or a record, read as Load reads a file.  A text that is not one
// keeps the dialog open with the text and Load's one line naming what is wrong; the game shown stays.
function openPasteDialog() {
  $("paste-error").textContent = "";
  $("paste-dialog").showModal();
  $("paste-text").focus();
  $("paste-text").select();
}

let pasting = false;

async function openPasted(event) {
  event.preventDefault();
  if (pasting) return;
  const text = $("paste-text").value;
  if (!text.trim()) {
    $("paste-error").textContent = "pasted text: nothing pasted (the JSON of a position or of a game record)";
    return;
  }
  pasting = true;
  $("paste-open").disabled = true;
  $("paste-error").textContent = "";
  try {
    const loaded = await loadText(text, "pasted text");
    if (loaded) $("paste-dialog").close();
    if (loaded === true) $("paste-text").value = "";       // (kept: the text stays for another time)
  } catch (e) {
    $("paste-error").textContent = `pasted text: ${e.message}`;
  } finally {
    pasting = false;
    $("paste-open").disabled = false;
  }
}

// the game of a file of many that the player picks (null: cancelled)
function chooseGame(list, name) {
  const dialog = $("game-dialog");
  const select = $("game-choice");
  $("game-file").textContent = name;
  select.replaceChildren(...list.map((g) => {
    const players = g.players ? ` ${g.players.map((p) => p || "?").join(" v ")};` : "";
    const result = g.result ? ` winners ${g.result.winners.join(", ") || "none"}` : " not over";
    return new Option(`game ${g.game} (line ${g.line}):${players} ${counted(g.moves, "move")},${result}`, String(g.game));
  }));
  dialog.showModal();
  return new Promise((resolve) => {
    // Open, Cancel, or the dialog closed otherwise (Escape): Escape acts as Cancel, else the caller
    // (Paste's Open) would wait for ever
    const done = (value) => {
      $("game-open").onclick = null;
      $("game-cancel").onclick = null;
      dialog.onclose = null;
      dialog.close();
      resolve(value);
    };
    $("game-open").onclick = (e) => { e.preventDefault(); done(Number(select.value)); };
    $("game-cancel").onclick = () => done(null);
    dialog.onclose = () => done(null);
  });
}

function mainLine() {
  return continuation(state.line[0]);
}

// the record the game shown was loaded from (Load, Paste, a link), or null (a new game, a position)
function loadedRecord() {
  return state.loaded && state.loaded.root === state.line[0] ? state.loaded.record : null;
}

const moveOf = (item) => (typeof item === "string" ? item : item.move);

// a reviewed main-line move's eval with every seat's value before it (`values`, the graph's row) and,
// for the last, after it (`values_after`), as review --save writes them: the review reloads with each
// seat's line (the mover's values alone left the others' blank where the values do not mirror)
function withValues(node, review) {
  const result = state.review && state.review.result;
  const ply = result && Array.isArray(result.evals) ? state.review.nodes.indexOf(node) - 1 : -1;
  if (ply < 0 || !result.evals[ply] || ply >= result.moves.length) return review;
  const out = { ...review, values: result.evals[ply] };
  if (ply === result.moves.length - 1 && result.evals[ply + 1]) out.values_after = result.evals[ply + 1];
  return out;
}

// the whole tree as a version-1 game record (docs/records.md): the main line, each move's variations,
// and all the loaded record had that still holds (docs/board.md, Save game): its players, comment,
// event, date and a_seats, and its result while the main line is the one it was loaded with (a
// changed one: null here, the reader's to work out; saveGame asks it).  `options.address`: without
// the players the engine's seats name (the page's, not the game's)
function recordJson(options = {}) {
  const root = state.line[0];
  const nodeJson = (node) => {
    const out = { move: node.move };
    if (node.comment !== undefined) out.comment = node.comment;
    const review = node.review || node.eval;
    if (review) out.eval = withValues(node, review);
    const siblings = node.parent.children;
    if (siblings[0] === node && siblings.length > 1) out.variations = siblings.slice(1).map(lineJson);
    return Object.keys(out).length === 1 ? node.move : out;
  };
  const lineJson = (first) => continuation(first).map(nodeJson);
  const record = { record: 1, game: root.position.game, start: root.position };
  const loaded = loadedRecord() || {};
  const seats = options.address ? new Set() : engineSeats();
  if (loaded.players || seats.size) {
    // the loaded names stand (they played the moves); a seat it left unnamed that the engine plays is its
    const players = [];
    const count = loaded.players ? loaded.players.length : seatCount(root);
    for (let seat = 1; seat <= count; seat++) {
      const named = loaded.players ? loaded.players[seat - 1] : null;
      players.push(named !== null && named !== undefined ? named : seats.has(seat) ? "claimsolve serve" : null);
    }
    record.players = players;
  }
  record.moves = root.children.length ? lineJson(root.children[0]) : [];
  const line = mainLine().slice(1).map((n) => n.move);
  const same = Array.isArray(loaded.moves) && loaded.moves.length === line.length &&
    loaded.moves.every((item, i) => moveOf(item) === line[i]);
  record.result = same && loaded.result ? loaded.result : null;   // null: the reader works it out
  for (const key of ["comment", "event", "date", "a_seats"]) {
    if (loaded[key] !== undefined && loaded[key] !== null) record[key] = loaded[key];
  }
  return record;
}

function download(text, name) {
  const blob = new Blob([text], { type: "application/json" });
  const url = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

async function saveFile() {
  const entry = current();
  // the position written as the commands write it (the API's apply/new text)
  const name = `${entry.position.game}-${state.index}.json`;
  download(JSON.stringify(entry.position, null, 2) + "\n", name);
  setMessage(`Saved ${name}.`);
}

// the moves made since the game was last saved or loaded: a reload or a closed tab would lose them
// without a word where the address cannot hold the game (the browser asks first)
let changes = 0, keptAt = 0;
const changed = () => { changes += 1; followAddress(); };
const kept = () => { keptAt = changes; };

// Unsaved: the game shown has moves, and its moves changed (one made, by the player or the engine,
// deleted or promoted) since it was started, loaded or last saved with Save game.
function unsaved() {
  return changes !== keptAt && Boolean(state.line[0]) && state.line[0].children.length > 0;
}

// Before a control replaces the game shown (New game, Load, Paste, a link put in the address), an
// unsaved game is not thrown away without a word (it was): the page asks in a box of its own (not
// window.confirm, which headless browsers and phones handle badly), "Discard this game of 12
// moves? It is not saved.", with Keep (Esc too: the game shown stays as it was), Save first (Save
// game, then on) and Discard.  Resolves true where the replacement goes on.
let discardAsked = null;

function askDiscard() {
  if (!unsaved()) return Promise.resolve(true);
  if (discardAsked) return Promise.resolve(false);        // a question open already: this one waits
  // the engine rests while the page asks (it went on playing its seats under the question, the
  // count of moves asked about out of date); Keep lets it go on
  stopAnalysis();
  const plies = mainLine().length - 1;
  const variations = nodesOf(state.line[0]).filter((n) => n.parent && !isMain(n)).length;
  $("discard-text").textContent = `Discard this game of ${counted(plies, "move")}` +
    `${variations ? ` and ${counted(variations, "variation")}` : ""}? It is not saved.`;
  const dialog = $("discard-dialog");
  dialog.showModal();
  $("discard-keep").focus();
  discardAsked = new Promise((resolve) => {
    const done = async (answer) => {
      for (const id of ["discard-keep", "discard-save", "discard-yes"]) $(id).onclick = null;
      dialog.onclose = null;
      if (dialog.open) dialog.close();
      discardAsked = null;
      if (answer === "save") await saveGame();
      if (!answer) startAnalysis(true);
      resolve(Boolean(answer));
    };
    $("discard-keep").onclick = () => done(false);
    $("discard-save").onclick = () => done("save");
    $("discard-yes").onclick = () => done(true);
    dialog.onclose = () => done(false);              // Esc: as Keep
  });
  return discardAsked;
}
// the address holds the game (below) unless it is too long, or holds a link the page refused (a
// cut link typed over the game shown: a reload would open that, and drop the game shown)
window.addEventListener("beforeunload", (event) => {
  if (addressHolds()) return;
  const moves = Boolean(state.line[0]) && state.line[0].children.length > 0;
  if (changes !== keptAt || (address.kept && moves)) event.preventDefault();
});

async function saveGame() {
  kept();
  const record = recordJson();
  if (record.result === null) {
    // the moves changed (or a game played here): the result of a finished game is the reader's, as
    // `match` and `play` write it (it was null, whatever the game)
    try {
      record.result = (await api("record", { record })).record.result;
    } catch (e) { /* the reader cannot say (the server out of reach): null, which it works out on reading */ }
  }
  const name = `${record.game}-game.json`;
  download(JSON.stringify(record) + "\n", name);
  const plies = mainLine().length - 1;
  const variations = nodesOf(state.line[0]).filter((n) => n.parent && !isMain(n)).length;
  setMessage(`Saved ${name}: ${counted(plies, "move")}, ${counted(variations, "variation")}.`);
}

function nodesOf(node) {
  const out = [node];
  for (const child of node.children) out.push(...nodesOf(child));
  return out;
}

// --- a link that holds the game: the record deflated, base64url, in the address ----------------

async function deflate(text) {
  const stream = new Blob([text]).stream().pipeThrough(new CompressionStream("deflate"));
  const bytes = new Uint8Array(await new Response(stream).arrayBuffer());
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

async function inflate(code) {
  const base64 = code.replace(/-/g, "+").replace(/_/g, "/");
  const binary = atob(base64 + "=".repeat((4 - (base64.length % 4)) % 4));
  const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("deflate"));
  return new Response(stream).text();
}

// the node shown as the child index at each step from the start
function pathCode(node) {
  return pathTo(node).slice(1).map((n) => n.parent.children.indexOf(n)).join(".");
}

// The address follows the game, as lichess's does: after every change of the moves or of the move
// shown, history.replaceState writes `#game=` (the record) and `&at=` (the move shown) into it, no
// history entry per move, so that a reload or a copied address opens the same game at the same move.
// Two limits decide whether it can hold the game: the server reads a request of at most max_body
// bytes (1 MB; opening the address posts the record inflated), and Chromium keeps an address of at
// most 2,097,152 characters (a longer one stays in the page, but a reload goes back to the one
// before).  A game past either is taken out of the address (a reload would open an older game,
// silently), a line under the moves says so, and leaving the page asks first while moves are unsaved.
const ADDRESS_CHARS = 2 * 1024 * 1024;
// Chromium ignores history changes past 200 in 10 s ("Throttling navigation"): a held arrow key
// writes the address at most every 100 ms, the last move always
const ADDRESS_GAP = 100;
const address = { text: null, code: null, fits: true, limit: null, held: null, written: null, last: -Infinity,
                  due: false, running: null, error: null, kept: false, keptText: null };

// the record the address holds: the game's tree (the engine's seats are the page's, not the game's)
function addressText() {
  return JSON.stringify(recordJson({ address: true }));
}

// whether the address holds the game shown now (its moves, whatever the move shown)
function addressHolds() {
  return Boolean(state.line[0]) && address.fits && address.held === addressText();
}

function followAddress() {
  address.due = true;
  if (!address.running) address.running = runAddress().finally(() => { address.running = null; });
}

async function runAddress() {
  while (address.due) {
    address.due = false;
    const wait = address.last + ADDRESS_GAP - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    try {
      await writeAddress();
      address.error = null;
    } catch (e) {
      address.error = e;       // no CompressionStream: the address stays as it was, and Link says so
    }
  }
}

async function writeAddress() {
  if (!state.line[0]) return;
  const text = addressText();
  // an address whose game could not be opened stays, for the player to mend or copy, until the
  // game shown changes (a move, a load): the game the page shows meanwhile does not replace it
  if (address.kept) {
    if (address.keptText === null) address.keptText = text;
    if (text === address.keptText) return;
    address.kept = false;
  }
  const at = pathCode(current());
  if (text !== address.text || state.maxBody !== address.limit) {
    // opening the address posts {"record": ...}: the server's limit is on that body
    const bytes = new Blob([text]).size + '{"record":}'.length;
    let code = null;
    if (bytes <= state.maxBody) code = await deflate(text);
    const base = location.pathname + location.search;
    const fits = code !== null && base.length + code.length + at.length + 20 < ADDRESS_CHARS;
    const note = $("address-note");
    note.hidden = fits;
    note.textContent = fits ? "" : `This game is too long for the address (${Math.ceil(bytes / 1024)} KB as a ` +
      `record; the server reads at most ${Math.floor(state.maxBody / 1024)} KB): a reload would lose it, so ` +
      "leaving the page asks first. Save game keeps it.";
    Object.assign(address, { text, code, fits, limit: state.maxBody });
  }
  const hash = address.fits ? `#game=${address.code}&at=${at}` : "";
  if (hash !== address.written) {
    history.replaceState(history.state, "", location.pathname + location.search + hash);
    address.written = hash;
    address.last = performance.now();
  }
  address.held = address.fits ? text : null;
}

// Link: the address holds the game already; the button copies it (and says how long it is)
async function shareLink() {
  followAddress();
  await address.running;
  if (address.error) {
    setMessage(`Link: this browser cannot compress the game (${address.error.message}); Save game keeps it.`,
               "error");
    return;
  }
  if (address.kept) {
    setMessage("Link: the address holds a game this page could not open (the link cut short or changed), " +
               "not the game shown; it stays to mend or copy until you move, load or start a game.", "error");
    return;
  }
  if (!address.fits) {
    setMessage("Link: this game is too long for an address (the server reads a record of at most " +
               `${Math.floor(state.maxBody / 1024)} KB); Save game keeps it.`, "error");
    return;
  }
  let copied = "";
  try {
    await navigator.clipboard.writeText(location.href);
    copied = ", copied";
  } catch (e) { /* no clipboard here: the address bar holds it */ }
  setMessage(`The address holds this game and move${copied} (${location.href.length} characters): share it, or ` +
             "reload the page to come back here.");
}

// the game of the address opened: true; no game in it: false; a game that cannot be read: the
// refusal's words (shown, and the address kept as it is: see writeAddress)
async function openLink(options = {}) {
  const params = new URLSearchParams(location.hash.slice(1));
  const code = params.get("game");
  if (code === null) return false;
  if (!code) {                 // `#game=` and nothing after it: said, and the address given back to the game
    const words = "The link holds no game (nothing after #game=).";
    address.written = null;
    if (state.line[0]) {
      followAddress();
      setMessage(words, "error");
    }
    return words;
  }
  try {
    let text, record;
    try {
      text = await inflate(code);
    } catch (e) {              // not base64, or not a deflated text: the browser's words mean nothing here
      throw new Error("the link is cut short or changed (its game is not the page's own code)");
    }
    try {
      record = JSON.parse(text);
    } catch (e) {              // deflated text, but not the page's: the parser's words mean nothing here
      throw new Error("the link is changed (its text is not a game record's JSON)");
    }
    const answer = await api("record", { record });
    const atText = params.get("at") || "";
    const at = atText.split(".").filter((k) => k !== "").map(Number);
    await moduleFor(answer.start.game);
    if (options.ask && !await askDiscard()) {
      // kept: the address given back to the game shown (a reload would have opened the link's)
      address.written = null;
      followAddress();
      return false;
    }
    if (setGame(answer, "Opened the game of the link.", at)) return true;
    setMessage(`Opened the game of the link at the start: its move (&at=${atText}) is not one of the game's.`,
               "error");
    return true;
  } catch (e) {
    const words = `The link's game cannot be read: ${e.message}. The address keeps it until you move or load ` +
                  "a game.";
    Object.assign(address, { kept: true, keptText: state.line[0] ? addressText() : null, held: null });
    setMessage(words, "error");
    return words;
  }
}

// --- board and bar flips ---------------------------------------------------------------------

// the board turned round: the drawing rotated about its centre
function applyFlip() {
  const svg = $("board");
  if (!state.flipped || !state.layout || state.module.generic) return;
  const box = svg.viewBox.baseVal;
  const g = document.createElementNS(SVGNS, "g");
  g.id = "flipped";
  g.setAttribute("transform", `rotate(180 ${box.x + box.width / 2} ${box.y + box.height / 2})`);
  g.append(...Array.from(svg.childNodes));
  svg.append(g);
  // texts and pieces turned upright again about their own centres: they keep their places mirrored;
  // a piece's number about its piece's centre, so that it keeps its place on the piece (a tower's
  // number, low in its body, went up onto its battlements)
  for (const el of g.querySelectorAll("text, .piece")) {
    if (el.tagName === "text" && el.parentElement.closest(".piece")) continue;
    const piece = el.tagName === "text" && el.dataset.at ?
      g.querySelector(`.piece[data-at="${CSS.escape(el.dataset.at)}"]`) : null;
    standUpright(el, piece);
  }
}

function standUpright(el, about = null) {
  const b = (about || el).getBBox();
  const own = el.getAttribute("transform") || "";
  el.setAttribute("transform", `rotate(180 ${b.x + b.width / 2} ${b.y + b.height / 2}) ${own}`);
}

async function flipBoard() {
  state.flipped = !state.flipped;
  $("flip-button").classList.toggle("on", state.flipped);
  await drawBoard();
  applyFlip();
  drawArrows(arrowsShown());                  // the engine's arrows, drawn anew on the board turned
}

function flipEval() {
  const seats = current() ? seatCount(current()) : 2;
  state.evalSeat = state.evalSeat % seats + 1;
  refreshEval();
}

// the bar drawn anew from the live engine's answer, or without one from the review's values
function refreshEval() {
  const result = state.analysis && state.analysis.result;
  setEval(result && result.suggestions && result.suggestions.length ?
    evaluation(result) : null);
}

// --- review mode: the main line graded by /api/review ------------------------------------------

// whether the review shown (or under way) graded the line through `node`
function reviewHolds(node) {
  return Boolean(state.review && state.review.nodes.includes(node));
}

// the main line a review graded has changed: its graph, summary and the grades of the moves no
// longer on the main line go (the moves before keep theirs: their positions are the same)
function closeStaleReview() {
  const line = new Set(mainLine());
  for (const n of state.review.nodes) if (!line.has(n)) n.review = undefined;
  endReview();
}

function endReview() {
  if (state.practice) endPractice(null);
  $("practice-bar").hidden = true;
  $("practice-note").textContent = "";
  if (state.review && state.review.controller) state.review.controller.abort();
  state.review = null;
  $("review-panel").hidden = true;
  $("board-column").classList.remove("reviewing");
  $("board-area").classList.remove("reviewing");
  $("review-button").textContent = "Review";
  refreshEval();
}

let reviewObjectivesFor = null;

// the objectives a review can take for the game and seat count shown (/api/games: a game whose moves
// have several measures, as Claim It!'s turn optimum), in a select; hidden where there is one
function renderReviewObjectives(position) {
  const players = position.players || 2;
  const key = `${position.game}/${players}`;
  if (key === reviewObjectivesFor) return;
  reviewObjectivesFor = key;
  const game = state.games.find((g) => g.id === position.game);
  const choices = ((game && game.review_objectives) || []).filter((o) => !o.players || o.players.includes(players));
  const select = $("review-objective");
  const previous = select.value;
  const preferred = (o) => (o.default || []).includes(players);
  select.replaceChildren(...choices.map((o) => new Option(o.label, o.id, preferred(o), preferred(o))));
  if (choices.some((o) => o.id === previous)) select.value = previous;
  $("review-objective-label").hidden = choices.length < 2;
}

async function startReview() {
  if (state.review && !state.review.result && !state.review.stopped) {
    endReview();
    setMessage("Review stopped.");
    renderMoveList();
    return;
  }
  const line = mainLine();
  if (line.length < 2) {
    setMessage("Review: the game has no moves yet.", "error");
    return;
  }
  for (const node of nodesOf(line[0])) node.review = undefined;
  const controller = new AbortController();
  // the review's engine time (a position's time for each position) within the server's --max-time, and
  // said where it is cut: "0.27 s a position (cut from 1 s to fit this server's 30 s cap)" (it ran
  // 0.269 s a position without a word, where 1 s was asked)
  const asked = Number($("review-time").value);
  const time = Math.floor(1000 * Math.min(asked, 0.98 * state.maxTime / line.length)) / 1000;
  const pace = `up to ${Number(time.toPrecision(2))} s a position` + (time < asked ? ` (cut from ${asked} s to fit ` +
    `this server's ${state.maxTime} s cap)` : "");
  const review = { controller, result: null, nodes: line, done: 0, total: line.length - 1, timing: {}, pace };
  state.review = review;
  $("review-button").textContent = "Stop review";
  $("review-panel").hidden = false;
  $("board-column").classList.add("reviewing");
  $("board-area").classList.add("reviewing");
  // nothing of the review before stays while this one runs (its legend read "player 1's margin ..." over
  // a Claim It! review being made)
  $("review-graph").replaceChildren();
  $("review-legend").replaceChildren();
  $("review-summary").replaceChildren();
  $("review-tip").hidden = true;
  if (state.practice) endPractice(null);
  $("practice-bar").hidden = true;
  $("practice-note").textContent = "";
  showReviewProgress(review, `Reviewing ${counted(review.total, "move")} at ${pace}...`);
  try {
    const body = { record: recordJson(), time };
    if (!$("review-objective-label").hidden) body.objective = review.objective = $("review-objective").value;
    await apiEvents("review", body, controller.signal, (name, data) => {
      if (state.review !== review) return;
      if (name === "progress") {
        review.done = data.done;
        const node = line[data.move.ply];
        if (node) node.review = withObjective(data.move, review.objective);
        showReviewProgress(review, `Reviewed ${data.done} of ${counted(data.total, "move")} at ${review.pace}...`);
        scheduleMoveList();
        if (node && node === current()) drawReviewBest();
        followAddress();
      } else if (name === "result") {
        review.timing.result = performance.now();
        review.result = data;
        for (const m of data.moves) if (line[m.ply]) line[m.ply].review = withObjective(m, data.objective);
        drawReview(review);
        followAddress();
        renderMoveList();
        drawReviewBest();
        requestAnimationFrame(() => { review.timing.drawn = performance.now(); });
        $("review-button").textContent = "Review";
        showReviewProgress(review, `Reviewed ${counted(data.moves.length, "move")} in ${data.seconds} s at ` +
          `${review.pace}; ${data.exact_moves} exact. Values: ${data.unit}.`);
      } else if (name === "error") {
        reviewFailed(review, data.error);
      }
    });
  } catch (e) {
    if (e.name === "AbortError" || state.review !== review) return;
    reviewFailed(review, e.message);
  }
}

// a graded move with the measure its values are in (Claim It!'s objective), which a saved record keeps in
// the move's "eval" so that loading it says the loss in its own unit (review --save writes it too)
function withObjective(move, objective) {
  return objective ? { ...move, objective } : move;
}

// a review the server could not finish (stopped, out of reach): the moves graded so far keep their
// grades and the panel says how far it got, as `review`'s Ctrl-C keeps them on the command line
function reviewFailed(review, error) {
  setMessage(`Review: ${error}`, "error");
  if (!review.done) {
    endReview();
    return;
  }
  review.stopped = true;
  review.controller = null;
  $("review-button").textContent = "Review";
  showReviewProgress(review, `Stopped after ${review.done} of ${counted(review.total, "move")} (${error}); the grades so ` +
    "far stay on the moves.");
  renderMoveList();
}

let moveListPending = false;

// the moves list redrawn at most once a frame while the review reports
function scheduleMoveList() {
  if (moveListPending) return;
  moveListPending = true;
  requestAnimationFrame(() => { moveListPending = false; renderMoveList(); });
}

function showReviewProgress(review, text) {
  const bar = $("review-progress");
  bar.max = review.total;
  bar.value = review.result ? review.total : review.done;
  $("review-status").textContent = text;
}

const GRADE_COLOURS = style.charts.grades;     // as review --svg draws them
// a seat's line in the colour its pieces have on the board (style.games[id].seats)
function seatColours(game) {
  return (style.games[game] || {}).seats || style.charts.seats;
}

// whether the review's values mirror (a margin or a win chance of two sides adding up to 0 or 1 at every
// ply: the server's `mirrored`), so that player 1's line alone draws them; Claim It!'s win chance by the
// net does not, with 2 players too (0.473 and 0.426 at its start): a line per seat
function reviewMirrored(result) {
  if (result.mirrored !== undefined) return result.mirrored;
  return (result.graph === "margin" || result.graph === "chance") && result.sides === 2;
}

// what the graph draws, the unit named once: "player 1's margin after every ply (points)", "each
// player's win chance after every ply" (it read "... after every ply (win chance)"); as review --svg
function graphWords(result, mirrored) {
  const what = { chance: "win chance", margin: "margin" }[result.graph] || "value";
  const words = `${mirrored ? "player 1" : "each player"}'s ${what} after every ply`;
  const short = shortUnit(result.unit);
  return words.includes(short) ? words : `${words} (${short})`;
}

// the evaluation over the game, as lichess draws it: player 1's value (a margin or a win chance, the
// two sides' mirror) as an area from the middle line, or a line per seat; a dot per graded move
// (inaccuracy, mistake, blunder); a click goes to that ply
function drawReview(review) {
  const result = review.result;
  const evals = result.evals;
  const n = evals.length;
  const seats = evals.length ? evals[0].length : 2;
  const mirrored = reviewMirrored(result);
  const shown = mirrored ? [0] : [...Array(seats).keys()];
  const colours = seatColours(result.game);
  const values = [];
  for (const row of evals) for (const s of shown) if (row[s] !== null && row[s] !== undefined) values.push(row[s]);
  let low = Math.min(...values, 0), high = Math.max(...values, 1);
  if (result.graph === "chance") { low = 0; high = 1; }
  else if (result.graph === "margin") {
    const bound = Math.max(1, Math.ceil(Math.max(...values.map(Math.abs), 1)));
    low = -bound; high = bound;
  }
  if (high - low < 1e-9) { low -= 1; high += 1; }
  // drawn at the size shown, so that the dots stay round
  const shownWidth = Math.round($("review-graph").clientWidth || 600);
  const W = Math.max(300, shownWidth), H = 110, pad = 6;
  // the axis, as review --svg labels it: the value at the top, the middle and the bottom in the
  // review's unit (100%, 50%, 0% of a win chance; +8, 0, -8 points), in a margin of their own at the
  // left, never under LEGIBLE CSS px where the graph is shown narrower than drawn (a phone)
  const mid = result.graph === "chance" ? 0.5 : result.graph === "margin" ? 0 : (low + high) / 2;
  const levels = [high, mid, low].map((v) => ({ v, text: axisWords(result, v) }));
  const axisSize = Math.max(11, Math.ceil(LEGIBLE * W / Math.max(1, shownWidth)));
  const left = Math.ceil(Math.max(...levels.map((l) => l.text.length)) * axisSize * 0.62) + 10;
  const gx = (ply) => left + pad + (W - left - 2 * pad) * (n > 1 ? ply / (n - 1) : 0.5);
  const gy = (v) => pad + (H - 2 * pad) * (1 - (v - low) / (high - low));
  const parts = [`<rect class="ground" x="${left}" y="0" width="${W - left}" height="${H}" ` +
    `fill="${mirrored ? "#4a4a4a" : "#fff"}"/>`];
  const axis = [`<rect x="0" y="0" width="${left}" height="${H}" fill="#fff"/>`];
  for (const { v, text } of levels) {
    const y = gy(v);
    // the top's and the bottom's words within the graph, the middle's centred on its line
    const base = Math.min(H - 3, Math.max(axisSize * 0.8 + 1, y + axisSize * 0.35));
    axis.push(`<line x1="${left - 4}" y1="${y.toFixed(1)}" x2="${left}" y2="${y.toFixed(1)}" stroke="#5b6770"/>` +
      `<text x="${left - 6}" y="${base.toFixed(1)}" font-size="${axisSize}" text-anchor="end" fill="#5b6770">` +
      `${escapeHtml(text)}</text>`);
  }
  parts.push(`<g class="axis"><title>${escapeHtml(`values: ${result.unit}`)}</title>${axis.join("")}</g>`);
  const middle = gy(result.graph === "chance" ? 0.5 : 0);
  for (const s of shown) {
    const points = [];
    evals.forEach((row, ply) => { if (row[s] !== null && row[s] !== undefined) points.push([gx(ply), gy(row[s])]); });
    if (!points.length) continue;
    const path = points.map(([x, y]) => `${x.toFixed(1)},${y.toFixed(1)}`).join(" L");
    if (mirrored) {
      // player 1's share: the area from the line down to the bottom, light (lichess's white)
      parts.push(`<path class="advantage" d="M${points[0][0].toFixed(1)},${H} L${path} L${points[points.length - 1][0].toFixed(1)},${H} Z" fill="#f3f1ea"/>`);
      parts.push(`<line x1="${left}" y1="${middle.toFixed(1)}" x2="${W}" y2="${middle.toFixed(1)}" stroke="#999" stroke-dasharray="3 3"/>`);
      parts.push(`<path class="evaluation" d="M${path}" fill="none" stroke="${style.charts.evaluation}" stroke-width="1.5"/>`);
    } else {
      parts.push(`<path class="evaluation" data-seat="${s + 1}" d="M${path}" fill="none" stroke="${colours[s % colours.length]}" stroke-width="1.8"><title>player ${s + 1}</title></path>`);
    }
  }
  parts.push(`<line id="review-cursor" x1="0" y1="0" x2="0" y2="${H}" stroke="#3d8fd6" stroke-width="2" visibility="hidden"/>`);
  const colWidth = (W - left - 2 * pad) / Math.max(1, n - 1);
  for (let ply = 0; ply < n; ply++) {
    // its move, grade and value in words (it said "ply 3" alone), as the tip shows them (onGraphHover)
    parts.push(`<rect class="ply" data-ply="${ply}" x="${(gx(ply) - colWidth / 2).toFixed(1)}" y="0" ` +
      `width="${colWidth.toFixed(1)}" height="${H}" fill="#000" fill-opacity="0"><title>` +
      `${escapeHtml(plyWords(result, ply, mirrored))}</title></rect>`);
  }
  for (const m of result.moves) {
    const colour = GRADE_COLOURS[m.grade];
    const row = evals[m.ply];
    const s = mirrored ? 0 : m.seat - 1;
    if (!colour || !row || row[s] === null || row[s] === undefined) continue;
    // solid where the grade is proven, hollow where it is estimated; ringed dark (style.charts.grade_ring),
    // as review --svg draws it, so that a dot stands out of a seat's line of a like colour
    const ring = style.charts.grade_ring;
    const at = `cx="${gx(m.ply).toFixed(1)}" cy="${gy(row[s]).toFixed(1)}"`;
    const paint = m.exact ? `r="5" fill="${colour}" stroke="${ring}" stroke-width="1.5"` :
      `r="4" fill="#fff" stroke="${colour}" stroke-width="2.5"`;
    if (!m.exact) parts.push(`<circle class="ring" ${at} r="6" fill="none" stroke="${ring}" stroke-width="1.2" pointer-events="none"/>`);
    parts.push(`<circle class="grade ${m.grade}${m.exact ? "" : " estimated"}" data-ply="${m.ply}" ` +
      `${at} ${paint}><title>${escapeHtml(plyWords(result, m.ply, mirrored))}</title></circle>`);
  }
  const svg = $("review-graph");
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  svg.innerHTML = parts.join("");
  const legend = $("review-legend");
  legend.textContent = `${graphWords(result, mirrored)}; ` +
    "dots: inaccuracy (yellow), mistake (orange), blunder (red), solid where proven, hollow where estimated " +
    "(a mark ?! ? ?? underlined with dots in the moves). " + thresholdWords(result) + "Click to go to a ply.";
  if (!mirrored) {
    // which line is whose: a swatch in each seat's board colour
    for (const s of shown) {
      const key = document.createElement("span");
      key.className = "seat-key";
      key.dataset.seat = String(s + 1);
      key.style.borderColor = colours[s % colours.length];
      key.textContent = `player ${s + 1}`;
      legend.append(" ", key);
    }
  }
  renderReviewSummary(result);
  renderPracticeBar(review);
  moveReviewCursor();
  refreshEval();
}

// the grades' thresholds in words, and the review's rule of a grade beyond them (a note on a blunder):
// "Graded by the loss: an inaccuracy from 1 point, a mistake from 3, a blunder from 6; a move that turns
// a proven win into a draw or loss ... is a mistake at least; a win turned into a loss is a blunder. "
function thresholdWords(result) {
  const t = result.thresholds;
  if (!t) return "";
  const chance = result.graph === "chance";
  const n = (v) => (chance ? Number(v).toFixed(2) : String(v));
  const rules = (result.notes || []).filter((note) => /\bblunder\b/.test(note) && /\bmistake\b/.test(note));
  return `Graded by the loss: an inaccuracy from ${n(t.inaccuracy)} ${lossUnit(result.unit, t.inaccuracy)}, ` +
    `a mistake from ${n(t.mistake)}, a blunder from ${n(t.blunder)}` + rules.map((r) => `; ${r}`).join("") + ". ";
}

// a value of the graph's axis: a win chance in per cent, a margin signed (0 without a sign), as review
// --svg writes them (render/review.py _axis)
function axisWords(result, v) {
  if (result.graph === "chance") return `${Math.round(100 * v)}%`;
  if (result.graph === "margin") return v ? signed(Math.round(v)) : "0";
  return Number.isInteger(v) ? String(v) : Number(v).toFixed(1);
}

// a value of the graph in words: a win chance in per cent, a margin signed, spaces to two places
function valueWords(result, v) {
  if (v === null || v === undefined) return "?";
  if (result.graph === "chance") return `${Math.round(100 * v)}%`;
  if (result.graph === "margin") return signed(v);
  return Number(v).toFixed(2);
}

// a ply of the graph in words, as a lichess user reads it on hovering its graph, and as the board says a
// graded move: "15. P1 b4-b3: Blunder (-8 points). b5-a5 was best. Player 1 -27."; "4. P2 b2-a2:
// best. Player 1 -8."; at ply 0 the start's values.  Each seat's where the values do not mirror.
function plyWords(result, ply, mirrored) {
  const row = result.evals[ply] || [];
  const values = mirrored ? `Player 1 ${valueWords(result, row[0])}` :
    row.map((v, s) => `P${s + 1} ${valueWords(result, v)}`).join(", ");
  const m = result.moves[ply - 1];
  if (!m) return ply === 0 ? `Start: ${values}.` : `${ply}: ${values}.`;
  const verdict = gradeVerdict(m, result);
  const words = GRADE_NAMES[m.grade] ? verdictText(verdict) : `${m.grade}${m.forced ? " (forced)" : ""}.`;
  return `${ply}. P${m.seat} ${m.move}: ${words} ${values}.`;
}

// the graph hovered: the ply's words in a tip over it (its title shows them too, but late)
function onGraphHover(event) {
  const tip = $("review-tip");
  const target = event.target.closest && event.target.closest("[data-ply]");
  const review = state.review;
  if (!target || !review || !review.result) {
    tip.hidden = true;
    return;
  }
  tip.textContent = plyWords(review.result, Number(target.dataset.ply), reviewMirrored(review.result));
  tip.hidden = false;
  // over the graph, beside the pointer, within the panel
  const panel = $("review-panel").getBoundingClientRect(), graph = $("review-graph").getBoundingClientRect();
  const x = Math.max(0, Math.min(event.clientX - panel.left + 12, panel.width - tip.offsetWidth - 4));
  tip.style.left = `${x}px`;
  tip.style.top = `${graph.top - panel.top + 4}px`;
}

// a player's count of a grade in the summary clicked: his next move of that grade after the move shown
// (round to his first), as lichess's counts of inaccuracies, mistakes and blunders go to them
function nextGraded(seat, grade) {
  const review = state.review;
  if (!review || !review.result) return;
  const plies = review.result.moves.filter((m) => m.seat === seat && m.grade === grade && !m.forced).map((m) => m.ply);
  if (!plies.length) return;
  const here = review.nodes.indexOf(current());
  const ply = plies.find((p) => p > here) || plies[0];
  const node = review.nodes[ply];
  if (node && nodes.has(node.id)) goTo(node);
}

// "points" of "points: the final-score margin ..."
function shortUnit(unit) {
  return String(unit).split(":")[0];
}

function moveReviewCursor() {
  const cursor = document.getElementById("review-cursor");
  const review = state.review;
  if (!cursor || !review || !review.result) return;
  const ply = review.nodes.indexOf(current());
  const rect = ply >= 0 ? $("review-graph").querySelector(`rect.ply[data-ply="${ply}"]`) : null;
  if (!rect) { cursor.setAttribute("visibility", "hidden"); return; }
  const x = Number(rect.getAttribute("x")) + Number(rect.getAttribute("width")) / 2;
  cursor.setAttribute("x1", x);
  cursor.setAttribute("x2", x);
  cursor.setAttribute("visibility", "visible");
}

// the kind of pointer that last pressed on the graph ("mouse", "touch", "pen")
let graphPointer = "mouse";

function onGraphClick(event) {
  // a tap (no mouse to leave the graph) took the tip with it: it stayed over the top of the graph
  if (graphPointer !== "mouse") $("review-tip").hidden = true;
  const target = event.target.closest("[data-ply]");
  if (!target || !state.review) return;
  const node = state.review.nodes[Number(target.dataset.ply)];
  if (node && nodes.has(node.id)) goTo(node);
}

function renderReviewSummary(result) {
  const grades = ["best", "good", "inaccuracy", "mistake", "blunder"];
  const head = ["player", "moves", "mean loss", ...grades, "exact"];
  if (result.summary.some((e) => e.luck !== undefined)) head.push("dice", "decisions");
  if (result.summary.some((e) => e.rest !== undefined)) head.push("rest");
  // short headers, the whole name in a title, so that every count is in sight without scrolling sideways
  // (at 1280x800 "decisions" showed as "d" behind a scroll bar; on a phone the grade counts were out of
  // sight): the grades as the moves list marks them
  const SHORT = { "mean loss": ["loss", "mean loss of the moves, forced ones apart"],
    inaccuracy: ["?!", "inaccuracies"], mistake: ["?", "mistakes"], blunder: ["??", "blunders"],
    exact: ["exact", "moves whose grade is proven"], decisions: ["dec.", "decisions: what the player's moves lost"],
    dice: ["dice", "what the dice gave"],
    rest: ["rest", "the rest of the player's change from the first ply to the last: the other seats' turns, " +
      "and each search valuing anew what the last one valued (end - start - dice - decisions)"] };
  const table = document.createElement("table");
  if (head.includes("rest")) table.className = "with-rest";
  const tr = document.createElement("tr");
  for (const name of head) {
    const th = document.createElement("th");
    const [text, title] = SHORT[name] || [name, null];
    th.textContent = text;
    th.dataset.column = name;
    if (title) th.title = title;
    if (name !== "player") th.className = "count";
    tr.append(th);
  }
  const thead = document.createElement("thead");
  thead.append(tr);
  const tbody = document.createElement("tbody");
  for (const e of result.summary) {
    const row = document.createElement("tr");
    // as the command line names them: "Player 1 (random)"
    const who = `Player ${e.seat}${e.player ? ` (${e.player})` : ""}`;
    // a win chance to its three digits in every row (0.010, 0.022, not 0.01 beside 0.022)
    const loss = result.graph === "chance" ? Number(e.mean_loss).toFixed(3) : String(e.mean_loss);
    const cells = [who, e.moves + (e.forced ? ` +${e.forced} forced` : ""), loss,
      ...grades.map((g) => String(e.grades[g] ?? 0)), String(e.exact)];
    if (e.luck !== undefined) cells.push(signed(e.luck), signed(e.decisions));
    if (e.rest !== undefined) cells.push(signed(e.rest));
    cells.forEach((text, k) => {
      const td = document.createElement("td");
      const grade = head[k];
      if (GRADE_NAMES[grade] && Number(text) > 0) {
        // a count goes to the player's next move of that grade (a button: Tab and Enter reach it too)
        const b = document.createElement("button");
        b.type = "button";
        b.className = `grade-count ${grade}`;
        b.dataset.seat = String(e.seat);
        b.dataset.grade = grade;
        b.textContent = text;
        b.title = `Go to player ${e.seat}'s next ${grade} (${text} in all)`;
        b.addEventListener("click", () => nextGraded(e.seat, grade));
        td.append(b);
      } else td.textContent = text;
      if (k > 0) td.className = "count";
      td.dataset.column = head[k];
      row.append(td);
    });
    tbody.append(row);
  }
  table.append(thead, tbody);
  const caption = document.createElement("p");
  caption.textContent = "Loss: the value before the move minus after it, for the player who moved, in " +
    `${shortUnit(result.unit)}; forced moves are left out of the mean.`;
  $("review-summary").replaceChildren(table, caption);
}

// --- practising a reviewed game's mistakes (lichess's "Learn from your mistakes") ----------------------
// For a seat the player picks, his moves the review graded mistake or blunder (inaccuracies too where
// ticked), in the game's order: the position before each is shown, the engine's suggestions hidden, and
// a move played there is a try: the server grades it as the review graded the move (POST /api/grade:
// claimsolve.reviewer.grade_move, the review's time a position and objective).  Graded best or good it is
// "Well found" and stays as a variation; worse, it is taken back (the tree as it was) and the player tries
// again.  The game's own moves are never changed: a try is never added to the main line.

// the engine kinds a record names its players by (claimsolve.player_kinds), and the page's own engine:
// a seat named otherwise ("you", "Anna", none) is a person's
const ENGINE_NAMES = /^(random|mcts|alphabeta|solver|greedy|threshold|risk|optimum|analyze|openspiel-mcts|claimsolve serve)\b/;

function practiceGrades() {
  return $("practice-inaccuracies").checked ? ["inaccuracy", "mistake", "blunder"] : ["mistake", "blunder"];
}

// the moves of `seat` the practice asks about, in the game's order
function practiceItems(review, seat, grades = practiceGrades()) {
  return review.result.moves.filter((m) => m.seat === seat && grades.includes(m.grade) && !m.forced &&
    review.nodes[m.ply] && review.nodes[m.ply - 1]);
}

// the seat the player played, where the page knows it: the one seat the page's engine did not play,
// else the one seat the record names by no engine's name; null where neither says
function playersSeat(result) {
  const seats = result.summary.map((e) => e.seat);
  const engine = engineSeats();
  const free = seats.filter((seat) => !engine.has(seat));
  if (engine.size && free.length === 1) return free[0];
  const people = result.summary.filter((e) => e.player && !ENGINE_NAMES.test(String(e.player))).map((e) => e.seat);
  const named = result.summary.filter((e) => e.player).length === seats.length;
  return named && people.length === 1 ? people[0] : null;
}

// the controls under the review's head: whose mistakes (default: the player's seat where the page knows
// it, else the seat with the most mistakes and blunders), how many each, inaccuracies too
function renderPracticeBar(review) {
  const result = review.result;
  if (!result || state.practice) return;
  const select = $("practice-seat");
  const previous = select.value;
  const grades = practiceGrades();
  const counts = result.summary.map((e) => [e.seat, practiceItems(review, e.seat, grades).length]);
  const serious = (seat) => practiceItems(review, seat, ["mistake", "blunder"]).length;
  let chosen = playersSeat(result);
  if (chosen === null) {
    chosen = counts[0] ? counts[0][0] : 1;
    for (const [seat] of counts) if (serious(seat) > serious(chosen)) chosen = seat;
  }
  if (review.practiceSeat) chosen = review.practiceSeat;       // the player's own choice, kept
  select.replaceChildren(...counts.map(([seat, n]) => new Option(`player ${seat} (${n})`, String(seat))));
  select.value = String(chosen);
  if (!select.value && previous) select.value = previous;
  const n = (counts.find(([seat]) => seat === Number(select.value)) || [0, 0])[1];
  $("practice-button").disabled = n === 0;
  $("practice-button").title = n ? `Go through player ${select.value}'s ${counted(n, "move")} graded ` +
    `${grades.join(", ").replace(/, (\w+)$/, " or $1")}, in the game's order: ` +
    "find a better move in the position before each (lichess's \"Learn from your mistakes\")" :
    `Player ${select.value} made no move graded ${grades.join(" or ")} to practise`;
  $("practice-bar").hidden = false;
}

// the loss of a move in the review's unit: "0.213 win chance", "3 points", "1 point"
function lossWords(result, loss) {
  const value = result.graph === "chance" ? Number(loss).toFixed(3) : String(loss);
  return `${value} ${lossUnit(result.unit, loss)}`;
}

function practicePrompt(parts, kind = "") {
  const p = $("practice-prompt");
  p.replaceChildren();
  for (const part of parts) {
    if (typeof part === "string") p.append(part);
    else {
      const span = document.createElement("span");
      span.className = part.kind;
      span.textContent = part.text;
      p.append(span);
    }
  }
  p.dataset.kind = kind;
}

function practiceButtons(asking) {
  $("practice-answer").hidden = $("practice-skip").hidden = !asking;
  $("practice-next").hidden = asking;
  const last = state.practice && state.practice.at === state.practice.items.length - 1;
  $("practice-next").textContent = last ? "Finish" : "Next";
}

// while a try is judged its buttons wait (a skip or a stop then would leave the try half done)
function practiceBusy(busy) {
  for (const id of ["practice-answer", "practice-skip", "practice-next", "practice-stop"]) $(id).disabled = busy;
  updateButtons();
}

// a try's node out of the tree again, where the try made it (`existed`: it was there before)
function takeBack(entry, child, existed) {
  const at = entry.children.indexOf(child);
  if (existed || at < 0) return;
  entry.children.splice(at, 1);
  nodes.delete(child.id);
}

async function startPractice() {
  const review = state.review;
  if (!review || !review.result || state.practice) return;
  const seat = Number($("practice-seat").value);
  const items = practiceItems(review, seat);
  if (!items.length) return;
  review.practiceSeat = seat;
  state.practice = { review, seat, items, at: 0, found: 0, status: "asking", solved: new Set() };
  stopAnalysis();
  clearSuggestions();
  $("review-panel").classList.add("practising");
  $("practice").hidden = false;
  $("practice-note").textContent = "";
  await askPractice();
}

// the position before the move asked about, and the question
async function askPractice() {
  const p = state.practice;
  if (!p) return;
  const m = p.items[p.at];
  const result = p.review.result;
  p.status = "asking";
  practiceButtons(true);
  practicePrompt([`Move ${m.ply}, player ${m.seat}: find a better move than ${p.review.nodes[m.ply].label} ` +
    `(it lost ${lossWords(result, m.loss)}).`, ` ${p.at + 1} of ${p.items.length}.`]);
  await goTo(p.review.nodes[m.ply - 1]);
  if (state.practice === p) setMessage(`Practice: play a better move for player ${m.seat} (the engine's suggestions ` +
    "are hidden meanwhile).");
}

// whether a move played at `entry` is a try at the practice's question
function practiceAsks(entry) {
  const p = state.practice;
  return Boolean(p && p.status === "asking" && entry === p.review.nodes[p.items[p.at].ply - 1]);
}

// A move played at the position asked: shown on the board while the server grades it as the review
// graded the game's move; best or good: found (kept as a variation); worse: taken back, try again.
async function practiseTry(entry, answer, recorded, played) {
  const p = state.practice;
  const m = p.items[p.at];
  const result = p.review.result;
  if (recorded === m.move) {
    practicePrompt([{ kind: "wrong", text: "Not that:" }, ` ${played} is the move played in the game (it lost ` +
      `${lossWords(result, m.loss)}); try again.`], "wrong");
    setMessage("");
    return false;
  }
  let child = entry.children.find((c) => c.move === recorded);
  const existed = Boolean(child);
  if (!child) {
    child = makeNode(answer.position, recorded, entry, played);
    if (answer.played) child.lastMove = { played: answer.played, report: answer.report };
    entry.children.push(child);           // after the game's move: a variation, never the main line
  }
  const at = state.line.indexOf(entry);
  state.line = state.line.slice(0, at + 1).concat(continuation(child));
  p.status = "checking";
  // taken back if the practice ends while it is judged, its request dropped (the move in flight with it)
  const controller = new AbortController();
  p.pending = { entry, child, existed, controller };
  practiceBusy(true);
  // the review's time a position; a review loaded with its record keeps none (0): the review time chosen
  const time = result.time_per_move > 0 ? result.time_per_move :
    Math.min(Number($("review-time").value), state.maxTime / 2);
  practicePrompt([`Checking ${played}: graded as the review graded the game's move (up to ` +
    `${Number((2 * time).toPrecision(2))} s)...`]);
  await showIndex(at + 1);
  let graded;
  try {
    const body = { position: entry.position, move: recorded, time };
    if (result.objective) body.objective = result.objective;
    graded = (await api("grade", body, { signal: controller.signal })).moves[0];
  } catch (e) {
    graded = null;
    if (state.practice === p) setMessage(`Practice: ${e.message}`, "error");
  }
  p.pending = null;
  if (state.practice !== p) return true;
  practiceBusy(false);
  const good = graded && (graded.grade === "best" || graded.grade === "good");
  if (good) {
    if (!existed) changed();
    p.status = "found";
    if (!p.solved.has(p.at)) { p.solved.add(p.at); p.found += 1; }
    const exact = graded.exact ? ", exact" : "";
    // by how much it differs from the engine's best, in the review's unit
    const by = graded.loss > 0 ? `${graded.grade}: ${lossWords(result, graded.loss)} below the engine's best` :
      `as good as the engine's best${graded.best === recorded ? ": its own move" : ""}`;
    practiceButtons(false);
    practicePrompt([{ kind: "found", text: "Well found:" }, ` ${played} (${by}${exact}). The game's ` +
      `${p.review.nodes[m.ply].label} lost ${lossWords(result, m.loss)}.`], "found");
    setMessage("");
    return true;
  }
  // taken back, as lichess takes a wrong try back: the tree as it was
  takeBack(entry, child, existed);
  p.status = "asking";
  await goTo(entry);
  if (state.practice !== p) return true;
  if (graded) {
    const exact = graded.exact ? ", exact" : "";
    practicePrompt([{ kind: "wrong", text: "Not that:" }, ` ${played} loses ${lossWords(result, graded.loss)} ` +
      `(${(GRADE_NAMES[graded.grade] || graded.grade).toLowerCase()}${exact}); try again.`], "wrong");
    setMessage("");
  } else {
    practicePrompt([`${played} could not be judged; try again, or skip.`], "wrong");
  }
  return true;
}

// "Show the answer": the review's best move, its line as a variation (as the verdict's line button plays it)
async function showPracticeAnswer() {
  const p = state.practice;
  if (!p || p.status === "checking") return;
  const m = p.items[p.at];
  const line = bestLine(m) || (m.best ? [m.best] : []);
  p.status = "shown";
  practiceButtons(false);
  if (!line.length) {
    practicePrompt(["The review named no better move here."]);
    return;
  }
  await showBestLine(p.review.nodes[m.ply], line);
  if (state.practice !== p) return;
  practicePrompt([`The answer: ${m.best}, the review's best move` + (line.length > 1 ? ` (its line as a variation: ` +
    `${lineText(line)}; \u2192 steps through it).` : ".")]);
}

async function nextPractice() {
  const p = state.practice;
  if (!p || p.status === "checking") return;
  p.at += 1;
  if (p.at >= p.items.length) {
    endPractice(`Practice over: found ${p.found} of ${p.items.length}.`);
    return;
  }
  await askPractice();
}

// the practice ends (`words`: what it came to, said in the review panel; null: without a word, the
// review closed), the panel back to the review, the engine's suggestions back
function endPractice(words) {
  const p = state.practice;
  if (!p) return;
  state.practice = null;
  // a try still being judged (a new review, a load, a new game meanwhile) is taken back: it stayed as an
  // unsaved variation
  if (p.pending) {
    const { entry, child, existed, controller } = p.pending;
    p.pending = null;
    controller.abort();
    takeBack(entry, child, existed);
    if (!existed && state.line.includes(child)) goTo(entry);      // the board off the node taken back
  }
  practiceBusy(false);
  $("practice").hidden = true;
  $("review-panel").classList.remove("practising");
  if (words === null) {
    if ($("engine-state").textContent === "(hidden while you practise)") $("engine-state").textContent = "";
    return;
  }
  renderPracticeBar(p.review);
  $("practice-note").textContent = words;
  setMessage(words);
  startAnalysis();
}

function stopPractice() {
  const p = state.practice;
  if (!p || p.status === "checking") return;
  const left = p.items.length - p.at - (p.status === "asking" ? 0 : 1);
  endPractice(`Practice stopped: found ${p.found} of ${p.items.length}` + (left > 0 ? ` (${left} not tried).` : "."));
}

// --- wiring -------------------------------------------------------------------------------

function onBoardClick(event) {
  const target = event.target.closest("[data-point]");
  if (!target) {
    if (state.clicks.length) {
      state.clicks = [];
      drawSelection();
      renderActions();
    }
    closePrompt();          // a tap beside the points: the message of the last one read
    return;
  }
  clickToken(target.dataset.point);
}

function onKey(event) {
  // never while typing, nor with the browser's own keys (Alt+Left: back; Ctrl+Home).  A select
  // focused on the page (not in a dialog) but closed is no field being typed in: the board takes
  // its keys, as lichess's does; its list, once open (Space, Enter, Alt+Down, a click), takes
  // them itself and the page sees none
  const target = event.target;
  const closedSelect = target.tagName === "SELECT" && !target.closest("dialog");
  if (!closedSelect && target.closest("input, select, textarea, dialog, [contenteditable]")) return;
  if (event.ctrlKey || event.altKey || event.metaKey) return;
  const named = event.key.startsWith("Arrow") && event.shiftKey ? `shift+${event.key}` : event.key;
  const action = state.line.length ? KEYS[named] : null;
  if (action) { event.preventDefault(); action(); }
  else if (event.key === "Escape" && state.clicks.length) { state.clicks = []; drawSelection(); renderActions(); setMessage(""); }
}

async function main() {
  const info = await api("games");
  state.games = info.games;
  state.maxTime = info.max_time;
  if (info.max_body) state.maxBody = info.max_body;
  for (const option of $("engine-time").options) {
    option.disabled = Number(option.value) > state.maxTime;
  }
  if (Number($("engine-time").value) > state.maxTime) $("engine-time").value = "1";
  for (const option of $("engine-move-time").options) {
    option.disabled = Number(option.value) > state.maxTime;
  }
  if (Number($("engine-move-time").value) > state.maxTime) $("engine-move-time").value = "0.5";
  $("board").addEventListener("click", onBoardClick);
  $("new-button").addEventListener("click", openNewDialog);
  $("new-form").addEventListener("submit", startNewGame);
  $("new-cancel").addEventListener("click", () => $("new-dialog").close());
  $("load-button").addEventListener("click", () => $("load-file").click());
  $("load-file").addEventListener("change", loadFile);
  $("paste-button").addEventListener("click", openPasteDialog);
  $("paste-form").addEventListener("submit", openPasted);
  $("paste-cancel").addEventListener("click", () => $("paste-dialog").close());
  $("paste-text").addEventListener("keydown", (e) => {
    if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) openPasted(e);
  });
  $("save-button").addEventListener("click", saveFile);
  $("save-game-button").addEventListener("click", saveGame);
  $("link-button").addEventListener("click", shareLink);
  $("flip-button").addEventListener("click", flipBoard);
  $("eval-flip").addEventListener("click", flipEval);
  $("prompt-close").addEventListener("click", closePrompt);
  window.addEventListener("scroll", placePrompt, { passive: true });
  window.addEventListener("resize", () => { placePrompt(); fitEvalText(); });
  $("review-button").addEventListener("click", startReview);
  $("practice-button").addEventListener("click", startPractice);
  $("practice-seat").addEventListener("change", () => {
    if (state.review) { state.review.practiceSeat = Number($("practice-seat").value); renderPracticeBar(state.review); }
  });
  $("practice-inaccuracies").addEventListener("change", () => { if (state.review) renderPracticeBar(state.review); });
  $("practice-answer").addEventListener("click", showPracticeAnswer);
  $("practice-skip").addEventListener("click", nextPractice);
  $("practice-next").addEventListener("click", nextPractice);
  $("practice-stop").addEventListener("click", stopPractice);
  $("review-graph").addEventListener("click", onGraphClick);
  $("review-graph").addEventListener("mousemove", onGraphHover);
  $("review-graph").addEventListener("mouseleave", () => { $("review-tip").hidden = true; });
  $("review-graph").addEventListener("pointerdown", (e) => { graphPointer = e.pointerType || "mouse"; });
  // a tap elsewhere takes the tip away (a touch screen has no pointer that leaves the graph)
  document.addEventListener("pointerdown", (e) => {
    if (!(e.target.closest && e.target.closest("#review-graph"))) $("review-tip").hidden = true;
  });
  // the evaluation bar as tall as the board beside it while a review is open (docs/board.md, Review)
  new ResizeObserver(() => {
    $("board-area").style.setProperty("--board-height", `${$("board-wrap").offsetHeight}px`);
  }).observe($("board-wrap"));
  $("promote-button").addEventListener("click", promoteVariation);
  $("delete-button").addEventListener("click", deleteFromHere);
  $("undo-button").addEventListener("click", () => showIndex(state.index - 1));
  $("redo-button").addEventListener("click", stepForward);
  $("fork").addEventListener("click", (e) => {
    const item = e.target.closest("[data-id]");
    const node = item && nodes.get(Number(item.dataset.id));
    if (node) goTo(node);
  });
  $("move-list").addEventListener("click", (e) => {
    const item = e.target.closest("[data-id]");
    const node = item && nodes.get(Number(item.dataset.id));
    if (node) goTo(node);
  });
  for (const id of ["engine-on", "engine-time", "engine-kind"]) {
    $(id).addEventListener("change", () => { stopAnalysis(); clearSuggestions(); startAnalysis(); });
  }
  // choosing the engine's time lets it move now if one of its seats is to move
  $("engine-move-time").addEventListener("change", () => { stopAnalysis(); clearSuggestions(); startAnalysis(true); });
  document.addEventListener("keydown", onKey);
  // a choice made in a select, or a box ticked on the page, gives the keys back to the moves (as on
  // lichess: they went on changing the select, or did nothing until a click elsewhere)
  document.addEventListener("change", (event) => {
    const t = event.target;
    const box = t.tagName === "INPUT" && (t.type === "checkbox" || t.type === "radio") && !t.closest("dialog");
    if (t.tagName === "SELECT" || box) t.blur();
  });
  // a link put in the address over the game shown: an unsaved game is not lost without asking
  window.addEventListener("hashchange", () => { if (location.hash.startsWith("#game=")) openLink({ ask: true }); });
  const refused = location.hash.startsWith("#game=") ? await openLink() : false;
  if (refused === true) return;
  const position = await api("new", { game: state.games[0].id });
  // the link's refusal stays in sight over the new game
  if (refused) setLine(position, refused, { kind: "error" });
  else setLine(position);
}

window.claimsolveBoard = { state, showIndex, playMove, clickToken, goTo, nodes, recordJson, loadText,
  mainLine, promoteVariation, deleteFromHere, gradeWords, setEval, oddsVerdict, renderSuggestions,
  moveInFlight: () => moveInFlight };
main().catch((e) => setMessage(e.message, "error"));
