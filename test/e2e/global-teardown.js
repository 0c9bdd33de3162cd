// Always stops the lab after the e2e project, pass or fail, and checks that qemu is really gone.
const { execFileSync } = require("child_process");
const fs = require("fs");
const path = require("path");

module.exports = async () => {
  // Development only: keep the lab for the next run. `npm test` stops it regardless (scripts/test.sh).
  if (process.env.LVS_LAB_KEEP === "1") return;
  const state = process.env.LVS_LAB_STATE || path.resolve(__dirname, "../../.lab");
  const pidFile = path.join(state, "qemu.pid");
  const pid = fs.existsSync(pidFile) ? Number(fs.readFileSync(pidFile, "utf8").trim()) : undefined;
  execFileSync("bash", [path.resolve(__dirname, "../lab/down.sh")], { stdio: "inherit" });
  if (pid !== undefined) {
    let alive = true;
    try {
      process.kill(pid, 0);
    } catch {
      alive = false;
    }
    if (alive) throw new Error(`lab teardown: qemu PID ${pid} is still running`);
    console.log(`lab teardown: qemu PID ${pid} stopped, no lab process left`);
  }
};
