// The analysis board: one page over the JSON API (/api/...).  The page knows
// no game by name: a game's board is drawn by /static/games/<game id>.js
// (loaded when a position of that game is first shown); a game without such
// a file is shown with the server's picture and its moves as buttons.

const $ = (id) => document.getElementById(id);
const SVGNS = "http://www.w3.org/2000/svg";

// --- the API --------------------------------------------------------------------------

class ApiError extends Error {
  constructor(status, message) { super(message); this.status = status; }
}

async function api(path, body, options = {}) {
  const response = await fetch(`/api/${path}`, {
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
  const response = await fetch(`/api/${path}`, {
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
    const { value, done } = await reader.read();
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
  line: [],          // [{position, move, show, legal, tokens}]: the game so far; line[0].move is null
  index: 0,          // the entry shown
  clicks: [],        // the move being clicked together
  module: null,      // the game module of the position shown
  layout: null,      // its layout of the position shown: {points: Map name -> {x, y}, cell, ...}
  analysis: null,    // {controller, live, result, position}
  hovered: null,
  diceCount: 0,
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
    const [show, legal] = await Promise.all([
      api("show", { position: entry.position }),
      api("moves", { position: entry.position }),
    ]);
    entry.show = show;
    entry.legal = legal;
    entry.tokens = null;
  }
  return entry;
}

async function showIndex(index, options = {}) {
  state.index = Math.max(0, Math.min(index, state.line.length - 1));
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
  renderStatus();
  renderActions();
  renderMoveList();
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
    return;
  }
  const layout = module.layout(entry.position);
  state.layout = layout;
  svg.setAttribute("viewBox", `0 0 ${layout.width} ${layout.height}`);
  let markup = module.draw(entry.position, layout, entry.show);
  // the clickable points, above the pieces
  const cell = layout.cell;
  const targets = [];
  for (const [name, p] of layout.points) {
    const half = (layout.hit || cell) / 2;
    targets.push(`<rect class="point" data-point="${name}" x="${p.x - half}" y="${p.y - half}" ` +
                 `width="${2 * half}" height="${2 * half}" fill="#000" fill-opacity="0"><title>${name}</title></rect>`);
  }
  markup += `<g id="marks"></g><g id="hints"></g><g id="arrows"></g><g id="targets">${targets.join("")}</g>`;
  svg.innerHTML = markup;
  drawSelection();
  drawBoardMarks();
}

function renderStatus() {
  const entry = current();
  const show = entry.show;
  const game = state.games.find((g) => g.id === entry.position.game);
  const title = game ? game.title : entry.position.game;
  let line;
  if (show.over) {
    const winners = show.winners || [];
    line = winners.length === 1 ? `Game over: player ${winners[0]} wins.` :
      winners.length ? `Game over: players ${winners.join(", ")} share the win.` : "Game over.";
  } else {
    line = `Player ${show.to_move} to move.`;
  }
  const sub = state.module.status(entry.position, show) || "";
  $("status").innerHTML = `${escapeHtml(title)}: ${escapeHtml(line)}` +
    (sub ? `<span class="sub">${escapeHtml(sub)}</span>` : "");
}

function setMessage(text, kind = "info") {
  const box = $("message");
  box.textContent = text;
  box.className = text ? kind : "";
}

function updateButtons() {
  $("undo-button").disabled = state.index === 0;
  $("redo-button").disabled = state.index >= state.line.length - 1;
}

function renderMoveList() {
  const list = $("move-list");
  const items = [];
  state.line.forEach((entry, i) => {
    const li = document.createElement("li");
    li.dataset.index = i;
    if (i === 0) {
      li.textContent = "start";
      li.className = "start";
    } else {
      li.textContent = entry.move;
    }
    if (i === state.index) li.classList.add("current");
    if (i > state.index) li.classList.add("future");
    items.push(li);
  });
  list.replaceChildren(...items);
  const shown = list.querySelector(".current");
  if (shown) shown.scrollIntoView({ block: "nearest" });
}

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
  if (entry.show.over) {
    setMessage("The game is over: no move is legal.", "error");
    return;
  }
  let clicks = [...state.clicks];
  // a second click on a point already chosen (any order) takes it back
  if (isPoint(token) && clicks.includes(token) && !(current().tokens[0] || {}).ordered) {
    clicks.splice(clicks.indexOf(token), 1);
    state.clicks = clicks;
    drawSelection();
    renderActions();
    return;
  }
  clicks.push(token);
  const cands = candidates(clicks);
  if (!cands.length) {
    await explainIllegal(clicks);
    state.clicks = [];
    drawSelection();
    renderActions();
    return;
  }
  state.clicks = clicks;
  const complete = cands.filter((t) => t.tokens.length === clicks.length);
  if (complete.length === 1 && cands.length === 1) {
    await playMove(complete[0].move);
    return;
  }
  setMessage(complete.length ? "Choose the move below, or go on clicking." : "");
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

async function playMove(move, options = {}) {
  const entry = current();
  const body = { position: entry.position, moves: [move] };
  if (options.seed !== undefined && options.seed !== null) body.seed = options.seed;
  let next, lastMove;
  try {
    const answer = await api("check", body);
    if (!answer.legal) {
      setMessage(`Illegal: ${answer.error}`, "error");
      return false;
    }
    next = answer.position;
    lastMove = { played: answer.played, report: answer.report };
  } catch (e) {
    setMessage(e.message, "error");
    return false;
  }
  let played = move;
  if (options.describe) played = options.describe(next) || move;
  state.line = state.line.slice(0, state.index + 1);
  state.line.push({ position: next, move: played, lastMove });
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
                       `height="${cell - 4}" rx="5" fill="none" stroke="#b0127a" stroke-width="4"/>`);
  }
  marks.innerHTML = chosen.join("");
  const dots = [];
  if (state.clicks.length) {
    for (const token of nextTokens(candidates(state.clicks), state.clicks)) {
      const p = state.layout.points.get(token);
      if (p) dots.push(`<circle cx="${p.x}" cy="${p.y}" r="${cell * 0.14}" fill="#b0127a" fill-opacity="0.55"/>`);
    }
  }
  hints.innerHTML = dots.join("");
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
  if (!entry.lastMove && !entry.lastMoveAsked && state.index > 0) askLastMove(entry, state.line[state.index - 1]);
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

// A position reached otherwise than by a click here (a loaded game): the
// server describes its move, when that move from the previous position gives it.
async function askLastMove(entry, previous) {
  entry.lastMoveAsked = true;
  if (!previous || !entry.move) return;
  try {
    const answer = await api("check", { position: previous.position, moves: [entry.move] });
    if (!answer.legal || JSON.stringify(answer.position) !== JSON.stringify(entry.position)) return;
    entry.lastMove = { played: answer.played, report: answer.report };
    if (current() === entry) drawBoardMarks();
  } catch (e) {
    /* no words for this move: the board is still right */
  }
}

function lastMoveWords(entry) {
  let box = $("last-move");
  if (!box) {
    box = document.createElement("div");
    box.id = "last-move";
    $("board-wrap").append(box);
  }
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
    if (p) out.push(`<rect class="last-square" data-mark="${name}" ${box(p, 1)} fill="#f2c94c" fill-opacity="0.55" ` +
      `stroke="#d08a00" stroke-width="2"/>`);
  }
  const route = (played.route || []).map(at).filter(Boolean);
  if (route.length > 1) {
    out.push(`<polyline class="last-route" data-route="${played.route.join(" ")}" ` +
      `points="${route.map((p) => `${p.x},${p.y}`).join(" ")}" fill="none" stroke="#d08a00" ` +
      `stroke-width="${cell * 0.09}" stroke-linecap="round" stroke-linejoin="round" stroke-opacity="0.85"/>`);
    for (const p of route.slice(1, -1)) {
      out.push(`<circle cx="${p.x}" cy="${p.y}" r="${cell * 0.1}" fill="#d08a00" fill-opacity="0.85"/>`);
    }
  }
  for (const put of played.put || []) {
    const p = at(put.point);
    if (p) over.push(`<rect class="last-placed" data-mark="${put.point}" ${box(p, 4)} rx="5" fill="none" ` +
      `stroke="#0b7a75" stroke-width="3" stroke-dasharray="6 3">` +
      `<title>${escapeHtml(`placed on ${put.point}: ${put.piece}`)}</title></rect>`);
  }
  const claimed = at(played.claimed);
  if (claimed) {
    // the pyramid claimed has left the board: drawn small in the corner of its space, ringed
    const x = claimed.x + cell * 0.3, y = claimed.y - cell * 0.3;
    const badge = state.module.ghost && played.pyramid ? state.module.ghost(played.pyramid, { x, y }, L, played) : "";
    over.push(`<g class="last-claimed" data-mark="${played.claimed}" data-piece="${escapeHtml(played.pyramid || "")}">` +
      `<title>claimed ${escapeHtml(played.pyramid || "")}</title>` +
      `<circle cx="${x}" cy="${y}" r="${cell * 0.19}" fill="#fff" stroke="#0b7a75" stroke-width="2.5"/>${badge}</g>`);
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
      `stroke="#b3261e" stroke-width="${cell * 0.08}" stroke-linecap="round"/></g>`);
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
  $("pv").textContent = "";
  $("engine-line").textContent = "";
  $("engine-state").textContent = "";
  $("odds-panel").hidden = true;
  setEval(null);
  drawArrows(null);
}

// --- the engine playing a seat -----------------------------------------------------------

function engineSeat() {
  const value = $("engine-plays").value;
  return value === "" ? null : Number(value);
}

function engineToMove(entry) {
  return !entry.show.over && entry.legal.length > 0 && engineSeat() === entry.show.to_move;
}

// the seats of the game shown in the "engine plays" select (the choice kept while it fits)
function renderSeats(entry) {
  const select = $("engine-plays");
  const seats = entry.position.players || (entry.show.scores || []).length || 2;
  if (select.options.length === seats + 1) return;
  const chosen = select.value;
  const options = [new Option("none", "")];
  for (let seat = 1; seat <= seats; seat++) options.push(new Option(`player ${seat}`, String(seat)));
  select.replaceChildren(...options);
  select.value = chosen !== "" && Number(chosen) <= seats ? chosen : "";
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
  const describe = state.module.played ? (next) => state.module.played(best, next) : undefined;
  await playMove(best, { describe, message: `The engine (player ${seat}) played ${best}.` });
}

// --- the engine's suggestions ---------------------------------------------------------------

function startAnalysis(autoPlay = false) {
  const entry = current();
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
      $("engine-state").textContent = "";
      setMessage(data.error, "error");
    }
  }).catch((e) => {
    if (e.name === "AbortError" || state.analysis !== analysis) return;
    $("engine-state").textContent = "";
    setMessage(`Engine: ${e.message}`, "error");
  });
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
  // search finished its depth
  $("engine-state").textContent = result.exact ? "(done, exact)" : "(done)";
  const rate = result.nodes_per_second ? `, ${Math.round(result.nodes_per_second).toLocaleString()}/s` : "";
  const depth = result.depth !== undefined ? `depth ${result.depth}, ` : "";
  $("engine-line").textContent = `${result.engine}: ${depth}${result.nodes.toLocaleString()} nodes in ` +
    `${Number(result.seconds).toFixed(2)} s${rate}`;
  renderSuggestions(result, false);
  if (result.odds) renderOdds(result.odds);
}

function scoreText(engine, s) {
  if (s.score === null || s.score === undefined) return "?";
  if (engine === "mcts") return Number(s.score).toFixed(3);
  if (!s.exact && ("lower" in s || "upper" in s)) {
    // the solver proved bounds on this move, not its value
    const signed = (v) => (v > 0 ? "+" : "") + v;
    if (s.lower === null) return s.upper === null ? "?" : "<=" + signed(s.upper);
    return s.upper === null ? ">=" + signed(s.lower) : signed(s.lower) + ".." + signed(s.upper);
  }
  const prefix = s.bound === "upper" ? "<=" : "";
  const n = Number(s.score);
  return prefix + (n > 0 ? "+" : "") + (Number.isInteger(n) ? n : n.toFixed(2));
}

function renderSuggestions(result, live) {
  const table = $("suggestions");
  table.classList.toggle("live", live);
  const rows = [];
  const hasVisits = result.suggestions.some((s) => s.visits !== undefined && s.visits !== null);
  $("suggestions-extra").textContent = hasVisits ? "visits" : "depth";
  result.suggestions.forEach((s, i) => {
    const tr = document.createElement("tr");
    tr.dataset.move = s.move;
    const extra = hasVisits ? (s.visits ?? "").toLocaleString() : (s.depth ?? "");
    const proven = s.result ? ` (proven ${s.result})` : "";
    for (const text of [String(i + 1), s.move, scoreText(result.engine, s) + proven, String(extra)]) {
      const td = document.createElement("td");
      td.textContent = text;
      tr.append(td);
    }
    const line = i === 0 && result.pv && result.pv.length ? result.pv : [s.move];
    tr.addEventListener("mouseenter", () => { tr.classList.add("hover"); drawArrows(line); });
    tr.addEventListener("mouseleave", () => { tr.classList.remove("hover"); drawArrows(null); });
    tr.addEventListener("click", () => playMove(s.move));
    rows.push(tr);
  });
  table.querySelector("tbody").replaceChildren(...rows);
  $("pv").textContent = result.pv && result.pv.length ? `Best line: ${lineText(result.pv)}` : "";
  if (result.suggestions.length) setEval(evaluation(result.engine, result.suggestions[0]));
}

function lineText(moves) {
  return moves.join(moves.some((m) => m.includes(" ")) ? " | " : " ");
}

// the side to move's share in [0, 1] of a suggestion's score
function evaluation(engine, s) {
  if (s.result === "win") return { share: 1, text: "win" };
  if (s.result === "loss") return { share: 0, text: "loss" };
  if (s.result === "draw") return { share: 0.5, text: "draw" };
  if (s.score === null || s.score === undefined) return null;
  if (engine === "mcts") return { share: Number(s.score), text: `${Math.round(100 * s.score)}%` };
  const scale = (state.module && state.module.evalScale) || 10;
  const share = 1 / (1 + Math.exp(-Number(s.score) / scale));
  return { share, text: scoreText(engine, s) };
}

function setEval(value) {
  const fill = $("eval-fill");
  if (!value) {
    fill.style.height = "50%";
    $("eval-text").textContent = "";
    return;
  }
  fill.style.height = `${Math.round(100 * Math.max(0.02, Math.min(0.98, value.share)))}%`;
  $("eval-text").textContent = value.text;
}

function drawArrows(line) {
  const layer = document.getElementById("arrows");
  if (!layer || !state.layout) return;
  if (!line || !state.module.shapes) {
    layer.innerHTML = "";
    return;
  }
  const colours = ["#b0127a", "#1f5fbf", "#e07b00", "#2a7d3a", "#6a3db8"];
  const parts = [];
  let position = current().position;
  line.slice(0, 8).forEach((move, ply) => {
    const colour = colours[ply % colours.length];
    const opacity = Math.max(0.35, 0.9 - ply * 0.08);
    for (const shape of state.module.shapes(move, position, state.layout)) {
      parts.push(shapeMarkup(shape, colour, opacity, ply + 1));
    }
  });
  layer.innerHTML = `<defs>${colours.map((c, i) => `<marker id="head${i}" viewBox="0 0 10 10" refX="6" refY="5" ` +
    `markerWidth="2.6" markerHeight="2.6" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="${c}"/></marker>`).join("")}</defs>` +
    parts.join("");
}

function shapeMarkup(shape, colour, opacity, number) {
  const cell = state.layout.cell;
  const colours = ["#b0127a", "#1f5fbf", "#e07b00", "#2a7d3a", "#6a3db8"];
  const head = colours.indexOf(colour);
  const width = cell * 0.16;
  const label = (x, y) => `<circle cx="${x}" cy="${y}" r="${cell * 0.19}" fill="${colour}" opacity="${opacity}"/>` +
    `<text x="${x}" y="${y + cell * 0.08}" font-size="${cell * 0.24}" text-anchor="middle" fill="#fff" ` +
    `font-weight="bold">${number}</text>`;
  if (shape.kind === "arrow") {
    const [a, b] = [shape.from, shape.to];
    const dx = b.x - a.x, dy = b.y - a.y, d = Math.hypot(dx, dy) || 1;
    const end = { x: b.x - (dx / d) * cell * 0.3, y: b.y - (dy / d) * cell * 0.3 };
    return `<line x1="${a.x}" y1="${a.y}" x2="${end.x}" y2="${end.y}" stroke="${colour}" stroke-width="${width}" ` +
      `stroke-linecap="round" opacity="${opacity}" marker-end="url(#head${head})"/>` + label(a.x, a.y);
  }
  const p = shape.at;
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
  const bust = odds.bust_probability !== undefined && odds.bust_probability !== null ?
    `The next roll busts with ${(100 * odds.bust_probability).toFixed(1)}%.` : "";
  $("odds-note").textContent = `${odds.mode || ""}. ${bust}`;
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
  const labels = odds.rows.map((r) => wrapWords(shortPlan(r), 24));
  const heights = labels.map((lines) => Math.max(26, lines.length * line + 10));
  const h = top + heights.reduce((a, b) => a + b, 0) + 26;
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
      `fill="${r.win === best ? "#b0127a" : "#7f97a8"}"/>`);
    if (r.win_ci95) {
      const [lo, hi] = r.win_ci95.map(x);
      const cy = barTop + bar / 2;
      parts.push(`<path d="M${lo},${cy} L${hi},${cy} M${lo},${cy - 5} L${lo},${cy + 5} M${hi},${cy - 5} ` +
        `L${hi},${cy + 5}" stroke="#222" stroke-width="1.2"/>`);
    }
    parts.push(`<rect x="${left}" y="${barTop + bar + 1}" width="${(1 - r.survive) * barW}" height="4" fill="#b3261e"/>`);
    // the number beside its bar and interval, inside the bar where they reach the right edge
    const reach = r.win_ci95 ? Math.max(r.win, r.win_ci95[1]) : r.win;
    const inside = reach > 0.8;
    parts.push(`<text x="${inside ? x(r.win) - 4 : x(reach) + 5}" y="${barTop + bar - 3}" font-size="10.5" ` +
      `text-anchor="${inside ? "end" : "start"}" fill="${inside ? "#fff" : "#222"}">${pct(r.win)}</text>`);
    y += rowH;
  });
  const axisY = y + 4;
  for (const v of [0, 0.25, 0.5, 0.75, 1]) {
    parts.push(`<text x="${left + v * barW}" y="${axisY + 14}" font-size="10" text-anchor="middle" fill="#5b6770">${v * 100}%</text>`);
    parts.push(`<line x1="${left + v * barW}" y1="${top}" x2="${left + v * barW}" y2="${axisY}" stroke="#ddd"/>`);
  }
  const chart = $("odds-chart");
  chart.setAttribute("viewBox", `0 0 ${w} ${h}`);
  chart.innerHTML = parts.join("");
}

function shortPlan(r) {
  if (r.plan === "stop") return "stop now";
  if (r.plan && r.plan.startsWith("roll:")) return `roll up to ${r.plan.slice(5)} more`;
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

function renderNewOptions() {
  const game = state.games.find((g) => g.id === $("new-game").value);
  const box = $("new-options");
  const fields = [];
  for (const [name, help] of Object.entries(game.options)) {
    const label = document.createElement("label");
    const caption = document.createElement("span");
    caption.innerHTML = `${escapeHtml(name)}<small>${escapeHtml(help)}</small>`;
    const input = document.createElement("input");
    input.type = name === "players" || name === "seed" ? "number" : "text";
    input.name = name;
    input.id = `new-${name}`;
    input.placeholder = "default";
    label.append(caption, input);
    fields.push(label);
  }
  box.replaceChildren(...fields);
}

async function startNewGame(event) {
  event.preventDefault();
  const body = { game: $("new-game").value };
  for (const input of $("new-options").querySelectorAll("input")) {
    if (input.value.trim() === "") continue;
    body[input.name] = input.type === "number" ? Number(input.value) : input.value.trim();
  }
  try {
    const position = await api("new", body);
    $("new-dialog").close();
    setLine(position);
  } catch (e) {
    $("new-error").textContent = e.message;
  }
}

function setLine(position, message) {
  state.line = [{ position, move: null }];
  showIndex(0, { keepMessage: Boolean(message), autoPlay: true });
  if (message) setMessage(message);
}

async function loadFile() {
  const file = $("load-file").files[0];
  if (!file) return;
  const text = await file.text();
  $("load-file").value = "";
  try {
    const position = JSON.parse(text);
    await api("show", { position });
    setLine(position, `Loaded ${file.name}.`);
  } catch (e) {
    setMessage(`${file.name}: ${e.message}`, "error");
  }
}

async function saveFile() {
  const entry = current();
  // the position written as the commands write it (the API's apply/new text)
  const text = JSON.stringify(entry.position, null, 2) + "\n";
  const blob = new Blob([text], { type: "application/json" });
  const url = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = url;
  a.download = `${entry.position.game}-${state.index}.json`;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
  setMessage(`Saved ${a.download}.`);
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
    return;
  }
  clickToken(target.dataset.point);
}

function onKey(event) {
  if (event.target.closest("input, select, textarea, dialog")) return;
  if (event.key === "ArrowLeft") { event.preventDefault(); if (state.index > 0) showIndex(state.index - 1); }
  else if (event.key === "ArrowRight") { event.preventDefault(); if (state.index < state.line.length - 1) showIndex(state.index + 1); }
  else if (event.key === "Home") { event.preventDefault(); showIndex(0); }
  else if (event.key === "End") { event.preventDefault(); showIndex(state.line.length - 1); }
  else if (event.key === "Escape" && state.clicks.length) { state.clicks = []; drawSelection(); renderActions(); setMessage(""); }
}

async function main() {
  const info = await api("games");
  state.games = info.games;
  state.maxTime = info.max_time;
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
  $("save-button").addEventListener("click", saveFile);
  $("undo-button").addEventListener("click", () => showIndex(state.index - 1));
  $("redo-button").addEventListener("click", () => showIndex(state.index + 1));
  $("move-list").addEventListener("click", (e) => {
    const li = e.target.closest("li");
    if (li) showIndex(Number(li.dataset.index));
  });
  for (const id of ["engine-on", "engine-time", "engine-kind"]) {
    $(id).addEventListener("change", () => { stopAnalysis(); clearSuggestions(); startAnalysis(); });
  }
  // choosing the engine's seat (or its time) lets it move now if that seat is to move
  for (const id of ["engine-plays", "engine-move-time"]) {
    $(id).addEventListener("change", () => { stopAnalysis(); clearSuggestions(); startAnalysis(true); });
  }
  document.addEventListener("keydown", onKey);
  const position = await api("new", { game: state.games[0].id });
  setLine(position);
}

window.claimsolveBoard = { state, showIndex, playMove, clickToken };
main().catch((e) => setMessage(e.message, "error"));
