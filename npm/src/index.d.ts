// Types of c4-solver: Connect Four perfect-play scores, from c4's Rust solver
// compiled to WebAssembly (the built-in 7x6 opening book inside).

/** The board, for the module functions: 7x6 unless given. */
export interface BoardOptions {
  /** Columns: 4 or more, with width x (height + 1) at most 128. Default 7. */
  width?: number;
  /** Rows: 4 or more. Default 6. */
  height?: number;
}

/** The options of `solve`. */
export interface SolveOptions {
  /** Only the sign of the score: 1 win, 0 draw, -1 loss (faster). */
  weak?: boolean;
}

/** The options of a `Solver`. */
export interface SolverOptions extends BoardOptions {
  /**
   * The transposition table: bytes, or text such as "64M" (rounded down to a
   * power of two). Default: 32 MiB, or the least the board needs when more.
   */
  table?: number | string;
  /** Answer from the built-in book where the board has one (7x6). Default true. */
  book?: boolean;
}

/**
 * A move string: the columns played, 1-based from the left ("4453"); columns
 * 10 and up are a, b, c... A trailing score ("4453 -2") is ignored, as the
 * command line ignores it. A bad one throws an Error with the message the
 * command line prints (`character 3 ('8') is not a column (1-7)`).
 */
export type Moves = string;

/**
 * A score for the side to move: positive wins, negative loses, 0 draws; the
 * sooner the win, the larger (the standard test sets' convention).
 */
export type Score = number;

/** The options of `review`. */
export interface ReviewOptions {
  /** Scores as signs only: 1 win, 0 draw, -1 loss (faster; no "slower" verdict). */
  weak?: boolean;
}

/**
 * How a move compares with the best one, for the side that played it:
 * "best" (the best score), "slower" (the same result, a win later or a loss
 * sooner), "mistake" (a win becomes a draw, or a draw a loss), "blunder" (a
 * win becomes a loss).
 */
export type Verdict = "best" | "slower" | "mistake" | "blunder";

/** Who wins with perfect play: the first player (X), nobody, or the second (O). */
export type Outcome = "first" | "draw" | "second";

/** One move of a game, judged. */
export interface MoveReview {
  /** The move's number, 1-based (the stones on the board after it). */
  number: number;
  /** Who played it: 1 for the first player (X), 2 for the second (O). */
  player: 1 | 2;
  /** The column played, 1-based. */
  column: number;
  /** The best score of the position before the move, for the side that moved. */
  best_score: Score;
  /** The score of the move played, for the same side (the position after it, negated). */
  played_score: Score;
  /** Every column with the best score, 1-based, left to right. */
  best_columns: number[];
  verdict: Verdict;
}

/** The moves of one player, added up. */
export interface PlayerSummary {
  /** 1 for the first player (X), 2 for the second (O). */
  player: 1 | 2;
  /** Moves played. */
  moves: number;
  /** Moves judged "best". */
  best: number;
  /** Moves judged "slower". */
  slower: number;
  /** Moves judged "mistake". */
  mistakes: number;
  /** Moves judged "blunder". */
  blunders: number;
  /** best / moves; null if the player has not moved. */
  share_best: number | null;
  /** The number of this player's first mistake or blunder; null if none. */
  result_changed: number | null;
}

/** A whole game, judged move by move. */
export interface Review {
  /** The board, "WxH". */
  board_size: string;
  /** The game, as its columns played (trimmed). */
  game: Moves;
  /** Whether the scores are signs only. */
  weak: boolean;
  /** Every move, in order. */
  moves: MoveReview[];
  /** The first player's summary, then the second's. */
  players: [PlayerSummary, PlayerSummary];
  /** Who wins the empty board with perfect play. */
  start: Outcome;
  /** Who wins the last position with perfect play (for a finished game, who won). */
  end: Outcome;
  /** Whether the game is over: four connected, or the board full. */
  finished: boolean;
  /** The last move that changed the result (a mistake or blunder); null if none did. */
  turning_point: number | null;
}

/** A solver of one board size, with its own table (and, on 7x6, the built-in book). */
export declare class Solver {
  /** @throws Error for an unsupported board or table size. */
  constructor(options?: SolverOptions);
  readonly width: number;
  readonly height: number;
  /** Bytes of the table. */
  readonly tableBytes: number;
  /** Whether it answers from the built-in book. */
  readonly hasBook: boolean;
  /** Nodes searched since it was made or resetNodeCount(). */
  readonly nodeCount: number;
  resetNodeCount(): void;
  /** Forgets what the table learnt. */
  clear(): void;
  /** The exact score of the position (its sign with `{ weak: true }`). */
  solve(moves: Moves, options?: SolveOptions): Score;
  /** Each column's score, column 1 first; null for a full column. */
  analyze(moves: Moves): (Score | null)[];
  /** A best move (1-based column), the centre-most among equals; null once the game is over. */
  bestMove(moves: Moves): number | null;
  /** A perfect-play line to the end of the game, as 1-based columns. */
  pv(moves: Moves): number[];
  /**
   * The review of a game (the columns played from the empty board): every
   * move judged against perfect play. An illegal game throws an Error naming
   * the move (`move 3: '8' is not a column (1-7)`).
   */
  review(game: Moves, options?: ReviewOptions): Review;
  /** Frees the table now instead of when the object is collected. */
  free(): void;
}

/** The exact score of the position (one solver per board, made when first needed). */
export declare function solve(moves: Moves, options?: BoardOptions & SolveOptions): Score;
/** Each column's score, column 1 first; null for a full column. */
export declare function analyze(moves: Moves, options?: BoardOptions): (Score | null)[];
/** A best move (1-based column); null once the game is over. */
export declare function bestMove(moves: Moves, options?: BoardOptions): number | null;
/** A perfect-play line to the end of the game, as 1-based columns. */
export declare function pv(moves: Moves, options?: BoardOptions): number[];
/** The review of a game: every move judged against perfect play. */
export declare function review(game: Moves, options?: BoardOptions & ReviewOptions): Review;
