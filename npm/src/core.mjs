// The package's API over the wasm module's RawSolver (wasm/src/npm.rs): the
// Solver class and the module functions, for Node (index.mjs, and index.cjs
// through it) and for the browser's worker (worker.mjs).
//
// A new call is a method of RawSolver in wasm/src/npm.rs, a
// method of Solver below, a module function below, a name in METHODS (the
// calls the worker answers), and its types in index.d.ts and browser.d.ts.

/** The calls a Solver answers, with the worker's async interface. */
const METHODS = ["solve", "analyze", "bestMove", "pv", "review"];

/** The default board: the standard 7 columns by 6 rows. */
const WIDTH = 7;
const HEIGHT = 6;

/** `value` as a move string, or a TypeError naming what it is. */
function movesOf(value) {
  if (typeof value !== "string") {
    const kind = value === null ? "null" : Array.isArray(value) ? "an array" : typeof value;
    throw new TypeError(`a position is a move string such as "4453", not ${kind}`);
  }
  return value;
}

/** `value` as a board dimension (a whole number), or a TypeError. */
function dimension(name, value, fallback) {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 0) {
    throw new TypeError(`${name} is a whole number of ${name === "width" ? "columns" : "rows"}, not ${String(value)}`);
  }
  return value;
}

/** The table option: bytes (a number) or text such as "64M"; "" for the default. */
function tableOf(value) {
  if (value === undefined || value === null) return "";
  if (typeof value === "number") {
    if (!Number.isSafeInteger(value) || value <= 0) {
      throw new TypeError(`table is a positive whole number of bytes or text such as "64M", not ${value}`);
    }
    return String(value);
  }
  if (typeof value === "string") return value;
  throw new TypeError(`table is a number of bytes or text such as "64M", not ${typeof value}`);
}

/** The options object of a call, or a TypeError. */
function optionsOf(options) {
  if (options === undefined) return {};
  if (options === null || typeof options !== "object") {
    throw new TypeError(`options are an object such as { weak: true }, not ${String(options)}`);
  }
  return options;
}

/**
 * The API over `RawSolver`, the class the wasm module exports.
 * @param {Function} RawSolver
 */
function makeApi(RawSolver) {
  /** A solver of one board size with its table and, on 7x6, the built-in book. */
  class Solver {
    #raw;

    /**
     * @param {{ width?: number, height?: number, table?: number | string, book?: boolean }} [options]
     */
    constructor(options) {
      const { width, height, table, book = true } = optionsOf(options);
      this.#raw = new RawSolver(
        dimension("width", width, WIDTH),
        dimension("height", height, HEIGHT),
        tableOf(table),
        Boolean(book),
      );
    }

    /** The wasm solver, or an Error once freed. */
    get #live() {
      if (this.#raw === null) throw new Error("this Solver was freed");
      return this.#raw;
    }

    get width() { return this.#live.width; }
    get height() { return this.#live.height; }
    get tableBytes() { return this.#live.tableBytes; }
    get hasBook() { return this.#live.hasBook; }
    get nodeCount() { return this.#live.nodeCount; }
    resetNodeCount() { this.#live.resetNodeCount(); }
    clear() { this.#live.clear(); }

    /** The exact score of `moves` for the side to move; `{ weak: true }`: its sign. */
    solve(moves, options) {
      const { weak = false } = optionsOf(options);
      return this.#live.solve(movesOf(moves), Boolean(weak));
    }

    /** Each column's score, column 1 first; null for a full column. */
    analyze(moves) {
      return this.#live.analyze(movesOf(moves));
    }

    /** A best move (1-based column), the centre-most among equals; null once the game is over. */
    bestMove(moves) {
      return this.#live.bestMove(movesOf(moves)) ?? null;
    }

    /** A perfect-play line to the end of the game, 1-based columns. */
    pv(moves) {
      return Array.from(this.#live.pv(movesOf(moves)));
    }

    /**
     * The review of `game` (the columns played from the empty board): every
     * move judged against perfect play, and each player's summary;
     * `{ weak: true }`: scores as signs only (faster).
     */
    review(game, options) {
      const { weak = false } = optionsOf(options);
      return JSON.parse(this.#live.review(movesOf(game), Boolean(weak)));
    }

    /** Frees the table now rather than when the object is collected. */
    free() {
      if (this.#raw !== null) {
        this.#raw.free();
        this.#raw = null;
      }
    }
  }
  if (typeof Symbol.dispose === "symbol") {
    Solver.prototype[Symbol.dispose] = Solver.prototype.free;
  }

  // The module functions: one solver per board, made when first needed.
  const solvers = new Map();
  function solverFor(options) {
    const { width, height } = optionsOf(options);
    const w = dimension("width", width, WIDTH);
    const h = dimension("height", height, HEIGHT);
    const key = `${w}x${h}`;
    let solver = solvers.get(key);
    if (solver === undefined) {
      solver = new Solver({ width: w, height: h });
      solvers.set(key, solver);
    }
    return solver;
  }

  return {
    Solver,
    solve: (moves, options) => solverFor(options).solve(moves, options),
    analyze: (moves, options) => solverFor(options).analyze(moves),
    bestMove: (moves, options) => solverFor(options).bestMove(moves),
    pv: (moves, options) => solverFor(options).pv(moves),
    review: (game, options) => solverFor(options).review(game, options),
  };
}

export { makeApi, METHODS };
