// npuzzle web app: talks to the JSON API of `npuzzle serve`, draws the board, animates answers.
// No libraries; everything is in this file. Moves name the direction the TILE slides:
// U = the tile below the blank moves up (the blank moves down). Answers are single-tile letters;
// the player steps through them one move of the answer's metric at a time: a letter in the
// single-tile metric (STM), a run of one letter (R3: three tiles slide right) in the multi-tile
// metric (MTM), written in the chosen notation (RRR or R3).
"use strict";

const $ = (id) => document.getElementById(id);

// Boards up to this many columns and rows are drawn as DOM tiles (clickable, animated with CSS);
// larger ones on a canvas.
const DOM_MAX_SIDE = 12;
// Answers longer than this play fast-forward: the whole answer in about FAST_SECONDS.
const FAST_MOVES = 1500;
const FAST_SECONDS = 20;

const state = {
  width: 3, height: 3,
  start: [],        // the board the moves start from
  cells: [],        // the board shown
  goal: [],         // the goal board
  moves: "",        // the answer (or the moves played by hand), single-tile letters
  metric: "stm",    // the metric the answer is counted and stepped in
  ends: [0],        // ends[k]: single-tile moves in the first k steps (moves of the metric)
  step: 0,          // steps applied so far
  pos: 0,           // single-tile moves applied so far (ends[step])
  byHand: false,    // moves come from clicks, not from the solver
  playing: false,
  lastFrame: 0, carry: 0,
  tiles: new Map(), // tile number -> element (DOM mode)
  movedTiles: [],   // the tiles the last step slid
  hintTiles: [],    // the tiles the hint would slide
  engines: [], heuristics: [],
  parseTimer: 0,
};

// ---------- API ----------

async function api(path, body) {
  const init = body === undefined ? {} : {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  };
  const response = await fetch(path, init);
  let data;
  try { data = await response.json(); } catch (_) { data = { error: `HTTP ${response.status}` }; }
  if (!response.ok) {
    const err = new Error(data.error || `HTTP ${response.status}`);
    err.status = response.status;
    err.data = data;
    throw err;
  }
  return data;
}

function setStatus(id, text, kind) {
  const el = $(id);
  el.textContent = text;
  el.className = "status" + (kind ? " " + kind : "");
}

function numbers(line) { return line.trim().split(/\s+/).map(Number); }
// A record's compact board: one hex digit a cell (at most 16 cells) or numbers with spaces.
function compact(text) { return /\s/.test(text.trim()) ? numbers(text) : [...text.trim()].map((c) => parseInt(c, 16)); }
function fmt(n) { return Number(n).toLocaleString("en-US"); }
function si(x) {
  if (x >= 1e9) return (x / 1e9).toFixed(2) + " G";
  if (x >= 1e6) return (x / 1e6).toFixed(2) + " M";
  if (x >= 1e3) return (x / 1e3).toFixed(1) + " k";
  return x.toFixed(0) + " ";
}
function seconds(s) { return s < 0.001 ? (s * 1e6).toFixed(0) + " µs" : s < 1 ? (s * 1e3).toFixed(1) + " ms" : s.toFixed(2) + " s"; }

// ---------- moves ----------

// The cell the blank moves to when the tile slides `m`; -1 when illegal.
function blankTarget(blank, m) {
  const w = state.width, h = state.height, r = Math.floor(blank / w), c = blank % w;
  switch (m) {
    case "U": return r + 1 < h ? blank + w : -1;
    case "D": return r > 0 ? blank - w : -1;
    case "L": return c + 1 < w ? blank + 1 : -1;
    case "R": return c > 0 ? blank - 1 : -1;
    default: return -1;
  }
}
const INVERSE = { U: "D", D: "U", L: "R", R: "L" };

// Applies move m to state.cells; returns the tile that moved (0 when illegal).
function apply(m) {
  const cells = state.cells, blank = cells.indexOf(0);
  const t = blankTarget(blank, m);
  if (t < 0) return 0;
  const tile = cells[t];
  cells[blank] = tile;
  cells[t] = 0;
  return tile;
}

// The step boundaries of `moves` in `metric`: ends[k] is the number of single-tile moves in the
// first k steps. STM: one step a letter; MTM: one step a maximal run of one letter (the
// multi-tile metric's moves: RRUL is 3).
function stepEnds(moves, metric) {
  const ends = [0];
  for (let i = 0; i < moves.length; i++) {
    if (metric === "mtm" && i > 0 && moves[i] === moves[i - 1]) ends[ends.length - 1] = i + 1;
    else ends.push(i + 1);
  }
  return ends;
}
function steps() { return state.ends.length - 1; }
function notation() { return $("notation").value || "letters"; }
// `letters` (a run of one letter) in the chosen notation: RRR, or R3 with counts.
function written(letters) {
  return notation() === "counts" && letters.length > 1 ? letters[0] + letters.length : letters;
}
// A whole move string in the chosen notation (RRUL, or R2UL with counts).
function writtenAll(moves) { return (moves.match(/(.)\1*/g) || []).map(written).join(""); }
// Step k (0-based) of the answer, written in the chosen notation.
function stepText(k) { return written(state.moves.slice(state.ends[k], state.ends[k + 1])); }
// The unit of a length in `metric`.
function unit(metric, n) { return `${metric === "mtm" ? "MTM " : ""}move${n === 1 ? "" : "s"}`; }

// Moves the shown board to step k of the answer (forward or back, one single-tile move at a
// time); the tiles of the last step taken are highlighted.
function seek(k) {
  k = Math.max(0, Math.min(steps(), k));
  const far = Math.abs(k - state.step) > 1;
  while (state.step < k) {
    const moved = [];
    for (let i = state.ends[state.step]; i < state.ends[state.step + 1]; i++) moved.push(apply(state.moves[i]));
    state.movedTiles = moved;
    state.step++;
  }
  while (state.step > k) {
    state.step--;
    const moved = [];
    for (let i = state.ends[state.step + 1] - 1; i >= state.ends[state.step]; i--) moved.push(apply(INVERSE[state.moves[i]]));
    state.movedTiles = moved;
  }
  state.pos = state.ends[state.step];
  render(far);
}

// ---------- drawing ----------

function domMode() { return state.width <= DOM_MAX_SIDE && state.height <= DOM_MAX_SIDE; }

function buildBoard() {
  const board = $("board"), canvas = $("board-canvas");
  board.innerHTML = "";
  state.tiles.clear();
  const dom = domMode();
  board.classList.toggle("hidden", !dom);
  canvas.classList.toggle("hidden", dom);
  const ratio = `${state.width} / ${state.height}`;
  board.style.aspectRatio = ratio;
  canvas.style.aspectRatio = ratio;
  if (dom) {
    const gap = 4;
    for (let i = 0; i < state.cells.length; i++) {
      const tile = state.cells[i];
      if (tile === 0) continue;
      const el = document.createElement("div");
      el.className = "tile";
      el.textContent = tile;
      el.dataset.tile = tile;
      el.style.width = `calc(${100 / state.width}% - ${gap}px)`;
      el.style.height = `calc(${100 / state.height}% - ${gap}px)`;
      el.addEventListener("click", () => clickTile(tile));
      board.appendChild(el);
      state.tiles.set(tile, el);
    }
  }
  render(true);
}

function render(all) {
  const w = state.width, h = state.height, cells = state.cells;
  const solved = cells.length > 0 && cells.every((t, i) => t === state.goal[i]);
  const view = domMode() ? $("board") : $("board-canvas");
  view.dataset.board = cells.join(" ");
  view.dataset.position = state.step;
  view.dataset.single = state.pos;
  view.classList.toggle("solved", solved);
  if (domMode()) {
    const side = $("board").clientWidth || 400;
    const font = Math.max(10, Math.floor((side / Math.max(w, h)) * 0.42));
    const gap = 2;
    for (let i = 0; i < cells.length; i++) {
      const tile = cells[i];
      if (tile === 0) continue;
      const el = state.tiles.get(tile);
      if (!el) continue;
      el.style.left = `calc(${(100 * (i % w)) / w}% + ${gap}px)`;
      el.style.top = `calc(${(100 * Math.floor(i / w)) / h}% + ${gap}px)`;
      el.style.fontSize = font + "px";
      el.dataset.cell = i;
      el.classList.toggle("home", state.goal[i] === tile);
      el.classList.toggle("moved", state.movedTiles.includes(tile));
      el.classList.toggle("hint", state.hintTiles.includes(tile));
    }
    void all;
  } else {
    drawCanvas(solved);
  }
  updatePlayer();
}

function drawCanvas(solved) {
  const canvas = $("board-canvas"), w = state.width, h = state.height;
  const cssWidth = canvas.clientWidth || 640;
  const scale = window.devicePixelRatio || 1;
  canvas.width = Math.round(cssWidth * scale);
  canvas.height = Math.round((cssWidth * h / w) * scale);
  const ctx = canvas.getContext("2d");
  const cw = canvas.width / w, ch = canvas.height / h;
  ctx.fillStyle = "#4a4653";
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  const gap = cw > 6 ? 1 : 0;
  const labels = cw >= 16;
  ctx.font = `bold ${Math.floor(Math.min(cw, ch) * 0.38)}px system-ui, sans-serif`;
  ctx.textAlign = "center";
  ctx.textBaseline = "middle";
  for (let i = 0; i < state.cells.length; i++) {
    const tile = state.cells[i];
    if (tile === 0) continue;
    const x = (i % w) * cw, y = Math.floor(i / w) * ch;
    ctx.fillStyle = state.movedTiles.includes(tile) ? "#ffffff" : state.goal[i] === tile ? "#7fb77e" : "#e9a23b";
    ctx.fillRect(x + gap, y + gap, cw - 2 * gap, ch - 2 * gap);
    if (labels) {
      ctx.fillStyle = "#2b2a33";
      ctx.fillText(String(tile), x + cw / 2, y + ch / 2);
    }
  }
  if (solved) {
    ctx.strokeStyle = "#7fb77e";
    ctx.lineWidth = 6 * scale;
    ctx.strokeRect(0, 0, canvas.width, canvas.height);
  }
}

function rate() {
  const speed = Number($("speed").value);
  const n = steps();
  return n > FAST_MOVES ? Math.max(speed, n / FAST_SECONDS) : speed;
}

function updatePlayer() {
  const n = steps();
  const scrub = $("scrubber");
  scrub.max = n;
  scrub.value = state.step;
  $("counter").textContent = `${state.byHand ? "played" : "move"} ${fmt(state.step)} / ${fmt(n)}${state.metric === "mtm" ? " (MTM)" : ""}`;
  const r = rate();
  $("speed-label").textContent = r > Number($("speed").value) ? `fast-forward: ${fmt(Math.round(r))} moves/s` : `${r} moves/s`;
  $("play").textContent = state.playing ? "Pause" : "Play";
  for (const id of ["first", "back"]) $(id).disabled = state.step === 0;
  for (const id of ["forward", "last", "play"]) $(id).disabled = state.step >= n && !state.playing;
  // The steps in the chosen notation, the next one marked (only a window around it for long
  // answers).
  const moves = $("moves");
  if (n === 0) { moves.textContent = "no moves yet"; return; }
  const from = Math.max(0, state.step - 200), to = Math.min(n, state.step + 400);
  const texts = (a, b) => { let t = ""; for (let k = a; k < b; k++) t += stepText(k); return t; };
  moves.innerHTML = "";
  if (from > 0) moves.append(`… `);
  const done = document.createElement("span");
  done.className = "done";
  done.textContent = texts(from, state.step);
  moves.append(done);
  if (state.step < n) {
    const cur = document.createElement("span");
    cur.className = "current";
    cur.textContent = stepText(state.step);
    moves.append(cur, texts(state.step + 1, to));
  }
  if (to < n) moves.append(" …");
}

// ---------- playback ----------

// A timer rather than requestAnimationFrame: it keeps playing in background and headless tabs.
function frame() {
  if (!state.playing) return;
  const now = performance.now();
  const dt = state.lastFrame ? (now - state.lastFrame) / 1000 : 0;
  state.lastFrame = now;
  state.carry += dt * rate();
  const due = Math.floor(state.carry);
  if (due > 0) {
    state.carry -= due;
    seek(state.step + due);
  }
  if (state.step >= steps()) { pause(); return; }
  setTimeout(frame, 1000 / 60);
}

function play() {
  if (state.step >= steps()) return;
  state.playing = true;
  state.lastFrame = 0;
  state.carry = 1; // the first move at once
  updatePlayer();
  frame();
}

function pause() { state.playing = false; updatePlayer(); }

// Loads `moves` (single-tile letters) from `start`, stepped in `metric` ("stm" or "mtm").
function loadAnswer(start, moves, byHand, metric) {
  state.start = start.slice();
  state.cells = start.slice();
  state.moves = moves;
  state.metric = metric;
  state.ends = stepEnds(moves, metric);
  state.step = 0;
  state.pos = 0;
  state.byHand = byHand;
  state.movedTiles = [];
  state.hintTiles = [];
  state.playing = false;
  setStatus("hint-status", "");
}

// ---------- board input ----------

function showBoard(width, height, cells, goal) {
  state.width = width;
  state.height = height;
  state.goal = goal;
  loadAnswer(cells, "", false, $("metric").value || "stm");
  buildBoard();
}

async function parseInput() {
  const board = $("board-input").value;
  if (!board.trim()) return;
  try {
    const p = await api("/api/parse", { board, goal: $("goal").value || "blank-last" });
    const cells = numbers(p.board), goal = numbers(p.goal);
    const same = p.width === state.width && p.height === state.height &&
      cells.join(" ") === state.start.join(" ") && goal.join(" ") === state.goal.join(" ");
    // The same board and goal again (a space typed): keep its answer.
    if (!same) showBoard(p.width, p.height, cells, goal);
    setStatus("parse-status", `${p.width}×${p.height} board, ${p.solvable ? "solvable" : "unsolvable"}`, p.solvable ? "ok" : "error");
    if (!same) $("stats").innerHTML = "";
  } catch (e) {
    setStatus("parse-status", e.message, "error");
  }
}

async function scramble() {
  const q = new URLSearchParams({ size: $("gen-size").value.trim(), goal: $("goal").value || "blank-last" });
  if ($("gen-seed").value !== "") q.set("seed", $("gen-seed").value);
  if ($("gen-walk").value !== "") q.set("walk", $("gen-walk").value);
  try {
    const g = await api("/api/generate?" + q);
    const cells = numbers(g.board);
    const rows = [];
    for (let r = 0; r < g.height; r++) rows.push(cells.slice(r * g.width, (r + 1) * g.width).join(" "));
    $("board-input").value = rows.join("\n");
    $("gen-seed").value = g.seed;
    await parseInput();
  } catch (e) {
    setStatus("parse-status", e.message, "error");
  }
}

// ---------- solving ----------

function request(engine) {
  const heuristic = $("heuristic").value;
  return {
    board: $("board-input").value,
    goal: $("goal").value || "blank-last",
    metric: $("metric").value || "stm",
    engine,
    heuristic: heuristic === "default" ? null : heuristic,
    timeout: Number($("timeout").value) || 10,
  };
}

function describeError(e) {
  if (e.status === 422 && e.data && e.data.progress) {
    const p = e.data.progress;
    return `${e.message} (f-bound ${p.bound}, ${fmt(p.generated)} nodes generated)`;
  }
  return e.message;
}

function proven(record) {
  const g = record.guarantee, u = unit(record.metric, 2);
  const metric = record.metric === "mtm" ? " in the multi-tile metric" : "";
  if (g === "optimal") return `<span class="badge optimal">optimal</span>${metric}`;
  if (g && g["within-factor"]) return `<span class="badge unproven">at most ${g["within-factor"]}× optimal</span> ≥ ${record.lower_bound} ${u}`;
  return `<span class="badge unproven">not proven optimal</span> ≥ ${record.lower_bound} ${u}`;
}

// At most 300 characters of `text`, for the stats panel.
function cut(text) { return text.length > 300 ? text.slice(0, 300) + "…" : text; }

function showStats(r) {
  const dl = $("stats");
  const rows = [];
  if (!r.solvable) {
    rows.push(["answer", "no solution"], ["why", r.parity.explanation]);
  } else {
    const s = r.stats;
    const length = r.metric === "mtm" ? `${fmt(r.length)} ${unit("mtm", r.length)} (${fmt(r.length_stm)} single-tile)` : `${fmt(r.length)} ${unit("stm", r.length)}`;
    rows.push(
      ["length", length],
      ["moves", `<code>${cut(writtenAll(r.moves || "")) || "none"}</code>`],
      ["proven", proven(r)],
      ["engine", `${r.engine} + ${r.heuristic}${r.weight ? ` (W = ${r.weight})` : ""}`],
      ["expanded", fmt(s.expanded)],
      ["generated", fmt(s.generated)],
      ["time", seconds(s.seconds)],
      ["nodes/s", si(s.nodes_per_second) + "nodes/s"],
      ["start h", `${s.initial_h} ${unit(r.metric, s.initial_h)}`],
    );
    if (s.iterations) rows.push(["IDA* iterations", `${s.iterations.length} (last threshold ${s.iterations[s.iterations.length - 1].threshold})`]);
    if (s.stored_states) rows.push(["states stored", fmt(s.stored_states)]);
  }
  dl.innerHTML = rows.map(([k, v]) => `<dt>${k}</dt><dd>${v}</dd>`).join("");
}

async function solve() {
  pause();
  $("solve").disabled = true;
  setStatus("solve-status", "solving…");
  try {
    const r = await api("/api/solve", request($("engine").value));
    state.width = r.width;
    state.height = r.height;
    state.goal = compact(r.goal);
    loadAnswer(compact(r.board), r.moves || "", false, r.metric);
    buildBoard();
    showStats(r);
    setStatus("solve-status", r.solvable ? `solved in ${fmt(r.length)} ${unit(r.metric, r.length)} — press Play` : "proven unsolvable (parity)", r.solvable ? "ok" : "error");
  } catch (e) {
    setStatus("solve-status", describeError(e), "error");
  } finally {
    $("solve").disabled = false;
  }
}

// ---------- checking a given solution ----------

// Sends the pasted moves to /api/check, loads their legal part into the player (so Play
// replays them) and shows the verdict: legal or the first illegal move, the goal reached or
// the wrong cells, the length against the optimum or the proven lower bound.
async function checkSolution() {
  pause();
  $("check").disabled = true;
  setStatus("check-status", "checking…");
  try {
    const c = await api("/api/check", {
      board: $("board-input").value,
      goal: $("goal").value || "blank-last",
      metric: $("metric").value || "stm",
      moves: $("check-moves").value,
      timeout: Number($("timeout").value) || 10,
    });
    state.width = c.width;
    state.height = c.height;
    state.goal = compact(c.goal);
    const legal = c.illegal ? c.moves.slice(0, c.illegal.index) : c.moves;
    loadAnswer(compact(c.board), legal, false, c.metric);
    buildBoard();
    const u = (n) => unit(c.metric, n);
    const lines = [];
    if (c.illegal) lines.push(`move ${c.illegal.index + 1} (${c.illegal.move}) is illegal: ${c.illegal.reason}`);
    if (!c.solves && c.wrong_cells.length) {
      lines.push(`${c.wrong_cells.length} cells wrong: ` + c.wrong_cells.map((w) => `row ${w.row + 1} col ${w.column + 1} has ${w.tile}, goal ${w.expected}`).join("; "));
    }
    const o = c.optimum;
    if (o.kind === "known") lines.push(`optimum ${o.length} ${u(o.length)} (${o.how})` + (c.extra_moves !== null ? `: yours is ${c.extra_moves === 0 ? "optimal" : `${c.extra_moves} longer`}` : ""));
    else if (o.kind === "at-least") lines.push(`optimum not computed: at least ${o.lower_bound} ${u(o.lower_bound)} (${o.how})`);
    else lines.push("the board is unsolvable: " + c.parity);
    const head = c.solves ? `solves the board in ${fmt(c.length)} ${u(c.length)} — press Play to replay it` : "does not solve the board";
    setStatus("check-status", [head, ...lines].join(". "), c.solves ? "ok" : "error");
  } catch (e) {
    setStatus("check-status", describeError(e), "error");
  } finally {
    $("check").disabled = false;
  }
}

// ---------- playing by hand ----------

// A click on a tile slides it into the blank: in STM a tile next to the blank; in MTM any tile
// of the blank's row or column, with the tiles between (one MTM move; two clicks in the same
// direction in a row make one run, as the multi-tile metric counts them).
function clickTile(tile) {
  pause();
  const metric = $("metric").value || "stm";
  const cell = state.cells.indexOf(tile), blank = state.cells.indexOf(0), w = state.width;
  const r = Math.floor(cell / w), c = cell % w, br = Math.floor(blank / w), bc = blank % w;
  let m = "", k = 0;
  if (c === bc && r > br) { m = "U"; k = r - br; }
  else if (c === bc && r < br) { m = "D"; k = br - r; }
  else if (r === br && c > bc) { m = "L"; k = c - bc; }
  else if (r === br && c < bc) { m = "R"; k = bc - c; }
  if (!m || (k > 1 && metric !== "mtm")) return;
  if (!state.byHand || state.metric !== metric) {
    // Leave the answer: the moves from here on are the player's own.
    loadAnswer(state.cells, "", true, metric);
  }
  state.hintTiles = [];
  state.moves = state.moves.slice(0, state.pos) + m.repeat(k);
  const moved = [];
  for (let i = 0; i < k; i++) moved.push(apply(m));
  state.movedTiles = moved;
  state.ends = stepEnds(state.moves, metric);
  state.step = steps();
  state.pos = state.moves.length;
  render(false);
  setStatus("hint-status", state.cells.every((t, i) => t === state.goal[i]) ? `solved by hand in ${state.step} ${unit(metric, state.step)}` : "");
}

// Asks the server for an optimal solution from the board shown (in the chosen metric) and
// marks the tiles of its first move: one tile in STM, the first run in MTM.
async function hint() {
  pause();
  const cells = state.cells, metric = $("metric").value || "stm";
  if (cells.every((t, i) => t === state.goal[i])) { setStatus("hint-status", "already solved", "ok"); return; }
  setStatus("hint-status", "thinking…");
  const optimal = cells.length <= 16;
  try {
    const r = await api("/api/solve", {
      board: cells.join(" "),
      size: `${state.width}x${state.height}`,
      goal: $("goal").value || "blank-last",
      metric,
      engine: "auto",
      optimal,
      timeout: Number($("timeout").value) || 10,
    });
    if (!r.solvable) { setStatus("hint-status", "no solution from here", "error"); return; }
    const run = metric === "mtm" ? r.moves.match(/^(.)\1*/)[0] : r.moves[0];
    const m = run[0];
    const tiles = [];
    let blank = cells.indexOf(0);
    for (let i = 0; i < run.length; i++) {
      const t = blankTarget(blank, m);
      tiles.push(cells[t]);
      blank = t;
    }
    state.hintTiles = tiles;
    render(false);
    const words = { U: "up", D: "down", L: "left", R: "right" };
    setStatus("hint-status", `hint: slide ${tiles.join(", ")} ${words[m]} (${written(run)}); ${r.length} ${unit(r.metric, r.length)} to go${r.optimal ? " (optimal)" : " (not proven optimal)"}`, "ok");
  } catch (e) {
    setStatus("hint-status", describeError(e), "error");
  }
}

// ---------- compare ----------

async function compare() {
  pause();
  const engines = [...document.querySelectorAll("#compare-engines input:checked")].map((c) => c.value);
  const body = $("compare-table").querySelector("tbody");
  body.innerHTML = "";
  const results = [];
  $("compare").disabled = true;
  for (const engine of engines) {
    setStatus("compare-status", `running ${engine}…`);
    const tr = document.createElement("tr");
    try {
      const r = await api("/api/solve", request(engine));
      if (!r.solvable) {
        tr.innerHTML = `<td>${engine}</td><td colspan="7">no solution (parity)</td>`;
      } else {
        const s = r.stats;
        const g = r.guarantee === "optimal" ? "optimal" : r.guarantee && r.guarantee["within-factor"] ? `≤ ${r.guarantee["within-factor"]}× optimal` : "not proven";
        tr.innerHTML = `<td>${r.engine}</td><td>${r.heuristic}</td><td>${fmt(r.length)}</td><td>${g}</td><td>${fmt(s.expanded)}</td><td>${fmt(s.generated)}</td><td>${s.seconds.toFixed(4)}</td><td>${si(s.nodes_per_second)}</td>`;
        results.push({ name: engine === "auto" ? `auto (${r.engine})` : r.engine, nodes: s.generated, seconds: s.seconds });
      }
    } catch (e) {
      tr.innerHTML = `<td>${engine}</td><td colspan="7" class="error">${describeError(e)}</td>`;
    }
    body.appendChild(tr);
  }
  $("compare").disabled = false;
  setStatus("compare-status", `${results.length} of ${engines.length} engines answered`, "ok");
  barChart($("chart-nodes"), results.map((r) => [r.name, r.nodes]), (v) => si(v).trim());
  barChart($("chart-seconds"), results.map((r) => [r.name, r.seconds]), seconds);
}

// A horizontal bar chart on a log scale, drawn as SVG by hand.
function barChart(svg, rows, label) {
  const NS = "http://www.w3.org/2000/svg";
  svg.innerHTML = "";
  const width = svg.clientWidth || 420, height = svg.clientHeight || 220;
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  const data = rows;
  const logs = data.filter(([, v]) => v > 0).map(([, v]) => Math.log10(v));
  if (logs.length === 0) logs.push(0);
  const lo = Math.floor(Math.min(...logs)) - 0.3, hi = Math.max(Math.ceil(Math.max(...logs)), lo + 1);
  const left = 130, right = 70, top = 10, band = (height - top - 10) / data.length;
  // Zero (the constructive solver generates no search nodes) gets no bar.
  const x = (v) => (v > 0 ? left + ((Math.log10(v) - lo) / (hi - lo)) * (width - left - right) : left);
  const colors = ["#2f6f8f", "#e9a23b", "#7fb77e", "#d95d5d", "#8d6cab", "#4a9c9c", "#b07d48"];
  data.forEach(([name, v], i) => {
    const y = top + i * band;
    const g = document.createElementNS(NS, "g");
    g.setAttribute("class", "bar");
    const text = document.createElementNS(NS, "text");
    text.setAttribute("x", left - 8);
    text.setAttribute("y", y + band / 2);
    text.setAttribute("text-anchor", "end");
    text.setAttribute("dominant-baseline", "middle");
    text.textContent = name;
    const rect = document.createElementNS(NS, "rect");
    rect.setAttribute("x", left);
    rect.setAttribute("y", y + band * 0.15);
    rect.setAttribute("width", v > 0 ? Math.max(2, x(v) - left) : 0);
    rect.setAttribute("height", band * 0.7);
    rect.setAttribute("rx", 3);
    rect.setAttribute("fill", colors[i % colors.length]);
    const value = document.createElementNS(NS, "text");
    value.setAttribute("x", x(v) + 6);
    value.setAttribute("y", y + band / 2);
    value.setAttribute("dominant-baseline", "middle");
    value.textContent = label(v);
    g.append(text, rect, value);
    svg.append(g);
  });
}

// ---------- set-up ----------

function option(select, value, text) {
  const o = document.createElement("option");
  o.value = value;
  o.textContent = text;
  select.appendChild(o);
}

async function init() {
  try {
    const info = await api("/api/engines");
    state.engines = info.engines;
    option($("engine"), "auto", "auto");
    for (const e of info.engines) option($("engine"), e.name, `${e.name}${e.optimal ? "" : " (not optimal)"}`);
    option($("heuristic"), "default", "default");
    for (const h of info.heuristics) option($("heuristic"), h.name, h.name);
    for (const g of info.goals) option($("goal"), g, g);
    const metricNames = { stm: "stm (single tile)", mtm: "mtm (multi-tile)" };
    for (const m of info.metrics) option($("metric"), m, metricNames[m] || m);
    const notationNames = { letters: "letters (RRUU)", counts: "counts (R2U2)" };
    for (const n of info.notations) option($("notation"), n, notationNames[n] || n);
    $("timeout").value = info.default_timeout;
    $("timeout").max = info.max_timeout;
    const checks = $("compare-engines");
    for (const name of ["auto", ...info.engines.map((e) => e.name)]) {
      const label = document.createElement("label");
      const box = document.createElement("input");
      box.type = "checkbox";
      box.value = name;
      box.checked = name !== "auto";
      label.append(box, name);
      checks.appendChild(label);
    }
  } catch (e) {
    setStatus("solve-status", "cannot reach the server: " + e.message, "error");
  }
  await parseInput();
}

$("board-input").addEventListener("input", () => {
  clearTimeout(state.parseTimer);
  state.parseTimer = setTimeout(parseInput, 300);
});
$("goal").addEventListener("change", parseInput);
$("scramble").addEventListener("click", scramble);
$("solve").addEventListener("click", solve);
$("play").addEventListener("click", () => (state.playing ? pause() : play()));
$("back").addEventListener("click", () => { pause(); seek(state.step - 1); });
$("forward").addEventListener("click", () => { pause(); seek(state.step + 1); });
$("first").addEventListener("click", () => { pause(); seek(0); });
$("last").addEventListener("click", () => { pause(); seek(steps()); });
$("scrubber").addEventListener("input", (e) => {
  const p = Number(e.target.value); // read first: pause() redraws the scrubber
  pause();
  seek(p);
});
$("speed").addEventListener("input", updatePlayer);
// The speedsolvers' notation goes with their metric; either can be changed after.
$("metric").addEventListener("change", () => { $("notation").value = $("metric").value === "mtm" ? "counts" : "letters"; updatePlayer(); });
$("notation").addEventListener("change", updatePlayer);
$("hint").addEventListener("click", hint);
$("compare").addEventListener("click", compare);
$("check").addEventListener("click", checkSolution);
$("board-canvas").addEventListener("click", (e) => {
  const c = $("board-canvas"), box = c.getBoundingClientRect();
  const col = Math.floor(((e.clientX - box.left) / box.width) * state.width);
  const row = Math.floor(((e.clientY - box.top) / box.height) * state.height);
  const tile = state.cells[row * state.width + col];
  if (tile) clickTile(tile);
});
for (const tab of document.querySelectorAll(".tab")) {
  tab.addEventListener("click", () => {
    for (const t of document.querySelectorAll(".tab")) t.classList.toggle("active", t === tab);
    for (const v of document.querySelectorAll(".view")) v.classList.toggle("hidden", v.id !== tab.dataset.view);
  });
}
window.addEventListener("resize", () => render(true));
init();
