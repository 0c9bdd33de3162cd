// The order a fresh clone runs the suites in (jest without its timing cache sorts by file size, largest first):
// fixed here so a local run, with its cache, meets the same order as CI. The e2e suites share one lab, so order matters.
const fs = require("fs");
const Sequencer = require("@jest/test-sequencer").default;

class FreshCloneOrder extends Sequencer {
  sort(tests) {
    const size = (test) => fs.statSync(test.path).size;
    return [...tests].sort((a, b) => size(b) - size(a) || a.path.localeCompare(b.path));
  }
}
module.exports = FreshCloneOrder;
