// Rewrites README.md's "Resource inputs" tables (between <!-- inputs:begin --> and <!-- inputs:end -->) from the
// input schemas. Run through `npm run docs`, which builds dist/ first.
const fs = require("fs");
const path = require("path");
const { spliceInputsTable } = require("../dist/provider/schemas/docs.js");

const readmePath = path.join(__dirname, "..", "README.md");
const before = fs.readFileSync(readmePath, "utf8");
const after = spliceInputsTable(before);
if (after === before) {
  console.log("README.md inputs tables are up to date");
} else {
  fs.writeFileSync(readmePath, after);
  console.log("README.md inputs tables rewritten");
}
