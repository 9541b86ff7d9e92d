// The browser interface: every call answered by a Web Worker (worker.mjs),
// as a Promise, so that a page never freezes while c4 searches.
//
//   import { AsyncSolver, solve } from "c4-solver/browser";
//   await solve("4453");                        // -2
//   const solver = new AsyncSolver({ width: 8, height: 7 });
//   await solver.analyze("44");
//   solver.terminate();                          // stops a search at once
//
// Bundlers (webpack 5, Vite, esbuild, Parcel) see the worker through
// `new URL("./worker.mjs", import.meta.url)` and bundle it with the .wasm.

/** A solver in a worker of its own: the methods of Solver, answered as Promises. */
export class AsyncSolver {
  #worker;
  #pending = new Map();
  #next = 0;
  #ready;
  #ended = null;

  /**
   * @param {{ width?: number, height?: number, table?: number | string, book?: boolean }} [options]
   */
  constructor(options) {
    this.#worker = new Worker(new URL("./worker.mjs", import.meta.url), { type: "module" });
    this.#worker.onmessage = ({ data }) => {
      const call = this.#pending.get(data.id);
      if (call === undefined) return;
      this.#pending.delete(data.id);
      if (data.error) {
        const Kind = data.error.name === "TypeError" ? TypeError : Error;
        call.reject(new Kind(data.error.message));
      } else {
        call.resolve(data.result);
      }
    };
    this.#worker.onerror = (event) => {
      event.preventDefault?.();
      this.#end(new Error(`the solver's worker failed: ${event.message ?? "it could not start"}`));
    };
    this.#ready = this.#send({ method: "init", options });
    // A failed start rejects every call; this copy only keeps the rejection handled.
    this.#ready.catch(() => {});
  }

  /** The board and table: { width, height, tableBytes, hasBook }, once the worker is ready. */
  get ready() {
    return this.#ready;
  }

  #send(message) {
    if (this.#ended !== null) return Promise.reject(this.#ended);
    const id = this.#next++;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      this.#worker.postMessage({ id, ...message });
    });
  }

  async #call(method, args) {
    await this.#ready;
    return this.#send({ method, args });
  }

  #end(error) {
    if (this.#ended === null) this.#ended = error;
    this.#worker.terminate();
    for (const call of this.#pending.values()) call.reject(error);
    this.#pending.clear();
  }

  /** The exact score of `moves` for the side to move; `{ weak: true }`: its sign. */
  solve(moves, options) { return this.#call("solve", [moves, options]); }
  /** Each column's score, column 1 first; null for a full column. */
  analyze(moves) { return this.#call("analyze", [moves]); }
  /** A best move (1-based column); null once the game is over. */
  bestMove(moves) { return this.#call("bestMove", [moves]); }
  /** A perfect-play line to the end of the game, 1-based columns. */
  pv(moves) { return this.#call("pv", [moves]); }
  /** The review of a game: every move judged; `{ weak: true }`: signs only. */
  review(game, options) { return this.#call("review", [game, options]); }

  /** Ends the worker at once, a search with it: every pending call rejects. */
  terminate() {
    this.#end(new Error("the solver was terminated"));
  }
}

// The module functions: one AsyncSolver per board, made when first needed.
const solvers = new Map();
function solverFor(options) {
  const width = options?.width ?? 7;
  const height = options?.height ?? 6;
  const key = `${width}x${height}`;
  let solver = solvers.get(key);
  if (solver === undefined) {
    solver = new AsyncSolver({ width, height });
    solvers.set(key, solver);
    // A board that cannot be made: its error answers this call, and the
    // next call tries again.
    const made = solver;
    made.ready.catch(() => {
      made.terminate();
      if (solvers.get(key) === made) solvers.delete(key);
    });
  }
  return solver;
}

/** The exact score of `moves` (`{ weak: true }`: its sign), from a worker. */
export const solve = (moves, options) => solverFor(options).solve(moves, options);
/** Each column's score, from a worker. */
export const analyze = (moves, options) => solverFor(options).analyze(moves);
/** A best move (1-based column), from a worker. */
export const bestMove = (moves, options) => solverFor(options).bestMove(moves);
/** A perfect-play line, from a worker. */
export const pv = (moves, options) => solverFor(options).pv(moves);
/** The review of a game (`{ weak: true }`: signs only), from a worker. */
export const review = (game, options) => solverFor(options).review(game, options);
