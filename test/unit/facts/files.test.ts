import { execFileSync } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { batchCommand, parseBatch } from "../../../provider/facts/batch";
import { directoryListingFact, fileFact, unitEnabledFact } from "../../../provider/facts/files";

// The commands are run by a real sh, on files in a temporary folder.
const sh = (script: string) => execFileSync("sh", ["-c", script], { encoding: "utf8" });
let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "file-facts-"));
});
afterEach(() => fs.rmSync(dir, { recursive: true }));

describe("fileFact", () => {
  test("files read by the shell itself come back byte for byte", () => {
    const contents = [
      "two\nlines\n",
      "no final newline",
      "",
      "\n\n",
      "  spaces kept  \n\tand tabs\\n, backslashes \\ and $HOME `x` 'q' \"dq\"\n",
      "x".repeat(5000),
    ];
    const facts = Object.fromEntries(
      contents.map((content, i) => {
        fs.writeFileSync(path.join(dir, `f${i}`), content);
        return [`f${i}`, fileFact(path.join(dir, `f${i}`))];
      }),
    );
    const values = parseBatch(facts, sh(batchCommand(facts)));
    expect(contents.map((_, i) => values[`f${i}`])).toEqual(contents);
  });

  test("a missing file (or a link to nothing) is null, an empty one is empty", () => {
    fs.writeFileSync(path.join(dir, "empty"), "");
    fs.symlinkSync(path.join(dir, "gone"), path.join(dir, "dangling"));
    const read = (name: string) => fileFact(path.join(dir, name)).parse(sh(fileFact(path.join(dir, name)).command));
    expect(read("missing")).toBeNull();
    expect(read("dangling")).toBeNull();
    expect(read("empty")).toBe("");
  });

  test("runs in the batch's own shell: a file does not inherit the last line of the one read before it", () => {
    fs.writeFileSync(path.join(dir, "unterminated"), "last line without newline");
    fs.writeFileSync(path.join(dir, "empty"), "");
    const facts = { first: fileFact(path.join(dir, "unterminated")), second: fileFact(path.join(dir, "empty")) };
    expect(facts.first.inShell).toBe(true);
    expect(parseBatch(facts, sh(batchCommand(facts)))).toEqual({ first: "last line without newline", second: "" });
  });

  test("a path with spaces, quotes and $ is one word to the shell", () => {
    const odd = path.join(dir, "it's a $HOME `file`");
    fs.writeFileSync(odd, "content\n");
    expect(fileFact(odd).parse(sh(fileFact(odd).command))).toBe("content\n");
  });
});

describe("directoryListingFact", () => {
  test("names the files in a folder, without dot names (a batch's stage folder is not an entry)", () => {
    for (const name of ["10-svc-a.rules", "20-rs b.rules", ".lvs-pulumi-stage"]) {
      fs.writeFileSync(path.join(dir, name), "");
    }
    const fact = directoryListingFact(dir);
    expect(fact.parse(sh(fact.command)).sort()).toEqual(["10-svc-a.rules", "20-rs b.rules"]);
  });

  test("an empty or missing folder lists nothing, and is no error", () => {
    for (const folder of [dir, path.join(dir, "missing")]) {
      const fact = directoryListingFact(folder);
      expect(fact.parse(sh(fact.command))).toEqual([]);
    }
  });
});

describe("unitEnabledFact", () => {
  test("looks for the unit's link in multi-user.target.wants", () => {
    expect(unitEnabledFact("lvs-pulumi-ipvs.service").command).toBe(
      "if [ -L /etc/systemd/system/multi-user.target.wants/lvs-pulumi-ipvs.service ]; then echo yes; else echo no; fi",
    );
  });

  test("a unit without a link is not enabled; a unit name is never run as shell text", () => {
    for (const unit of ["lvs-pulumi-no-such.service", "x.service ] || [ -d /"]) {
      const fact = unitEnabledFact(unit);
      expect(sh(fact.command)).toBe("no\n");
      expect(fact.parse(sh(fact.command))).toBe(false);
    }
    expect(unitEnabledFact("x.service").parse("yes\n")).toBe(true);
  });
});
