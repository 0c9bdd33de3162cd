// Boots the lab once for the e2e project (reuses a running one). The image comes from the cache when warm.
const { execFileSync } = require("child_process");
const path = require("path");

module.exports = async () => {
  const started = Date.now();
  execFileSync("bash", [path.resolve(__dirname, "../lab/up.sh")], { stdio: "inherit" });
  console.log(`\nlab-timing: lab:up took ${((Date.now() - started) / 1000).toFixed(1)} s`);
};
