// The solver of the static site: c4 compiled to WebAssembly (wasm/, built by
// scripts/build-site.sh), answering the page's API requests on this worker's
// thread so that the page never freezes. A search cannot be interrupted:
// the page stops one by ending this worker and starting another.
//
// Messages from the page:
//   { init: WebAssembly.Module }            once, first: the compiled solver
//   { id, path, params }                    an API request (params: strings)
//   { id, bench: { width, height, lines } } solve test-set lines, timed
// Answers: { id, status, body } (the server's status and JSON object), or
// { id, bench: {...}, millis } for a bench.
"use strict";

importScripts("c4_wasm.js");

let ready = null;

self.onmessage = async (event) => {
  const message = event.data;
  if (message.init) {
    ready = wasm_bindgen({ module_or_path: message.init });
    return;
  }
  try {
    await ready;
    if (message.bench) {
      const { width, height, lines } = message.bench;
      const start = performance.now();
      const result = JSON.parse(wasm_bindgen.bench(width, height, lines));
      self.postMessage({ id: message.id, bench: result, millis: performance.now() - start });
      return;
    }
    const params = { ...message.params };
    // The levels' random choices: a fresh seed from the browser, as the
    // server draws one when the page gives none.
    if (message.path === "/api/move" && params.seed === undefined) {
      const words = crypto.getRandomValues(new Uint32Array(2));
      params.seed = String(BigInt(words[0]) * 4294967296n + BigInt(words[1]));
    }
    const answer = JSON.parse(wasm_bindgen.api(message.path, JSON.stringify(params)));
    self.postMessage({ id: message.id, status: answer.status, body: answer.body });
  } catch (error) {
    self.postMessage({ id: message.id, status: 500, body: { error: `internal error: ${error}` } });
  }
};
