// Types of c4-solver/browser: the calls of c4-solver answered by a Web
// Worker, as Promises, so that a page never freezes.
import type {
  BoardOptions,
  MoveReview,
  Moves,
  Outcome,
  PlayerSummary,
  Review,
  ReviewOptions,
  Score,
  SolveOptions,
  SolverOptions,
  Verdict,
} from "./index.js";

export type {
  BoardOptions,
  MoveReview,
  Moves,
  Outcome,
  PlayerSummary,
  Review,
  ReviewOptions,
  Score,
  SolveOptions,
  SolverOptions,
  Verdict,
};

/** A solver in a worker of its own; errors reject with an Error (TypeError for a wrong type). */
export declare class AsyncSolver {
  constructor(options?: SolverOptions);
  /** Resolves once the worker is ready; rejects if the board or table cannot be had. */
  readonly ready: Promise<{ width: number; height: number; tableBytes: number; hasBook: boolean }>;
  solve(moves: Moves, options?: SolveOptions): Promise<Score>;
  analyze(moves: Moves): Promise<(Score | null)[]>;
  bestMove(moves: Moves): Promise<number | null>;
  pv(moves: Moves): Promise<number[]>;
  review(game: Moves, options?: ReviewOptions): Promise<Review>;
  /** Ends the worker at once, a search with it; pending and later calls reject. */
  terminate(): void;
}

export declare function solve(moves: Moves, options?: BoardOptions & SolveOptions): Promise<Score>;
export declare function analyze(moves: Moves, options?: BoardOptions): Promise<(Score | null)[]>;
export declare function bestMove(moves: Moves, options?: BoardOptions): Promise<number | null>;
export declare function pv(moves: Moves, options?: BoardOptions): Promise<number[]>;
export declare function review(game: Moves, options?: BoardOptions & ReviewOptions): Promise<Review>;
