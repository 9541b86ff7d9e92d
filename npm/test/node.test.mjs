// c4-solver as a Node user imports it, as an ES module. Run from a folder
// where the package is installed (`npm install c4-solver-VERSION.tgz`):
//   node --test node.test.mjs
// Witnesses: the standard set Begin-Hard (Test_L1_R3, line 371: `4453 -2`),
// the rules (rules.mjs, sharing no code with c4) for the lines of pv, and
// the command line's messages for the errors; for review, every verdict
// recomputed here from solve of the positions before and after each move.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Solver, analyze, bestMove, pv, review, solve } from "c4-solver";
import { replay, scoreOf } from "./rules.mjs";

test("solve gives the standard set's score", () => {
  assert.equal(solve("4453"), -2);
  assert.equal(solve("4453", { weak: true }), -1);
});

test("analyze, bestMove and pv agree with solve and with the rules", () => {
  const scores = analyze("4453");
  assert.equal(scores.length, 7);
  assert.equal(Math.max(...scores), solve("4453"));
  const best = bestMove("4453");
  assert.equal(scores[best - 1], -2);
  const line = pv("4453");
  assert.equal(line[0], best);
  // Played out, the line ends the game on the move the score says.
  const end = replay(7, 6, "4453", line);
  assert.ok(end.over);
  assert.equal(scoreOf(42, 4, end), -2);
  // A finished game: no move, an empty line, every column null.
  const full = "4453" + line.join("");
  assert.equal(bestMove(full), null);
  assert.deepEqual(pv(full), []);
  assert.deepEqual(analyze(full), Array(7).fill(null));
});

test("every board size: 4x4 is a draw, a 10-column board reads letters", () => {
  assert.equal(solve("", { width: 4, height: 4 }), 0);
  const solver = new Solver({ width: 10, height: 4, table: "4M", book: false });
  assert.equal(solver.width, 10);
  assert.equal(solver.height, 4);
  assert.equal(solver.tableBytes, 4 << 20);
  assert.equal(solver.hasBook, false);
  const moves = "9aa9a9a9545412";
  const score = solver.solve(moves);
  const line = solver.pv(moves);
  assert.equal(scoreOf(40, moves.length, replay(10, 4, moves, line)), score);
  assert.ok(solver.nodeCount > 0);
  solver.resetNodeCount();
  assert.equal(solver.nodeCount, 0);
  solver.free();
  assert.throws(() => solver.solve(""), { message: "this Solver was freed" });
});

test("the built-in book answers on 7x6", () => {
  const solver = new Solver();
  assert.equal(solver.hasBook, true);
  assert.equal(solver.solve(""), 1, "the empty board: the first player wins with its 21st stone");
  assert.ok(solver.nodeCount < 1000, `${solver.nodeCount} nodes: the book did not answer`);
});

test("errors are Errors with the command line's messages", () => {
  const cases = [
    ["4458", "character 4 ('8') is not a column (1-7)"],
    ["4444444", "character 7: column 4 is already full"],
    ["12121212", "character 8: the game was already won by the previous move"],
    // A move string holds columns only: no score, no blank inside.
    ["44 53", "character 3 (a space) is not a column (1-7)"],
    ["44\t53", "character 3 (a tab) is not a column (1-7)"],
    ["4453 -2", "character 5 (a space) is not a column (1-7)"],
    ["\ufeff4453", "character 1 (U+FEFF, a byte-order mark) is not a column (1-7)"],
  ];
  for (const [moves, message] of cases) {
    assert.throws(() => solve(moves), (e) => e instanceof Error && e.message === message, moves);
    assert.throws(() => analyze(moves), { message }, moves);
  }
  assert.throws(() => new Solver({ width: 3 }), {
    message: "a 3x6 board is too small: width and height must be at least 4",
  });
  assert.throws(() => new Solver({ table: "1K" }), {
    message: "a transposition table of 1024 bytes is too small for this board: it needs at least 2048 bytes",
  });
  assert.throws(() => new Solver({ table: "lots" }), {
    message: "table: 'lots' is not a size (examples: 64M, 1G, 512K)",
  });
  assert.throws(() => solve(4453), TypeError);
  assert.throws(() => solve("4453", "weak"), TypeError);
  assert.throws(() => new Solver({ width: 7.5 }), TypeError);
  // The solver goes on after an error.
  assert.equal(solve("4453"), -2);
});

/** Each column's score for the side to move after `prefix` on 7x6 (null if it
 * cannot be played), from the rules and solve alone: the win score if the
 * column wins at once, else -solve of the position after it. */
function columnScores(prefix) {
  const scores = [];
  for (let col = 1; col <= 7; col += 1) {
    let after;
    try {
      after = replay(7, 6, prefix, [col]);
    } catch {
      scores.push(null);
      continue;
    }
    scores.push(after.winner !== null ? scoreOf(42, prefix.length, after) : -solve(prefix + col));
  }
  return scores;
}

/** The verdict by its definition: best if equal, slower if the same sign and
 * lower, mistake if a win becomes a draw or a draw a loss, blunder if a win
 * becomes a loss. */
function verdictOf(best, played) {
  if (played === best) return "best";
  if (Math.sign(played) === Math.sign(best)) return "slower";
  if (best > 0 && played < 0) return "blunder";
  if ((best > 0 && played === 0) || (best === 0 && played < 0)) return "mistake";
  throw new Error(`played ${played} above best ${best}`);
}

test("review judges every move as solve and the rules do", () => {
  const game = "4455443";
  const r = review(game);
  assert.equal(r.board_size, "7x6");
  assert.equal(r.game, game);
  assert.equal(r.weak, false);
  assert.equal(r.moves.length, 7);
  const third = r.moves[2];
  assert.deepEqual(
    [third.number, third.player, third.column, third.verdict, third.best_columns],
    [3, 1, 5, "blunder", [4]],
  );
  for (const [i, move] of r.moves.entries()) {
    const prefix = game.slice(0, i);
    const scores = columnScores(prefix);
    const best = Math.max(...scores.filter((s) => s !== null));
    const played = scores[Number(game[i]) - 1];
    assert.deepEqual(move, {
      number: i + 1,
      player: i % 2 === 0 ? 1 : 2,
      column: Number(game[i]),
      best_score: best,
      played_score: played,
      best_columns: scores.flatMap((s, c) => (s === best ? [c + 1] : [])),
      verdict: verdictOf(best, played),
    }, `move ${i + 1}`);
  }
  // The summaries add up the verdicts.
  for (const summary of r.players) {
    const mine = r.moves.filter((m) => m.player === summary.player);
    const count = (v) => mine.filter((m) => m.verdict === v).length;
    assert.equal(summary.moves, mine.length);
    assert.deepEqual(
      [summary.best, summary.slower, summary.mistakes, summary.blunders],
      [count("best"), count("slower"), count("mistake"), count("blunder")],
    );
    assert.equal(summary.share_best, count("best") / mine.length);
  }
  assert.equal(r.players[0].result_changed, 3);
  assert.equal(r.start, "first", "the first player wins the empty board");
  assert.equal(r.finished, false);
  // A weak review: the same scores' signs.
  const weak = new Solver().review(game, { weak: true });
  assert.equal(weak.weak, true);
  for (const [i, move] of weak.moves.entries()) {
    assert.equal(move.best_score, Math.sign(r.moves[i].best_score), `move ${i + 1}`);
    assert.equal(move.played_score, Math.sign(r.moves[i].played_score), `move ${i + 1}`);
  }
});

test("review: an illegal game throws an Error naming the move", () => {
  const cases = [
    ["12x", "move 3: 'x' is not a column (1-7)"],
    ["4444444", "move 7: column 4 is already full"],
    ["12121213", "move 8 (column 3): the game was already won on move 7"],
  ];
  for (const [game, message] of cases) {
    assert.throws(() => review(game), (e) => e instanceof Error && e.message === message, game);
  }
  assert.throws(() => review(4455443), TypeError);
  assert.equal(review("4455443").moves.length, 7, "the solver goes on after an error");
});
