import { execFileSync } from "child_process";
import { batchCommand, FactReadError, parseBatch } from "../../../provider/facts/batch";
import { fileFact } from "../../../provider/facts/files";

// The batch is run by a real sh here: marker handling must keep file contents byte for byte.
describe("fact batches", () => {
  const sh = (script: string) => execFileSync("sh", ["-c", script], { encoding: "utf8" });

  test("several facts in one run keep exact content, trailing newlines included", () => {
    const facts = {
      twoLines: { command: "printf 'a\\nb\\n'", parse: (s: string) => s },
      none: { command: "true", parse: (s: string) => s },
      missing: fileFact("/nonexistent/lvs-pulumi-test"),
      words: { command: "echo one two", parse: (s: string) => s.trim().split(" ") },
    };
    const values = parseBatch(facts, sh(batchCommand(facts)));
    expect(values).toEqual({ twoLines: "a\nb\n", none: "", missing: null, words: ["one", "two"] });
  });

  test("a failing read names the fact and its command", () => {
    const facts = { broken: { command: "echo partial; exit 3", parse: (s: string) => s } };
    expect(() => parseBatch(facts, sh(batchCommand(facts)))).toThrow(FactReadError);
    expect(() => parseBatch(facts, sh(batchCommand(facts)))).toThrow(
      "reading broken failed: `echo partial; exit 3` exited 3",
    );
  });
});
