import { execFileSync } from "child_process";
import { header } from "../../../provider/render/header";

test("one comment line telling an operator the file is managed", () => {
  const line = header();
  expect(line).toBe("# Managed by lvs-pulumi; edits are overwritten.\n");
  expect(line.indexOf("\n")).toBe(line.length - 1);
});

test("a shell script that starts with it runs as if it were not there", () => {
  expect(execFileSync("sh", ["-c", `${header()}echo ran`], { encoding: "utf8" })).toBe("ran\n");
});

test("takes another comment marker for formats that use one", () => {
  expect(header("//")).toBe("// Managed by lvs-pulumi; edits are overwritten.\n");
  expect(header(";").startsWith("; Managed by lvs-pulumi")).toBe(true);
});
