// c4-solver as a Node user requires it, as CommonJS (see node.test.mjs).
const { test } = require("node:test");
const assert = require("node:assert/strict");
const c4 = require("c4-solver");

test("require: solve, the other calls and the errors", () => {
  assert.equal(c4.solve("4453"), -2);
  assert.equal(c4.bestMove("4453"), c4.pv("4453")[0]);
  assert.equal(Math.max(...c4.analyze("4453")), -2);
  assert.equal(new c4.Solver({ width: 4, height: 4 }).solve(""), 0);
  assert.equal(c4.review("4455443").moves[2].verdict, "blunder");
  assert.throws(() => c4.solve("4458"), (e) => e instanceof Error && e.message === "character 4 ('8') is not a column (1-7)");
});

test("require and import give the same module", async () => {
  const esm = await import("c4-solver");
  assert.equal(esm.Solver, c4.Solver);
});
