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
  // With LVS_BENCH_TRACE=<file>: one line per exec, to see where a phase's time goes (trace-summary.ts sums it up):
  // start (epoch ms), ms until the channel opened, ms in all, pid, stdin bytes, "read" / "<n> steps" / "" (what went
  // on stdin: a fact batch, an apply script of n steps, nothing), the command's first 160 characters.
  const trace = process.env.LVS_BENCH_TRACE;
  const kindOf = (input) =>
    input.includes("lvs-pulumi-fact") ? "read" : input && `${(input.match(/lvs_step=/g) || []).length} steps`;
  // The host's lock shell takes the lock and runs its holder's reads and scripts (provider/remote/lock.ts,
  // lock-shell.ts): one line each as well, from the write of the command to its end line (0 ms to open; the head is
  // what went to the shell; #n: which shell of the process, so one host's timeline can be followed).
  let shells = 0;
  const traceLockShell = (stream) => {
    const shell = ++shells;
    const pending = new Map();
    let tail = "";
    const write = stream.write;
    stream.write = function (data, ...more) {
      const text = String(data);
      const tag = /lvs-pulumi-end-[0-9a-f]+/.exec(text);
      if (tag) pending.set(tag[0], { started: Date.now(), text });
      return write.call(this, data, ...more);
    };
    stream.on("data", (chunk) => {
      tail = (tail + String(chunk)).slice(-4096);
      for (const [tag, { started, text }] of pending) {
        if (!tail.includes(`\n${tag} `)) continue;
        pending.delete(tag);
        const head = text.replace(/\s+/g, " ").slice(0, 160);
        const line = `${started} 0 ${Date.now() - started} ${process.pid} ${text.length} ${JSON.stringify(kindOf(text))} in-lock#${shell} ${head}\n`;
        fs.appendFileSync(trace, line);
      }
    });
  };
  if (trace) {
    const exec = Client.prototype.exec;
    Client.prototype.exec = function (command, ...rest) {
      const started = Date.now();
      const callback = rest.pop();
      const head = command.replace(/\s+/g, " ").slice(0, 160);
      return exec.call(this, command, ...rest, (err, stream) => {
        const opened = Date.now();
        let input = "";
        if (stream) {
          const end = stream.end;
          stream.end = function (data, ...more) {
            if (data) input = String(data);
            return end.call(this, data, ...more);
          };
          stream.on("close", () => {
            const took = `${opened - started} ${Date.now() - started}`;
            fs.appendFileSync(
              trace,
              `${started} ${took} ${process.pid} ${input.length} ${JSON.stringify(kindOf(input))} ${head}\n`,
            );
          });
          if (/'exec sh'$/.test(command)) traceLockShell(stream);
        }
        callback(err, stream);
      });
    };
  }
  save();
  // Memory can peak between SSH events (diffs, serialisation): sample it too.
  setInterval(save, 500).unref();
  process.on("exit", save);
}
