// The worker of the browser interface (browser.mjs): one Solver of the
// package, answering the page's calls on this thread so that the page never
// freezes. A search cannot be interrupted: AsyncSolver.terminate() ends this
// worker.
//
// Messages: { id, method: "init", options } first, then { id, method, args }
// for a method of METHODS. Answers: { id, result } or
// { id, error: { name, message } }.
import init, { RawSolver } from "./wasm/c4_wasm.js";
import { makeApi, METHODS } from "./core.mjs";

const ready = init({ module_or_path: new URL("./wasm/c4_wasm_bg.wasm", import.meta.url) }).then(() =>
  makeApi(RawSolver),
);
let solver = null;

self.onmessage = async ({ data }) => {
  const { id, method, args = [], options } = data;
  try {
    const api = await ready;
    if (method === "init") {
      solver = new api.Solver(options);
      const { width, height, tableBytes, hasBook } = solver;
      self.postMessage({ id, result: { width, height, tableBytes, hasBook } });
      return;
    }
    if (!METHODS.includes(method)) throw new Error(`no such call: ${method}`);
    if (solver === null) throw new Error("the solver was not made");
    self.postMessage({ id, result: solver[method](...args) });
  } catch (error) {
    const name = error instanceof TypeError ? "TypeError" : "Error";
    self.postMessage({ id, error: { name, message: String(error?.message ?? error) } });
  }
};
