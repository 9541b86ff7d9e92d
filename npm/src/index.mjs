// c4-solver for Node, as an ES module: the wasm module compiled and
// instantiated synchronously at import, then the API of core.mjs over it.
// index.cjs gives CommonJS users this same module (require of an ES module,
// Node 20.19 and later).
import { readFileSync } from "node:fs";
import { RawSolver, initSync } from "./wasm/c4_wasm.js";
import { makeApi } from "./core.mjs";

initSync({ module: readFileSync(new URL("./wasm/c4_wasm_bg.wasm", import.meta.url)) });

export const { Solver, solve, analyze, bestMove, pv, review } = makeApi(RawSolver);
