// c4-solver for Node, as CommonJS: the ES module index.mjs itself (require
// of an ES module, Node 20.19 and later), so that `require` and `import`
// share one wasm instance and one set of solvers.
module.exports = require("./index.mjs");
