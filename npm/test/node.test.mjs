// c4-solver as a Node user imports it, as an ES module. Run from a folder
// where the package is installed (`npm install c4-solver-VERSION.tgz`):
//   node --test node.test.mjs
// Witnesses: the standard set Begin-Hard (Test_L1_R3, line 371: `4453 -2`),
// the rules (rules.mjs, sharing no code with c4) for the lines of pv, and
// the command line's messages for the errors.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Solver, analyze, bestMove, pv, solve } from "c4-solver";
import { replay, scoreOf } from "./rules.mjs";

test("solve gives the standard set's score", () => {
  assert.equal(solve("4453"), -2);
  assert.equal(solve("4453 -2"), -2, "a test-set line is read as its moves");
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
