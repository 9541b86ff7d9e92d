// c4-solver/browser in headless Chromium: a page served from a folder where
// the package is installed imports it as a browser does (an ES module, its
// worker and .wasm fetched over HTTP), runs the calls and posts what it saw
// back to this test's server. Chromium: $CHROMIUM, or chromium /
// chromium-browser on the PATH; without one the test is skipped, unless CI
// is set.
//   node --test browser.test.mjs
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { createServer } from "node:http";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { extname, join, resolve, sep } from "node:path";

const PAGE = `<!doctype html><meta charset="utf-8"><title>c4-solver</title>
<script type="module">
import { AsyncSolver, solve, analyze, bestMove, pv, review } from "./node_modules/c4-solver/browser.mjs";
const report = {};
const step = async (name, job) => {
  try { report[name] = { ok: await job() }; } catch (e) { report[name] = { error: e.constructor.name, message: e.message }; }
};
await step("solve", () => solve("4453"));
await step("weak", () => solve("4453", { weak: true }));
await step("analyze", () => analyze("4453"));
await step("bestMove", () => bestMove("4453"));
await step("pv", () => pv("4453"));
await step("review", () => review("4455443"));
await step("badReview", () => review("12x"));
await step("badColumn", () => solve("4458"));
await step("typeError", () => solve(4453));
await step("badBoard", () => new AsyncSolver({ width: 3 }).ready);
await step("wide", async () => {
  const s = new AsyncSolver({ width: 10, height: 4, table: "4M" });
  const info = await s.ready;
  const score = await s.solve("9aa9a9a9545412");
  s.terminate();
  return { info, score };
});
// A long search (the empty board, no book) while the page keeps running:
// ticks of a 10 ms timer counted, then the worker ended mid-search.
await step("responsive", async () => {
  const s = new AsyncSolver({ book: false });
  await s.ready;
  let ticks = 0;
  const timer = setInterval(() => { ticks += 1; }, 10);
  const start = performance.now();
  const search = s.solve("").then((score) => ({ finished: score }), (e) => ({ rejected: e.message }));
  await new Promise((r) => setTimeout(r, 1500));
  s.terminate();
  const outcome = await search;
  clearInterval(timer);
  const after = await s.solve("4453").then(() => "answered", (e) => e.message);
  return { ticks, millis: performance.now() - start, outcome, after };
});
await fetch("/result", { method: "POST", body: JSON.stringify(report) });
</script>`;

function chromium() {
  for (const name of [process.env.CHROMIUM, "chromium", "chromium-browser"]) {
    if (name && spawnSync(name, ["--version"]).status === 0) return name;
  }
  return null;
}

const TYPES = { ".mjs": "text/javascript", ".js": "text/javascript", ".wasm": "application/wasm", ".html": "text/html" };

test("the browser interface in headless Chromium", { timeout: 120_000 }, async (t) => {
  const browser = chromium();
  if (browser === null) {
    if (process.env.CI) assert.fail("no chromium, and CI is set");
    t.skip("no chromium on the PATH (set CHROMIUM)");
    return;
  }
  const root = resolve(".");
  let deliver;
  const result = new Promise((r) => { deliver = r; });
  const server = createServer((req, res) => {
    if (req.method === "POST" && req.url === "/result") {
      let body = "";
      req.on("data", (chunk) => { body += chunk; });
      req.on("end", () => { res.end("ok"); deliver(JSON.parse(body)); });
      return;
    }
    const path = decodeURIComponent(new URL(req.url, "http://x").pathname);
    if (path === "/") {
      res.writeHead(200, { "content-type": "text/html" });
      res.end(PAGE);
      return;
    }
    const file = resolve(join(root, path));
    if (!file.startsWith(root + sep) || !statSync(file, { throwIfNoEntry: false })?.isFile()) {
      res.writeHead(404);
      res.end();
      return;
    }
    res.writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream" });
    res.end(readFileSync(file));
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${server.address().port}/`;
  const profile = mkdtempSync(join(tmpdir(), "c4-chromium-"));
  const child = spawn(browser, [
    "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
    "--no-first-run", "--no-default-browser-check", `--user-data-dir=${profile}`, url,
  ], { stdio: "ignore", detached: true });
  const exited = new Promise((r) => child.on("exit", r));
  let timer;
  try {
    const timeout = new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error("no result from the page in 90 s")), 90_000);
    });
    const report = await Promise.race([result, timeout]);
    t.diagnostic(JSON.stringify(report.responsive));
    assert.deepEqual(report.solve, { ok: -2 });
    assert.deepEqual(report.weak, { ok: -1 });
    assert.equal(report.analyze.ok.length, 7);
    assert.equal(Math.max(...report.analyze.ok), -2);
    assert.equal(report.bestMove.ok, report.pv.ok[0]);
    assert.equal(report.review.ok.moves.length, 7);
    assert.deepEqual(report.review.ok.moves[2].best_columns, [4]);
    assert.equal(report.review.ok.moves[2].verdict, "blunder");
    assert.deepEqual(report.badReview, { error: "Error", message: "move 3: 'x' is not a column (1-7)" });
    assert.deepEqual(report.badColumn, { error: "Error", message: "character 4 ('8') is not a column (1-7)" });
    assert.equal(report.typeError.error, "TypeError");
    assert.deepEqual(report.badBoard, { error: "Error", message: "a 3x6 board is too small: width and height must be at least 4" });
    assert.deepEqual(report.wide.ok.info, { width: 10, height: 4, tableBytes: 4 << 20, hasBook: false });
    assert.equal(typeof report.wide.ok.score, "number");
    const { ticks, millis, outcome, after } = report.responsive.ok;
    // The empty board without a book takes far more than 1.5 s: the search
    // was ended, and the page's timer ran all along (at least half its ticks).
    assert.deepEqual(outcome, { rejected: "the solver was terminated" });
    assert.equal(after, "the solver was terminated");
    assert.ok(millis >= 1400 && millis < 10_000, `${millis} ms`);
    assert.ok(ticks >= millis / 10 / 2, `${ticks} ticks in ${millis} ms: the page froze`);
  } finally {
    clearTimeout(timer);
    // Chromium and the processes it started: their group.
    try { process.kill(-child.pid, "SIGKILL"); } catch { child.kill("SIGKILL"); }
    await exited;
    server.close();
    rmSync(profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
  }
});
