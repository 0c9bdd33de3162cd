// Benchmark probe, preloaded with `node --require` into every process of a bench run (the provider host included):
// counts SSH connections opened and exec channels requested through ssh2, and the process's peak RSS, and writes
// them to $LVS_BENCH_COUNTS/<pid>.json at every event, so the figures survive the process being killed.
// Measures from outside the product: the provider's code is not changed for the benchmark.
const fs = require("fs");
const path = require("path");
const { setInterval } = require("timers");

const dir = process.env.LVS_BENCH_COUNTS;
if (dir) {
  const { Client } = require("ssh2");
  const counts = { connections: 0, execs: 0, peakRssBytes: 0 };
  const file = path.join(dir, `${process.pid}.json`);
  const save = () => {
    counts.peakRssBytes = process.resourceUsage().maxRSS * 1024;
    fs.writeFileSync(file, JSON.stringify(counts));
  };
  const count = (method, field) => {
    const original = Client.prototype[method];
    Client.prototype[method] = function (...args) {
      counts[field] += 1;
      save();
      return original.apply(this, args);
    };
  };
  count("connect", "connections");
  count("exec", "execs");
  save();
  // Memory can peak between SSH events (diffs, serialisation): sample it too.
  setInterval(save, 500).unref();
  process.on("exit", save);
}
