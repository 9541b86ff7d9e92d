// The page of `c4` (`c4 serve`, or the static site of
// scripts/build-site.sh): draws the board, asks for every column's score
// (/api/analyze), the perfect-play line (/api/solve), the move of a level
// (/api/move) and the review of a game (/api/review, drawn as a chart of the
// score after each move), and keeps the position in the address (#4453, or
// #8x7:4453 on another board; ?review before the # reviews that line).
//
// Two back ends answer the same requests with the same JSON objects: the
// server of `c4 serve` over HTTP, or, when the page is the static site (its
// <html> has data-backend="worker"), c4 compiled to WebAssembly in a Web
// Worker (worker.js).
"use strict";

const NAMES = { X: "Red", O: "Yellow" };
const CELL = 100; // SVG units per cell
const TOP = 76; // the score row above the board
const BOTTOM = 40; // the column numbers below it
const SVG_NS = "http://www.w3.org/2000/svg";
// The longest search the static site's worker may run for one request; past
// it the page ends the worker, and says the answer is beyond its limits.
const WORKER_SECONDS = 10;
// The boards whose empty board is scored at once: those with an opening
// book, and those of at most this many cells (the analysis of the empty
// board takes at most 1.0M nodes on each, 7x4 the most: `c4 serve --log`,
// /api/analyze). Bigger boards are played, and scored once their positions
// are within the limits (a few, such as 4x9 at 2.1M nodes, from the start).
const QUICK_CELLS = 30;

const state = {
  width: 7,
  height: 6,
  moves: [], // 0-based columns
  redo: [],
  analysis: null, // the answer of /api/analyze for `moves`
  solved: null, // the answer of /api/solve for `moves`
  pvStep: 0, // moves of the line shown ahead of the position
  game: null, // { human: "X" | "O", level, start } while playing c4
  paused: false, // c4 was stopped before it moved
  info: null,
  generation: 0, // bumped by every change, so late answers are dropped
  controllers: new Set(),
  pending: 0,
  review: null, // { width, height, line: 0-based columns, answer of /api/review }
  reviewing: false, // a review is under way
  limited: false, // the position's scores or line were beyond the limits
};

const $ = (id) => document.getElementById(id);

// ---------- positions ----------

function columnChar(col) {
  return col < 9 ? String(col + 1) : String.fromCharCode(97 + col - 9);
}

function movesString(moves) {
  return moves.map(columnChar).join("");
}

function sideToMove(count) {
  return count % 2 === 0 ? "X" : "O";
}

// The grid after `moves`: grid[col][row] is "X", "O" or undefined.
function gridOf(moves, width) {
  const grid = Array.from({ length: width }, () => []);
  moves.forEach((col, i) => grid[col].push(sideToMove(i)));
  return grid;
}

// The four (or more) cells in a row through the last move, if it won.
function winningCells(moves, width, height) {
  if (moves.length === 0) return null;
  const grid = gridOf(moves, width);
  const col = moves[moves.length - 1];
  const row = grid[col].length - 1;
  const who = grid[col][row];
  const at = (c, r) => c >= 0 && c < width && r >= 0 && r < height && grid[c][r] === who;
  for (const [dc, dr] of [[1, 0], [0, 1], [1, 1], [1, -1]]) {
    const cells = [[col, row]];
    for (const sign of [1, -1]) {
      let c = col + sign * dc;
      let r = row + sign * dr;
      while (at(c, r)) {
        cells.push([c, r]);
        c += sign * dc;
        r += sign * dr;
      }
    }
    if (cells.length >= 4) return cells;
  }
  return null;
}

function gameOver(moves) {
  return winningCells(moves, state.width, state.height) !== null ||
    moves.length === state.width * state.height;
}

function canPlay(moves, col) {
  return moves.filter((c) => c === col).length < state.height;
}

// ---------- the address ----------

function boardName() {
  return `${state.width}x${state.height}`;
}

function hashOf() {
  const m = movesString(state.moves);
  return state.width === 7 && state.height === 6 ? `#${m}` : `#${boardName()}:${m}`;
}

function readHash() {
  const text = decodeURIComponent(location.hash.replace(/^#/, ""));
  const match = /^(\d+)x(\d+):(.*)$/.exec(text);
  if (match) return { width: +match[1], height: +match[2], moves: match[3] };
  return { width: 7, height: 6, moves: text };
}

// ---------- the back end ----------

// "worker" on the static site, "server" under `c4 serve`.
const BACKEND = document.documentElement.dataset.backend === "worker" ? "worker" : "server";

class ApiError extends Error {
  constructor(status, body, retryAfter) {
    super(body && body.error ? body.error : `HTTP ${status}`);
    this.status = status;
    this.body = body;
    this.retryAfter = retryAfter;
  }
}

function setBusy(delta) {
  state.pending += delta;
  document.body.dataset.busy = state.pending > 0 ? "1" : "0";
}

// The answer of `path` to `params` (an object; its values are sent as
// strings): the server's JSON object, or an ApiError with its status. Shows
// that it is thinking after a moment; stopAll() stops it.
async function api(path, params, label) {
  const controller = new AbortController();
  state.controllers.add(controller);
  setBusy(1);
  const timer = setTimeout(() => showThinking(label), 250);
  try {
    const ask = BACKEND === "worker" ? askWorker : askServer;
    return await ask(path, params, controller.signal);
  } finally {
    clearTimeout(timer);
    state.controllers.delete(controller);
    setBusy(-1);
    if (state.pending === 0) $("thinking").hidden = true;
  }
}

// GET `path` with `params` from `c4 serve`; retries a few times while the
// server is busy.
async function askServer(path, params, signal) {
  const query = new URLSearchParams(params).toString();
  for (let attempt = 0; ; attempt++) {
    const response = await fetch(`${path}?${query}`, { signal });
    const body = await response.json().catch(() => null);
    if (response.ok) return body;
    const retryAfter = Number(response.headers.get("Retry-After") || "0");
    if (response.status === 503 && attempt < 5) {
      showThinking("The server is busy: waiting…");
      await new Promise((resolve) => setTimeout(resolve, 1000 * Math.max(1, retryAfter)));
      continue;
    }
    throw new ApiError(response.status, body, retryAfter);
  }
}

// The static site's solver: one worker at a time, the requests it has not
// answered yet by id, and the compiled module every new worker starts from.
const solver = { worker: null, next: 1, waiting: new Map(), module: null };

// The compiled solver, fetched and compiled once for every worker.
function solverModule() {
  if (!solver.module) {
    const wasm = new URL("c4_wasm_bg.wasm", document.baseURI);
    solver.module = WebAssembly.compileStreaming(fetch(wasm)).catch(async () =>
      WebAssembly.compile(await (await fetch(wasm)).arrayBuffer()));
  }
  return solver.module;
}

// The worker, started (with the compiled solver) if there is none.
async function solverWorker() {
  const module = await solverModule();
  if (!solver.worker) {
    const worker = new Worker(new URL("worker.js", document.baseURI));
    worker.onmessage = (event) => {
      const waiting = solver.waiting.get(event.data.id);
      if (!waiting) return;
      solver.waiting.delete(event.data.id);
      waiting.resolve(event.data);
    };
    worker.onerror = (event) => {
      event.preventDefault();
      endWorker(new Error(`the solver failed in this browser: ${event.message || "no WebAssembly?"}`));
    };
    worker.postMessage({ init: module });
    solver.worker = worker;
  }
  return solver.worker;
}

// Ends the worker, and with it any search under way (the only way to stop
// one), failing its unanswered requests with `error`. The next request
// starts a new worker.
function endWorker(error) {
  if (solver.worker) solver.worker.terminate();
  solver.worker = null;
  const waiting = [...solver.waiting.values()];
  solver.waiting.clear();
  for (const w of waiting) w.reject(error);
}

// `message` answered by the worker; `signal` aborts it by ending the worker,
// and so does a search longer than `seconds` (when given), failed with the
// error of a time limit (422, as the server's).
function postToWorker(message, signal, seconds) {
  return new Promise((resolve, reject) => {
    const id = solver.next++;
    const stopped = () => endWorker(new DOMException("Stopped", "AbortError"));
    if (signal) {
      if (signal.aborted) return reject(new DOMException("Stopped", "AbortError"));
      signal.addEventListener("abort", stopped, { once: true });
    }
    let timer = null;
    const done = () => {
      clearTimeout(timer);
      if (signal) signal.removeEventListener("abort", stopped);
    };
    solver.waiting.set(id, {
      resolve: (data) => { done(); resolve(data); },
      reject: (error) => { done(); reject(error); },
    });
    solverWorker().then(
      (worker) => {
        if (!solver.waiting.has(id)) return;
        worker.postMessage({ ...message, id });
        if (seconds) {
          timer = setTimeout(() => endWorker(new ApiError(422, {
            error: `time limit reached: the answer needs more than the ${seconds} s this page searches for one request`,
            limit: "time", max_seconds: seconds,
          }, 0)), seconds * 1000);
        }
      },
      (error) => endWorker(new Error(`the solver could not be loaded: ${error.message}`)),
    );
  });
}

// `path` with `params` answered by the worker, as the server answers it.
async function askWorker(path, params, signal) {
  const strings = Object.fromEntries(new URLSearchParams(params));
  const answer = await postToWorker({ path, params: strings }, signal, WORKER_SECONDS);
  if (answer.status === 200) return answer.body;
  throw new ApiError(answer.status, answer.body, 0);
}

// For scripts/measure/site-bench.sh: solves test-set `lines` on the worker as
// `c4 bench --no-book` does; gives { bench: {positions, nodes,
// mismatches}, millis }.
window.c4Bench = (width, height, lines) => postToWorker({ bench: { width, height, lines } });

function showThinking(label) {
  $("thinking-text").textContent = label || "Thinking…";
  $("thinking").hidden = false;
}

// Stops every request under way: the server drops or stops its searches;
// the static site's worker is ended.
function stopAll() {
  for (const controller of state.controllers) controller.abort();
  state.controllers.clear();
}

function boardParams() {
  return { moves: movesString(state.moves), width: state.width, height: state.height };
}

// ---------- drawing ----------

function el(name, attrs, parent) {
  const node = document.createElementNS(SVG_NS, name);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
  if (parent) parent.appendChild(node);
  return node;
}

function scoreText(score) {
  if (score > 0) return `+${score}`;
  if (score < 0) return `\u2212${-score}`;
  return "0";
}

function scoreClass(score) {
  return score > 0 ? "win" : score < 0 ? "loss" : "draw";
}

function showScores() {
  return !state.game || $("show-scores").checked;
}

function draw() {
  const { width, height } = state;
  const svg = $("board");
  const w = width * CELL;
  const h = TOP + height * CELL + BOTTOM;
  svg.setAttribute("viewBox", `0 0 ${w} ${h}`);
  svg.replaceChildren();

  const defs = el("defs", {}, svg);
  const gradient = (id, stops, attrs) => {
    const g = el("radialGradient", { id, ...attrs }, defs);
    stops.forEach(([offset, color]) => el("stop", { offset, "stop-color": color }, g));
  };
  gradient("disc-X", [["0", "#ff8a92"], ["0.55", "#e0323f"], ["1", "#a81826"]], { cx: "0.38", cy: "0.35", r: "0.7" });
  gradient("disc-O", [["0", "#fff0a8"], ["0.55", "#f6b819"], ["1", "#c98a00"]], { cx: "0.38", cy: "0.35", r: "0.7" });
  gradient("hole", [["0", "#e9eef7"], ["0.8", "#dbe3f0"], ["1", "#b9c5da"]], { cx: "0.5", cy: "0.4", r: "0.6" });
  const lg = el("linearGradient", { id: "board-fill", x1: "0", y1: "0", x2: "0", y2: "1" }, defs);
  el("stop", { offset: "0", "stop-color": "#2a5fe0" }, lg);
  el("stop", { offset: "1", "stop-color": "#1a3fa6" }, lg);

  el("rect", {
    x: 4, y: TOP - 4, width: w - 8, height: height * CELL + 8, rx: 26,
    fill: "url(#board-fill)", stroke: "#14358c", "stroke-width": 3,
  }, svg);

  // What is shown: the position, and the line's moves ahead of it.
  const pv = state.solved && state.solved.pv ? [...state.solved.pv].map((ch) => parseInt(ch, 36) - 1) : [];
  const shown = state.moves.concat(pv.slice(0, state.pvStep));
  const grid = gridOf(shown, width);
  // order[col][row]: the index in `shown` of the move that filled the cell.
  const order = Array.from({ length: width }, () => []);
  shown.forEach((col, i) => order[col].push(i));
  const won = winningCells(shown, width, height);
  const over = gameOver(state.moves);
  const analysis = showScores() && state.pvStep === 0 ? state.analysis : null;
  const best = analysis ? analysis.best_move : null;
  const myTurn = !state.game || (sideToMove(state.moves.length) === state.game.human && !state.paused);

  for (let col = 0; col < width; col++) {
    const x = col * CELL;
    const playable = !over && canPlay(state.moves, col) && myTurn && state.pvStep === 0;
    const score = analysis && analysis.scores ? analysis.scores[col] : null;
    const g = el("g", {
      class: `column${playable ? "" : " disabled"}`,
      "data-col": col,
      role: "button",
      tabindex: playable ? 0 : -1,
      "aria-label": `Column ${columnChar(col)}` +
        (score !== null && score !== undefined ? `, score ${score}` : ""),
    }, svg);
    el("rect", { x, y: 0, width: CELL, height: h, fill: "transparent" }, g);
    el("rect", { class: "hover", x: x + 6, y: TOP, width: CELL - 12, height: height * CELL, rx: 14 }, g);

    if (score !== null && score !== undefined) {
      const isBest = best === col + 1;
      el("rect", {
        class: `score-pill ${scoreClass(score)}${isBest ? " best" : ""}`,
        x: x + 12, y: 8, width: CELL - 24, height: 52, rx: 26,
      }, g);
      const t = el("text", {
        class: "score-text", "data-col": col, "data-score": score,
        x: x + CELL / 2, y: 45, "text-anchor": "middle",
      }, g);
      t.textContent = scoreText(score);
      if (isBest) {
        const star = el("text", { class: "best-star", x: x + CELL - 14, y: 20, "text-anchor": "middle" }, g);
        star.textContent = "★";
      }
    } else if (state.analysis === null && state.pending > 0 && showScores() && !over && canPlay(state.moves, col)) {
      el("rect", { class: "score-pill unknown", x: x + 12, y: 8, width: CELL - 24, height: 52, rx: 26 }, g);
    }

    for (let row = 0; row < height; row++) {
      const cx = x + CELL / 2;
      const cy = TOP + (height - 1 - row) * CELL + CELL / 2;
      el("circle", { cx, cy, r: 38, fill: "url(#hole)" }, g);
      const who = grid[col][row];
      if (!who) continue;
      const index = order[col][row];
      const ahead = index >= state.moves.length;
      el("circle", {
        class: `disc${ahead ? " preview" : ""}`, cx, cy, r: 38,
        fill: `url(#disc-${who})`, "data-who": who,
      }, g);
      if (ahead) {
        const n = el("text", { class: "pv-number", x: cx, y: cy + 9, "text-anchor": "middle" }, g);
        n.textContent = index + 1;
      } else if (index === shown.length - 1) {
        el("circle", { class: "last-dot", cx, cy, r: 7 }, g);
      }
    }
    const label = el("text", { class: "col-label", x: x + CELL / 2, y: TOP + height * CELL + 32, "text-anchor": "middle" }, g);
    label.textContent = columnChar(col);
    g.addEventListener("click", () => clickColumn(col));
    g.addEventListener("keydown", (e) => {
      if (e.key === "Enter" || e.key === " ") {
        e.preventDefault();
        clickColumn(col);
      }
    });
  }
  if (won) {
    for (const [c, r] of won) {
      el("circle", {
        class: "win-ring", cx: c * CELL + CELL / 2, cy: TOP + (height - 1 - r) * CELL + CELL / 2, r: 30,
      }, svg);
    }
  }
}

function whoSpan(side) {
  return `<span class="who-${side}">${NAMES[side]}</span>`;
}

function describe() {
  const count = state.moves.length;
  const side = sideToMove(count);
  const won = winningCells(state.moves, state.width, state.height);
  if (won) {
    const winner = sideToMove(count - 1);
    return `${whoSpan(winner)} has won on move ${count}.`;
  }
  if (count === state.width * state.height) return "The board is full: a draw.";
  const a = state.analysis;
  if (!a || !showScores()) return `${whoSpan(side)} to move.`;
  if (a.score === 0) return `${whoSpan(side)} to move: a draw with perfect play.`;
  const when = a.win_on_move ? ` on move ${a.win_on_move}` : "";
  if (a.score > 0) return `${whoSpan(side)} to move and wins${when} with perfect play.`;
  return `${whoSpan(side)} to move: ${whoSpan(sideToMove(count + 1))} wins${when} with perfect play.`;
}

function renderPv() {
  const box = $("pv");
  box.replaceChildren();
  const solved = showScores() ? state.solved : null;
  const pv = solved && solved.pv ? [...solved.pv] : [];
  if (!solved) {
    const span = document.createElement("span");
    span.className = "empty";
    span.textContent = state.game && !showScores() ? "Hidden during the game." :
      state.limited ? "Beyond the limits for this position." : "…";
    box.appendChild(span);
  } else if (pv.length === 0) {
    const span = document.createElement("span");
    span.className = "empty";
    span.textContent = "The game is over.";
    box.appendChild(span);
  }
  pv.forEach((ch, i) => {
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = ch;
    b.className = `${sideToMove(state.moves.length + i)}${i + 1 === state.pvStep ? " current" : ""}`;
    b.title = `Move ${state.moves.length + i + 1}: ${NAMES[sideToMove(state.moves.length + i)]} plays column ${ch}`;
    b.addEventListener("click", () => setPvStep(i + 1));
    box.appendChild(b);
  });
  $("pv-step").textContent = `${state.pvStep} / ${pv.length}`;
  $("pv-first").disabled = $("pv-prev").disabled = state.pvStep === 0;
  $("pv-next").disabled = $("pv-last").disabled = state.pvStep >= pv.length;
  $("pv-play").disabled = state.pvStep === 0 || state.game !== null;
  const result = $("result");
  // The CLI's sentence, with the page's names for X and O.
  const words = state.analysis ? state.analysis.result.replace(/\bX\b/g, "Red").replace(/\bO\b/g, "Yellow") : "";
  result.textContent = words && showScores() ? `${words[0].toUpperCase()}${words.slice(1)}.` : "";
}

function renderGame() {
  const g = state.game;
  $("end-game").hidden = !g;
  $("from-here").hidden = !!g;
  const status = $("game-status");
  if (!g) {
    status.textContent = "";
    return;
  }
  const count = state.moves.length;
  const won = winningCells(state.moves, state.width, state.height);
  if (won) {
    status.textContent = sideToMove(count - 1) === g.human ? "You win! Well played." : "c4 wins. Try again?";
  } else if (count === state.width * state.height) {
    status.textContent = "A draw.";
  } else if (sideToMove(count) === g.human) {
    status.textContent = `Your move (${NAMES[g.human]}).`;
  } else if (state.paused) {
    status.innerHTML = "c4 was stopped. ";
    const b = document.createElement("button");
    b.type = "button";
    b.className = "small";
    b.id = "c4-move";
    b.textContent = "Let c4 move";
    b.addEventListener("click", () => {
      state.paused = false;
      update();
    });
    status.appendChild(b);
  } else {
    status.textContent = "c4 is thinking…";
  }
}

function render() {
  draw();
  $("sentence").innerHTML = describe();
  renderPv();
  renderGame();
  renderReview();
  $("undo").disabled = state.moves.length === 0 || (state.game && undoPoint() === null);
  $("redo").disabled = state.redo.length === 0 || state.game !== null;
  const input = $("moves");
  if (document.activeElement !== input) input.value = movesString(state.moves);
}

// ---------- what the server says ----------

function showError(message) {
  $("sentence").textContent = message;
}

// The sentence of the position, then `message`.
function showNotice(message) {
  const sentence = $("sentence");
  sentence.innerHTML = describe();
  const notice = document.createElement("span");
  notice.className = "notice";
  notice.textContent = message;
  sentence.appendChild(notice);
}

// Whether `error` is a node or time limit reached: the request was read and
// is well formed, but its answer is beyond the back end's limits.
function beyondLimits(error) {
  return error instanceof ApiError && error.status === 422 && error.body !== null &&
    (error.body.limit === "nodes" || error.body.limit === "time");
}

// The limit `error` reached, in words: "20,000,000 nodes" or "5 s" a
// request, and the option that sets it.
function limitWords(error) {
  const body = error.body;
  if (body.limit === "nodes") {
    return `this server's limit of ${body.max_nodes.toLocaleString("en")} nodes a request (c4 serve --max-nodes)`;
  }
  if (BACKEND === "worker") return `this page's limit of ${body.max_seconds} s of search a request`;
  return `this server's limit of ${body.max_seconds} s of search a request (c4 serve --max-seconds)`;
}

// What could not be had within the limits (`what`: "scores", "line",
// "move" or "review"), and what is left to do.
function limitNotice(error, what) {
  const board = `${state.width} × ${state.height}`;
  const within = `within ${limitWords(error)}`;
  switch (what) {
    case "move":
      return `c4 cannot choose its move in this ${board} position ${within}: ` +
        "choose level 0 (it needs no search), undo, or try a smaller board.";
    case "review":
      return `This game cannot be reviewed ${within}.`;
    case "line":
      return `The perfect-play line of this ${board} position cannot be found ${within}.`;
    default:
      return `This ${board} position cannot be scored ${within}: ` +
        "play on without scores; they come once a position is easier.";
  }
}

function explain(error) {
  if (error.name === "AbortError") return "Stopped.";
  if (error instanceof ApiError) {
    if (beyondLimits(error)) return `Beyond the limits: ${limitWords(error)}.`;
    if (error.status === 503) return "The server is busy: try again in a moment.";
    return `${BACKEND === "worker" ? "The solver" : "The server"} says: ${error.message}`;
  }
  if (BACKEND === "worker") return `The solver stopped: ${error.message}`;
  return "Cannot reach c4 serve: is it still running?";
}

// Called after every change of position: redraws, then asks the server for
// whatever is now needed.
async function update(known) {
  const generation = ++state.generation;
  stopAll();
  state.analysis = known || null;
  state.solved = null;
  state.pvStep = 0;
  state.limited = false;
  history.replaceState(null, "", hashOf());
  render();
  const over = gameOver(state.moves);
  let asked = "scores";
  try {
    if (state.game && !over && sideToMove(state.moves.length) !== state.game.human && !state.paused) {
      asked = "move";
      const answer = await api("/api/move", { ...boardParams(), level: state.game.level }, "c4 is thinking…");
      if (generation !== state.generation) return;
      state.moves.push(answer.move - 1);
      state.redo = [];
      update();
      return;
    }
    if (!showScores()) return;
    if (!state.analysis) {
      const analysis = await api("/api/analyze", boardParams(), "Scoring every column…");
      if (generation !== state.generation) return;
      state.analysis = analysis;
      render();
    }
    asked = "line";
    const solved = await api("/api/solve", boardParams(), "Finding the perfect-play line…");
    if (generation !== state.generation) return;
    state.solved = solved;
    render();
  } catch (error) {
    if (generation !== state.generation) return;
    if (state.game && (error.name === "AbortError" || asked === "move")) state.paused = true;
    if (beyondLimits(error)) {
      // The board stays the one asked for, playable: only the answers
      // beyond the limits are missing, and the page says which.
      state.limited = true;
      render();
      showNotice(limitNotice(error, asked));
      return;
    }
    render();
    showError(explain(error));
  }
}


// ---------- the review ----------

const VERDICT_MARKS = { best: "", slower: "?!", mistake: "?", blunder: "??" };
const CHART = { width: 1000, height: 240, left: 86, right: 18, top: 16, bottom: 34 };

// The game on the board: its moves, and those ahead of it that Redo replays.
function gameLine() {
  return state.moves.concat([...state.redo].reverse());
}

// The position on the board as a number of moves into the reviewed line, or
// null when the board has left that line.
function reviewPly() {
  const r = state.review;
  if (!r || r.width !== state.width || r.height !== state.height) return null;
  if (state.moves.length > r.line.length) return null;
  return state.moves.every((col, i) => col === r.line[i]) ? state.moves.length : null;
}

// Brings the review card into view: its top at the top of the window, or
// as near as the page's end allows.
function revealReview() {
  $("review").scrollIntoView({ block: "start", behavior: "instant" });
}

// Reviews `line` (0-based columns; the game on the board by default);
// `reveal` brings the review into view (a link with ?review).
async function runReview(line, reveal) {
  const moves = line || gameLine();
  const { width, height } = state;
  state.reviewing = true;
  $("review-sentence").textContent = "Reviewing every move…";
  renderReview();
  if (reveal) revealReview();
  try {
    const answer = await api("/api/review", { moves: movesString(moves), width, height },
      "Reviewing every move…");
    state.review = { width, height, line: moves, answer };
  } catch (error) {
    state.review = null;
    $("review-sentence").textContent = beyondLimits(error) ? limitNotice(error, "review") : explain(error);
    return;
  } finally {
    state.reviewing = false;
    renderReview();
    if (reveal) revealReview();
  }
  $("review-sentence").innerHTML = reviewSentence(state.review.answer);
}

// Goes to the position after `ply` moves of the reviewed line; the rest of
// the line stays ahead of it (Redo).
function goToPly(ply) {
  const r = state.review;
  if (!r) return;
  if (r.width !== state.width || r.height !== state.height) return;
  state.game = null;
  state.paused = false;
  state.moves = r.line.slice(0, ply);
  state.redo = r.line.slice(ply).reverse();
  update();
}

function outcomeWords(outcome, finished) {
  if (outcome === "draw") return finished ? "a draw" : "a draw with perfect play";
  const who = whoSpan(outcome === "first" ? "X" : "O");
  return finished ? `${who} won` : `${who} wins with perfect play`;
}

// The review's story in one sentence.
function reviewSentence(answer) {
  if (answer.moves.length === 0) return "No move to review: play some first.";
  const start = outcomeWords(answer.start, false);
  const end = outcomeWords(answer.end, answer.finished);
  const tp = answer.turning_point;
  if (tp === null || tp === undefined) {
    return `From the first move: ${start}, and no move changed it${answer.finished ? `: ${end}` : ""}.`;
  }
  const m = answer.moves[tp - 1];
  const who = whoSpan(m.player === 1 ? "X" : "O");
  return `From the first move: ${start}. The result last changed on move ${tp}, ` +
    `${who}'s ${m.verdict}: ${end}.`;
}

// Where a score (for Red) is drawn on the chart, from -1 (Yellow wins at
// once) to 1 (Red does): a draw on the middle line, a win at least a fifth
// of the way out so that +1 is never mistaken for a draw, growing with the
// score up to `clamp`.
function chartLevel(score, clamp) {
  if (score === 0) return 0;
  const size = clamp <= 1 ? 1 : (Math.min(Math.abs(score), clamp) - 1) / (clamp - 1);
  return Math.sign(score) * (0.2 + 0.8 * size);
}

function verdictTitle(m) {
  const side = NAMES[m.player === 1 ? "X" : "O"];
  const best = m.best_columns.map(columnChar).join(", ");
  const words = m.verdict === "best" ? "best" :
    `${m.verdict}: ${scoreText(m.played_score)} where column ${best} kept ${scoreText(m.best_score)}`;
  return `Move ${m.number}: ${side} plays ${columnChar(m.column - 1)} (${words})`;
}

function drawChart(answer, ply) {
  const svg = $("review-chart");
  svg.replaceChildren();
  const { width: W, height: H, left, right, top, bottom } = CHART;
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  const moves = answer.moves;
  const n = moves.length;
  const plotW = W - left - right;
  const half = (H - top - bottom) / 2;
  const mid = top + half;
  const cells = state.review.width * state.review.height;
  const clamp = answer.weak ? 1 : Math.max(3, Math.min(10, Math.floor(cells / 4)));
  const x = (i) => left + (n === 0 ? 0 : (i * plotW) / n);
  const y = (score) => mid - chartLevel(score, clamp) * half;
  const forRed = (m, score) => (m.player === 1 ? score : -score);
  // The score for Red before the first move, then after each.
  const points = n === 0 ? [] : [{ ply: 0, score: forRed(moves[0], moves[0].best_score) }]
    .concat(moves.map((m) => ({ ply: m.number, score: forRed(m, m.played_score), move: m })));

  const defs = el("defs", {}, svg);
  const clip = (id, y0, h) => el("rect", { x: left, y: y0, width: plotW, height: h }, el("clipPath", { id }, defs));
  clip("chart-red", top, half);
  clip("chart-yellow", mid, half);
  el("rect", { class: "chart-bg red", x: left, y: top, width: plotW, height: half }, svg);
  el("rect", { class: "chart-bg yellow", x: left, y: mid, width: plotW, height: half }, svg);

  // The scale: a draw in the middle, the smallest and the largest wins.
  const tick = (score, label, cls) => {
    el("line", { class: `chart-grid ${cls}`, x1: left, x2: left + plotW, y1: y(score), y2: y(score) }, svg);
    const t = el("text", { class: `chart-tick ${cls}`, x: left - 8, y: y(score) + 5, "text-anchor": "end" }, svg);
    t.textContent = label;
  };
  tick(0, "draw", "zero");
  if (!answer.weak) {
    tick(1, "+1", "");
    tick(-1, "\u22121", "");
  }
  tick(clamp, answer.weak ? "Red" : `+${clamp}`, "edge");
  tick(-clamp, answer.weak ? "Yellow" : `\u2212${clamp}`, "edge");
  const side = (text, yy, cls) => {
    const t = el("text", { class: `chart-side ${cls}`, x: left + 10, y: yy }, svg);
    t.textContent = text;
  };
  side("Red wins", top + 20, "X");
  side("Yellow wins", top + 2 * half - 10, "O");

  // The move numbers below.
  const every = n <= 24 ? 2 : n <= 60 ? 5 : 10;
  for (let i = every; i <= n; i += every) {
    const t = el("text", { class: "chart-axis", x: x(i), y: H - 10, "text-anchor": "middle" }, svg);
    t.textContent = i;
  }
  if (n === 0) return;

  // The area between the line and a draw, red above and yellow below.
  const path = points.map((p, i) => `${i ? "L" : "M"}${x(p.ply).toFixed(1)},${y(p.score).toFixed(1)}`).join("");
  const area = `${path}L${x(n).toFixed(1)},${mid}L${x(0).toFixed(1)},${mid}Z`;
  el("path", { class: "chart-area red", d: area, "clip-path": "url(#chart-red)" }, svg);
  el("path", { class: "chart-area yellow", d: area, "clip-path": "url(#chart-yellow)" }, svg);
  el("path", { class: "chart-line", d: path }, svg);

  if (ply !== null) {
    el("line", { class: "chart-cursor", x1: x(ply), x2: x(ply), y1: top, y2: top + 2 * half }, svg);
  }
  for (const p of points) {
    const verdict = p.move ? p.move.verdict : "best";
    const marked = verdict !== "best";
    el("circle", {
      class: `chart-point${marked ? ` mark ${verdict}` : ""}${p.ply === ply ? " current" : ""}`,
      cx: x(p.ply), cy: y(p.score), r: marked ? (verdict === "slower" ? 5 : 8) : 3.5,
      "data-ply": p.ply, "data-verdict": verdict,
    }, svg);
  }
  // Where a click goes to a position: a band around each point.
  const step = plotW / n;
  for (const p of points) {
    const x0 = Math.max(left, x(p.ply) - step / 2);
    const x1 = Math.min(left + plotW, x(p.ply) + step / 2);
    const hit = el("rect", {
      class: "chart-hit", x: x0, y: top, width: Math.max(1, x1 - x0), height: 2 * half,
      "data-ply": p.ply, "data-score": p.score,
    }, svg);
    const title = el("title", {}, hit);
    title.textContent = p.move ? `${verdictTitle(p.move)} · ${scoreText(p.score)} for Red` :
      `The empty board: ${scoreText(p.score)} for Red`;
    hit.addEventListener("click", () => goToPly(p.ply));
  }
}

function renderReviewMoves(answer, ply) {
  const box = $("review-moves");
  box.replaceChildren();
  const start = document.createElement("button");
  start.type = "button";
  start.className = `rv-move start${ply === 0 ? " current" : ""}`;
  start.dataset.ply = 0;
  start.textContent = "Start";
  start.addEventListener("click", () => goToPly(0));
  box.appendChild(start);
  for (const m of answer.moves) {
    const b = document.createElement("button");
    b.type = "button";
    b.className = `rv-move ${m.player === 1 ? "X" : "O"} ${m.verdict}${m.number === ply ? " current" : ""}`;
    b.dataset.ply = m.number;
    b.dataset.verdict = m.verdict;
    b.title = verdictTitle(m);
    const number = document.createElement("span");
    number.className = "rv-number";
    number.textContent = `${m.number}.`;
    b.append(number, columnChar(m.column - 1));
    if (VERDICT_MARKS[m.verdict]) {
      const mark = document.createElement("span");
      mark.className = "rv-mark";
      mark.textContent = VERDICT_MARKS[m.verdict];
      b.appendChild(mark);
    }
    b.addEventListener("click", () => goToPly(m.number));
    box.appendChild(b);
  }
}

function renderReviewPlayers(answer) {
  const box = $("review-players");
  box.replaceChildren();
  for (const p of answer.players) {
    const side = p.player === 1 ? "X" : "O";
    const row = document.createElement("p");
    row.className = "rv-player";
    row.dataset.player = p.player;
    const share = p.share_best === null ? "no move" : `${Math.round(p.share_best * 100)}% best`;
    const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;
    const changed = p.result_changed ? ` · changed the result on move ${p.result_changed}` : "";
    row.innerHTML = `${whoSpan(side)}: ${plural(p.moves, "move")}, ${share} · ` +
      `${p.slower} slower · ${plural(p.mistakes, "mistake")} · ${plural(p.blunders, "blunder")}${changed}`;
    box.appendChild(row);
  }
}

function renderReview() {
  const run = $("review-run");
  if (!run) return;
  const playing = state.game !== null && !gameOver(state.moves);
  run.disabled = state.reviewing || playing || gameLine().length === 0;
  run.title = playing ? "Stop playing or finish the game to review it" :
    "Judge every move of the game on the board against perfect play";
  const r = state.review;
  const shown = r !== null && r.width === state.width && r.height === state.height;
  $("review-body").hidden = !shown;
  if (!shown) return;
  const ply = reviewPly();
  drawChart(r.answer, ply);
  renderReviewMoves(r.answer, ply);
  renderReviewPlayers(r.answer);
  $("review").dataset.ply = ply === null ? "" : ply;
}

// ---------- actions ----------

function clickColumn(col) {
  if (state.pvStep > 0) {
    setPvStep(0);
    return;
  }
  if (gameOver(state.moves) || !canPlay(state.moves, col)) return;
  if (state.game && (sideToMove(state.moves.length) !== state.game.human || state.paused)) return;
  state.moves.push(col);
  state.redo = [];
  update();
}

// The move count a game's undo goes back to: before the human's last move.
function undoPoint() {
  const g = state.game;
  for (let i = state.moves.length - 1; i >= g.start; i--) {
    if (sideToMove(i) === g.human) return i;
  }
  return null;
}

function undo() {
  if (state.game) {
    const to = undoPoint();
    if (to === null) return;
    state.moves.length = to;
    state.paused = false;
  } else {
    if (state.moves.length === 0) return;
    state.redo.push(state.moves.pop());
  }
  update();
}

function redo() {
  if (state.game || state.redo.length === 0) return;
  state.moves.push(state.redo.pop());
  update();
}

function setPvStep(step) {
  const pv = state.solved && state.solved.pv ? state.solved.pv.length : 0;
  state.pvStep = Math.max(0, Math.min(pv, step));
  draw();
  renderPv();
}

function playPv() {
  if (!state.solved || state.game) return;
  const pv = [...state.solved.pv].map((ch) => parseInt(ch, 36) - 1);
  state.moves = state.moves.concat(pv.slice(0, state.pvStep));
  state.redo = [];
  update();
}

// The moves of the move string `text` (columns only, blanks around it
// ignored) if they replay on the board, else null: the server's check, for
// when its answer was stopped.
function replay(text, width, height) {
  const moves = [];
  for (const ch of text.trim()) {
    const col = /^[1-9a-z]$/i.test(ch) ? parseInt(ch, 36) - 1 : -1;
    const over = winningCells(moves, width, height) !== null || moves.length === width * height;
    if (col < 0 || col >= width || over || moves.filter((c) => c === col).length >= height) return null;
    moves.push(col);
  }
  return moves;
}

// Sets the position from text (the moves box or the address); the server
// checks it and says what is wrong. False if the position was not taken:
// the board, the menu and the address stay those of the position before.
// A position whose scores are beyond the limits is taken, without them.
async function loadPosition(width, height, text) {
  const generation = ++state.generation;
  stopAll();
  $("position-error").hidden = true;
  let analysis = null;
  let moves;
  let limited = null;
  try {
    analysis = await api("/api/analyze", { moves: text, width, height }, "Reading the position…");
    moves = [...analysis.moves].map((ch) => parseInt(ch, 36) - 1);
  } catch (error) {
    if (generation !== state.generation) return false;
    // A limit reached: the position was read, only its scores are missing.
    if (beyondLimits(error)) limited = error;
    moves = error.name === "AbortError" || limited ? replay(text, width, height) : null;
    if (moves === null) {
      const box = $("position-error");
      box.textContent = error instanceof ApiError && error.status === 400 ? error.message : explain(error);
      box.hidden = false;
      $("board-size").value = boardName();
      return false;
    }
  }
  if (generation !== state.generation) return false;
  state.width = width;
  state.height = height;
  state.moves = moves;
  state.redo = [];
  state.game = null;
  state.paused = false;
  $("board-size").value = boardName();
  if (analysis) {
    update(analysis);
  } else {
    // Stopped, or beyond the limits: the position without its scores.
    state.analysis = null;
    state.solved = null;
    state.pvStep = 0;
    state.limited = limited !== null;
    history.replaceState(null, "", hashOf());
    render();
    if (limited) showNotice(limitNotice(limited, "scores"));
    else showError("Stopped.");
  }
  return true;
}

function startGame(fromHere) {
  if (!fromHere) state.review = null;
  state.game = {
    human: $("play-side").value,
    level: Number($("play-level").value),
    start: fromHere ? state.moves.length : 0,
  };
  state.paused = false;
  if (!fromHere) state.moves = [];
  state.redo = [];
  update();
}

async function copyLink() {
  const url = location.href;
  try {
    await navigator.clipboard.writeText(url);
  } catch {
    const input = $("moves");
    input.value = url;
    input.select();
    document.execCommand("copy");
  }
  const b = $("copy");
  b.textContent = "Copied";
  setTimeout(() => { b.textContent = "Copy link"; render(); }, 1200);
}

// ---------- start ----------

// Whether board `b` of /api/info has its empty board scored at once.
function quickBoard(b) {
  return b.book || b.width * b.height <= QUICK_CELLS;
}

function fillSelects(info) {
  const size = $("board-size");
  size.replaceChildren();
  const groups = [
    ["Scored at once", info.boards.filter(quickBoard)],
    ["Bigger: scored once the board fills", info.boards.filter((b) => !quickBoard(b))],
  ];
  for (const [label, boards] of groups) {
    const group = document.createElement("optgroup");
    group.label = label;
    group.dataset.quick = label === groups[0][0] ? "1" : "0";
    for (const b of boards) {
      const o = document.createElement("option");
      o.value = `${b.width}x${b.height}`;
      o.textContent = `${b.width} × ${b.height}${b.width === 7 && b.height === 6 ? " (standard)" : ""}`;
      group.appendChild(o);
    }
    if (boards.length > 0) size.appendChild(group);
  }
  size.title = "The boards scored at once come first; on the bigger ones the empty board is " +
    "beyond the limits: play on, and the scores come once a position is easier.";
  const level = $("play-level");
  level.replaceChildren();
  for (const l of info.levels) {
    const o = document.createElement("option");
    o.value = l.level;
    o.textContent = `${l.level} · ${l.name}`;
    level.appendChild(o);
  }
  level.value = "2";
  const describeLevel = () => {
    const l = info.levels.find((x) => String(x.level) === level.value);
    $("level-description").textContent = l ? `${l.name[0].toUpperCase()}${l.name.slice(1)}: ${l.description}.` : "";
  };
  level.addEventListener("change", describeLevel);
  describeLevel();
  if (BACKEND === "worker") {
    $("backend-note").textContent = "Solved in this browser by c4 compiled to WebAssembly: every score is exact.";
    $("server-info").textContent = `c4 ${info.version} · one solver, up to ${WORKER_SECONDS} s a request`;
  } else {
    const seconds = info.max_seconds ? ` and ${info.max_seconds} s` : "";
    $("server-info").textContent = `${info.workers} solver${info.workers === 1 ? "" : "s"} · up to ` +
      `${info.max_nodes.toLocaleString("en")} nodes${seconds} a request`;
  }
}

async function start() {
  $("undo").addEventListener("click", undo);
  $("redo").addEventListener("click", redo);
  $("clear").addEventListener("click", () => {
    if (state.moves.length === 0) return;
    state.redo = state.moves.slice().reverse().concat(state.redo);
    state.moves = [];
    if (state.game) state.game.start = 0;
    update();
  });
  $("stop").addEventListener("click", stopAll);
  $("review-run").addEventListener("click", () => runReview());
  $("position-form").addEventListener("submit", (e) => {
    e.preventDefault();
    loadPosition(state.width, state.height, $("moves").value.trim());
  });
  $("copy").addEventListener("click", copyLink);
  $("pv-first").addEventListener("click", () => setPvStep(0));
  $("pv-prev").addEventListener("click", () => setPvStep(state.pvStep - 1));
  $("pv-next").addEventListener("click", () => setPvStep(state.pvStep + 1));
  $("pv-last").addEventListener("click", () => setPvStep(Infinity));
  $("pv-play").addEventListener("click", playPv);
  $("new-game").addEventListener("click", () => startGame(false));
  $("from-here").addEventListener("click", () => startGame(true));
  $("end-game").addEventListener("click", () => {
    state.game = null;
    state.paused = false;
    update();
  });
  $("show-scores").addEventListener("change", () => update());
  $("board-size").addEventListener("change", (e) => {
    const [w, h] = e.target.value.split("x").map(Number);
    state.game = null;
    loadPosition(w, h, "");
  });
  window.addEventListener("hashchange", () => {
    if (location.hash === hashOf()) return;
    const h = readHash();
    loadPosition(h.width, h.height, h.moves);
  });
  document.addEventListener("keydown", (e) => {
    if (e.target instanceof HTMLInputElement || e.target instanceof HTMLSelectElement) return;
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    if (e.key === "ArrowLeft") undo();
    else if (e.key === "ArrowRight") redo();
    else if (/^[1-9a-p]$/i.test(e.key)) {
      const col = parseInt(e.key, 36) - 1;
      if (col < state.width) clickColumn(col);
    }
  });

  try {
    state.info = await api("/api/info", {}, "Connecting…");
    fillSelects(state.info);
  } catch (error) {
    showError(explain(error));
    return;
  }
  const h = readHash();
  if (!(await loadPosition(h.width, h.height, h.moves))) {
    // The address's position was refused: the standard board instead, and
    // the address says so too; the reason stays in sight.
    const why = $("position-error").textContent;
    await loadPosition(7, 6, "");
    const box = $("position-error");
    box.textContent = `The address's position was not opened: ${why}`;
    box.hidden = false;
  } else if (new URLSearchParams(location.search).has("review")) {
    await runReview(undefined, true);
  }
}

start();
