// Makes `require("lvs-pulumi/runtime")` resolve inside this checkout the way it does in a user's project
// (node_modules/lvs-pulumi): the dynamic-provider host loads serialized providers from its cwd, where Node's
// package self-reference does not apply. Runs on `npm install` / `npm ci` in this repository only (npm "prepare").
const fs = require("fs");
const path = require("path");

const link = path.join(__dirname, "..", "node_modules", "lvs-pulumi");
try {
  fs.lstatSync(link);
} catch {
  fs.symlinkSync("..", link, "dir");
}
