// The order a fresh clone runs the suites in (jest without its timing cache sorts by file size, largest first):
// fixed here so a local run, with its cache, meets the same order as CI. The suites of one lab run one at a time.
//
// `--shard=i/n` splits the lab-backed suites between n labs (scripts/test.sh runs two at once): largest first, each
// to the shard with the least so far, so a shard's share of the bytes (a fair proxy for its minutes) stays even,
// without a timing table that would rot.
const fs = require("fs");
const Sequencer = require("@jest/test-sequencer").default;

const size = (test) => fs.statSync(test.path).size;
const bySize = (tests) => [...tests].sort((a, b) => size(b) - size(a) || a.path.localeCompare(b.path));

class FreshCloneOrder extends Sequencer {
  sort(tests) {
    return bySize(tests);
  }

  shard(tests, { shardIndex, shardCount }) {
    const loads = Array.from({ length: shardCount }, () => ({ bytes: 0, tests: [] }));
    for (const test of bySize(tests)) {
      const lightest = loads.reduce((least, load) => (load.bytes < least.bytes ? load : least));
      lightest.bytes += size(test);
      lightest.tests.push(test);
    }
    return loads[shardIndex - 1].tests;
  }
}
module.exports = FreshCloneOrder;
