// Claim It! on the analysis board: the 6 x 6 board (space r,c: row die,
// column die; row 1 at the top as in the position file), the piles, the
// dice; roll (dice drawn by the server, from a seed when one is given, or
// typed in) and stop, and a click on a space to place a marker there.

import { fontSize, style } from "../style.js";

export const evalScale = 1;
// a space is never shown smaller than this (CSS px): its markers' numbers and pile still
// legible in it (app.js fitBoard)
export const minCell = 30;

// the palette and sizes: the server's (claimsolve/render/style.py), as its pictures use them;
// where everything sits: the server's layout (POST /api/layout), the rule its pictures place
// the board by (render/claimit.py's layout)
const S = style.games.claimit;
const M = style.marks;
const FILL = S.player;
const CELL = S.cell;
const SIZE = S.size;

// the served layout (its spaces' edges, labels, panel and size) with the
// spaces by name ("r,c"): {x, y} their centres, r and c their row and column die;
// on a phone app.js serves its narrow form, the dice and the standing under the board
export function layout(position, served) {
  const points = new Map();
  served.rows.forEach((top, i) => served.columns.forEach((left, j) => {
    points.set(`${i + 1},${j + 1}`, { x: left + CELL / 2, y: top + CELL / 2, r: i + 1, c: j + 1 });
  }));
  return { ...served, points };
}

function pileOf(position, r, c) {
  const token = position.board[r - 1].trim().split(/\s+/)[c - 1];
  return token === "." ? [] : token.split("/");
}

function tokenSvg(token, cx, cy, L) {
  if (token === "B") {
    return `<rect x="${cx - 16}" y="${cy - 16}" width="32" height="32" rx="4" fill="${S.black}" stroke="${S.black_stroke}"/>`;
  }
  if (token.startsWith("w")) {
    const size = fontSize(L, 14);
    return `<circle cx="${cx}" cy="${cy}" r="14" fill="${S.white}" stroke="${S.marker_stroke}"/>` +
      `<text x="${cx}" y="${cy + 5 * size / 14}" text-anchor="middle" font-size="${size}">${token.slice(1)}</text>`;
  }
  const size = fontSize(L, 13);
  return `<circle cx="${cx}" cy="${cy}" r="16" fill="${FILL[token] || S.player_unknown}" stroke="${S.marker_stroke}"/>` +
    `<text x="${cx}" y="${cy + 5 * size / 13}" text-anchor="middle" font-size="${size}" fill="${S.player_text}">${token}</text>`;
}

function die(x, y, value) {
  const pips = { 1: [[0, 0]], 2: [[-1, -1], [1, 1]], 3: [[-1, -1], [0, 0], [1, 1]], 4: [[-1, -1], [1, -1], [-1, 1], [1, 1]],
    5: [[-1, -1], [1, -1], [0, 0], [-1, 1], [1, 1]], 6: [[-1, -1], [1, -1], [-1, 0], [1, 0], [-1, 1], [1, 1]] }[value] || [];
  return `<rect x="${x}" y="${y}" width="34" height="34" rx="6" fill="${M.die}" stroke="${M.die_stroke}" stroke-width="1.5" ` +
    `class="die"/>` +
    pips.map(([dx, dy]) => `<circle cx="${x + 17 + dx * 9}" cy="${y + 17 + dy * 9}" r="3.3" fill="${M.pip}"/>`).join("");
}

// the dice of the roll that led to `position` where it bust (no placement: the turn passed at
// once), from the move's name ("roll:4,3,3"); else null
export function bustDice(position, move) {
  const m = /^roll:(\d),(\d),(\d)$/.exec(move || "");
  return m && !position.dice ? m.slice(1).map(Number) : null;
}

// `move`: the move that led to the position (a roll that bust is shown, its dice and the bust,
// until the next roll)
export function draw(position, L, show, move) {
  const out = [`<rect width="${L.width}" height="${L.height}" fill="${S.background}"/>`];
  const label = fontSize(L, 14);      // (the served rows' labels sit 5 below the middle of the row, for 14)
  L.column_labels.forEach((column, i) => {
    const row = L.row_labels[i];
    out.push(`<text x="${column.x}" y="${column.y}" text-anchor="middle" font-size="${label}">${column.text}</text>`);
    out.push(`<text x="${row.x}" y="${row.y - 5 + 5 * label / 14}" text-anchor="middle" font-size="${label}">${row.text}</text>`);
  });
  // the spaces first, then the piles: app.js draws its marks between them (the last move, the legal spaces)
  for (const p of L.points.values()) {
    out.push(`<rect x="${p.x - CELL / 2}" y="${p.y - CELL / 2}" width="${CELL}" height="${CELL}" fill="${S.space}" stroke="${S.grid}"/>`);
  }
  for (const [name, p] of L.points) {
    const y = p.y - CELL / 2;
    const pile = pileOf(position, p.r, p.c);
    pile.forEach((token, level) => {
      const cx = p.x + 6 * level - 3 * (pile.length - 1);
      const cy = p.y - 6 * level + 3 * (pile.length - 1) - 4;
      out.push(`<g class="marker">${tokenSvg(token, cx, cy, L)}</g>`);
    });
    if (pile.length > 1) {
      // too long for its space at a legible size: left out (app.js fitTexts), the markers drawn still
      out.push(`<g><title>${name}: ${pile.join("/")}</title><text x="${p.x}" y="${y + CELL - 3}" text-anchor="middle" ` +
        `font-size="${fontSize(L, 10)}" fill="${S.pile_text}" data-room="${CELL - 2}">${pile.join("/")}</text></g>`);
    }
    if (pile.length) out.push(`<title>${name}: ${pile.join("/")}</title>`);
  }
  // the dice, and each player's standing
  const [x0, y0] = L.panel;
  out.push(`<text x="${x0}" y="${y0 + 8}" font-size="${fontSize(L, 13)}" font-weight="bold">dice</text>`);
  const bust = bustDice(position, move);
  if (position.dice) position.dice.forEach((v, i) => out.push(die(x0 + i * 40, y0 + 16, v)));
  else if (bust) {
    bust.forEach((v, i) => out.push(die(x0 + i * 40, y0 + 16, v)));
    out.push(`<g class="bust"><title>rolled ${bust.join(", ")}: no placement, bust</title>` +
      `<text x="${x0}" y="${y0 + 68}" font-size="${fontSize(L, 12)}" font-weight="bold" fill="${style.charts.bust}">` +
      `no placement: bust</text></g>`);
  } else out.push(`<text x="${x0}" y="${y0 + 38}" font-size="${fontSize(L, 12)}" fill="${M.muted}">not rolled</text>`);
  const [x1, y1] = L.standing;
  const room = L.width - x1 - 22;
  let y = y1;
  const over = show.over;
  for (let player = 1; player <= position.players; player++) {
    let secured = 0, held = 0;
    for (let r = 1; r <= SIZE; r++) {
      for (let c = 1; c <= SIZE; c++) {
        const pile = pileOf(position, r, c);
        const top = pile[pile.length - 1];
        if (top === String(player)) {
          held += 1;
          if (pile.length > 1 && pile[pile.length - 2] === "B") secured += 1;
        }
      }
    }
    const mark = position.to_move === player && !over ? " <" : "";
    out.push(`<circle cx="${x1 + 8}" cy="${y - 4}" r="7" fill="${FILL[player]}" stroke="${S.marker_stroke}"/>`);
    out.push(`<g><title>player ${player}: ${secured} secured, ${held} held${mark ? ", to move" : ""}</title>` +
      `<text x="${x1 + 20}" y="${y}" font-size="${fontSize(L, 12)}" data-room="${room}" ` +
      `data-short="${secured} sec., ${held} held${mark}">${secured} secured, ${held} held${mark}</text></g>`);
    // the server's scores: each seat's largest group (`show`'s, claimsolve.claimit.position.scores)
    out.push(`<g><title>player ${player}: largest group ${show.scores[player - 1]}</title>` +
      `<text x="${x1 + 20}" y="${y + 15}" font-size="${fontSize(L, 11)}" fill="${M.muted}" data-room="${room}" ` +
      `data-short="group ${show.scores[player - 1]}">largest group ${show.scores[player - 1]}</text></g>`);
    y += 36;
  }
  if (position.final_round && !over) {
    const left = position.final_round.turns_left;
    const turns = `${left} turn${left === 1 ? "" : "s"} left`;
    out.push(`<g><title>final round: ${turns}</title><text x="${x1}" y="${y + 10}" ` +
      `font-size="${fontSize(L, 12)}" fill="${M.final_round}" data-room="${L.width - x1 - 2}" ` +
      `data-short="final: ${left} left">final round: ${turns}</text></g>`);
  }
  return out.join("\n");
}

export function status(position, show, legal, move) {
  const target = position.target ? ` Target: ${position.target} secured spaces.` : "";
  const bust = bustDice(position, move);
  const bustWords = bust ? `The last turn rolled ${bust.join(", ")}: no placement, bust. ` : "";
  if (position.dice) {
    return `Dice ${position.dice.join(" ")}: click a highlighted space to place the marker shown on it.${target}`;
  }
  // stop is offered where the server lists it (not before the turn's first roll)
  return bustWords + ((legal || []).includes("stop") ? "Roll again (the server's dice, or type your own) or stop." :
    "Roll to begin the turn (the server's dice, or type your own).") + target;
}

export function tokens(move) {
  const at = move.indexOf("@");
  return { tokens: [at >= 0 ? move.slice(at + 1) : move], ordered: true };
}

export function describe(move) {
  if (move.startsWith("B@")) return "black marker";
  if (move.startsWith("w")) return `white marker ${move.slice(1, move.indexOf("@"))}`;
  return "";
}

export function shapes(move, position, L) {
  const at = move.indexOf("@");
  if (at < 0) return [];
  const p = L.points.get(move.slice(at + 1));
  return p ? [{ kind: move.startsWith("B") ? "square" : "ring", at: p }] : [];
}

// the legal placements by space: {"2,5": ["w3"], "4,4": ["B"]} (the moves
// the server listed: what the page shows is what is legal)
export function placements(legal) {
  const out = new Map();
  for (const move of legal || []) {
    const at = move.indexOf("@");
    if (at < 0) continue;
    const space = move.slice(at + 1);
    if (!out.has(space)) out.set(space, []);
    out.get(space).push(move.slice(0, at));
  }
  return out;
}

// the spaces a roll names (row die, column die; the third die the white's
// number), each with its number: three dice give up to six
function candidates(dice) {
  const out = new Map();
  const orders = [[0, 1, 2], [1, 0, 2], [0, 2, 1], [2, 0, 1], [1, 2, 0], [2, 1, 0]];
  for (const [r, c, n] of orders) {
    const space = `${dice[r]},${dice[c]}`;
    if (!out.has(space)) out.set(space, dice[n]);
  }
  return out;
}

// After a roll: each legal space tinted, with the marker it would take.
export function highlights(position, legal, L) {
  if (!position.dice) return "";
  const out = [];
  for (const [space, markers] of placements(legal)) {
    const p = L.points.get(space);
    if (!p) continue;
    const x = p.x - CELL / 2, y = p.y - CELL / 2;
    const label = markers.join(" ");
    const size = fontSize(L, 11.5), k = size / 11.5;     // the badge grows with its words
    out.push(`<g class="legal-space" data-space="${space}" data-markers="${label}">` +
      `<rect x="${x + 2}" y="${y + 2}" width="${CELL - 4}" height="${CELL - 4}" fill="${M.legal_fill}" fill-opacity="0.16" ` +
      `stroke="${M.legal}" stroke-width="3" rx="4"/>` +
      `<rect x="${x + 3}" y="${y + 3}" width="${k * (8 + 8 * label.length)}" height="${15 * k}" rx="3" fill="${M.legal}"/>` +
      `<text x="${x + 3 + 4 * k}" y="${y + 3 + 11.5 * k}" font-size="${size}" font-weight="bold" fill="${M.legal_text}">${label}</text>` +
      `<title>${space}: ${markers.map((m) => (m === "B" ? "a black marker" : `white ${m.slice(1)}`)).join(" or ")}</title></g>`);
  }
  return out.join("");
}

// the marker taken off a pile, where it stood: a bust takes the turn's top
// marker; a stop sends back the opponent's marker under the white
export function ghost(pile, p, L, played) {
  const tokens = pile.split("/");
  const colours = tokens.filter((t) => /^\d$/.test(t));
  const gone = played && played.move === "stop" && colours.length ? colours[colours.length - 1] : tokens[tokens.length - 1];
  return tokenSvg(gone, p.x, p.y - 4, L);
}

// Why a click places no marker (app.js explainIllegal), from the dice and the
// board: never a marker the roll does not give.
export function explain(clicks, position, legal) {
  const space = clicks[clicks.length - 1];
  if (!/^\d,\d$/.test(space)) return null;
  if (!position.dice) {
    return { text: legal.includes("stop") ? `no dice are rolled: roll (or stop) before a marker goes on ${space}.` :
      `no dice are rolled: roll first; then a marker goes on a space the dice name.` };
  }
  const dice = position.dice;
  const rolled = dice.join(", ");
  const allowed = [...placements(legal).keys()];
  const where = allowed.length === 1 ? `a marker may go on 1 space (highlighted): ${allowed[0]}` :
    `a marker may go on ${allowed.length} spaces (highlighted): ${allowed.join(" ")}`;
  const number = candidates(dice).get(space);
  if (number === undefined) return { text: `Space ${space} is not a candidate of the roll ${rolled}: ${where}.` };
  const [r, c] = space.split(",").map(Number);
  const pile = pileOf(position, r, c);
  if (pile.includes("B")) return { text: `Space ${space} is blocked (a black marker is in its pile ${pile.join("/")}): ${where}.` };
  const top = pile[pile.length - 1];
  if (!top || (!top.startsWith("w") && top !== String(position.to_move))) {
    return { text: `Space ${space} would take white ${number}, which is already on the board: ${where}.` };
  }
  return { text: `Space ${space} would take a black marker, and the supply has none left: ${where}.` };
}

// the name a move gets in the moves list: a roll with its dice, and "(bust)" after a roll that
// leaves none to place (the turn passed at once), however the move came (clicked, typed, loaded)
export function played(move, next) {
  if (move === "roll") return next.dice ? `roll:${next.dice.join(",")}` : "roll (bust)";
  if (move.startsWith("roll:") && !next.dice) return `${move} (bust)`;
  return move;
}

let rollSeed = null;

// "roll": the server's dice (from the seed field when it holds one, which
// then counts up), and a field to type the dice rolled at the table.
export function wordButton(word, entry, api, playMove) {
  if (word === "stop") {
    const stop = document.createElement("button");
    stop.type = "button";
    stop.textContent = "stop";
    stop.title = "Stop: the markers placed this turn become yours (on a black marker: secured)";
    stop.addEventListener("click", () => playMove("stop"));
    return stop;
  }
  if (word !== "roll") return null;
  const group = document.createElement("span");
  group.className = "group";
  const roll = document.createElement("button");
  roll.type = "button";
  roll.textContent = "roll";
  roll.title = "Roll: the server draws the dice";
  const seed = document.createElement("input");
  seed.type = "text";
  seed.placeholder = "seed";
  seed.title = "Seed of the server's dice (empty: random); after a seeded roll it moves on by one, so that " +
    "the next roll is another, and the same seeds give the same rolls again";
  seed.id = "dice-seed";
  if (rollSeed !== null) seed.value = String(rollSeed);
  const dice = document.createElement("input");
  dice.type = "text";
  dice.placeholder = "4,1,4";
  dice.title = "Dice rolled at the table";
  dice.id = "dice-entry";
  const typed = document.createElement("button");
  typed.type = "button";
  typed.textContent = "roll these";
  const named = (next, recorded) => played(recorded || "roll", next);
  roll.addEventListener("click", () => {
    const value = seed.value.trim();
    if (value !== "" && !/^\d{1,15}$/.test(value)) {     // ("abc" was taken for no seed, 1e26 shown as 1e+26)
      seed.setCustomValidity("A seed is a whole number from 0 (empty: random dice)");
      seed.reportValidity();
      return;
    }
    rollSeed = value === "" ? null : Number(value) + 1;
    playMove("roll", { seed: value === "" ? undefined : Number(value), describe: named });
  });
  typed.addEventListener("click", () => {
    const text = dice.value.trim().replace(/\s+/g, ",");
    if (!text) {                             // (the server would refuse "roll:")
      dice.setCustomValidity("Type the three dice rolled at the table, like 4,1,4");
      dice.reportValidity();
      return;
    }
    playMove(`roll:${text}`, { describe: named });
  });
  dice.addEventListener("input", () => dice.setCustomValidity(""));
  seed.addEventListener("input", () => seed.setCustomValidity(""));
  group.append(roll, seed, dice, typed);
  return group;
}
