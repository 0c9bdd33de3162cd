// Benchmark probe, preloaded with `node --require` into every process of a bench run when LVS_BENCH_PROFILE names a
// folder (node refuses --cpu-prof in NODE_OPTIONS): a V8 CPU profile of the whole process, written when it exits or
// is asked to stop (SIGTERM, as the engine stops a provider host), to <folder>/<pid>.cpuprofile.
const fs = require("fs");
const path = require("path");
const inspector = require("inspector");

const dir = process.env.LVS_BENCH_PROFILE;
if (dir) {
  const session = new inspector.Session();
  session.connect();
  session.post("Profiler.enable");
  session.post("Profiler.start");
  let written = false;
  const write = () => {
    if (written) return;
    written = true;
    // The in-process session answers synchronously, so this also works in an exit handler.
    session.post("Profiler.stop", (err, result) => {
      if (!err) fs.writeFileSync(path.join(dir, `${process.pid}.cpuprofile`), JSON.stringify(result.profile));
    });
  };
  process.on("exit", write);
  process.once("SIGTERM", () => {
    write();
    process.exit(143);
  });
}
