import { Fact } from "../../../provider/facts/fact";

// A type-only module: what it promises is checked by tsc compiling this file; at run time it exports nothing.

test("compile-level: a fact is a command and a parser; inShell is either absent or true", () => {
  const lines: Fact<string[]> = { command: "ls -1 /etc", parse: (stdout) => stdout.split("\n") };
  const own: Fact<boolean> = { command: "echo yes", parse: (stdout) => stdout.trim() === "yes", inShell: true };
  // @ts-expect-error a fact that must run in a subshell leaves inShell out rather than setting it false
  const refused: Fact<boolean> = { command: "echo yes", parse: () => true, inShell: false };
  // @ts-expect-error a fact without a parser is not a fact
  const unparsed: Fact<string> = { command: "echo yes" };
  void [lines, own, refused, unparsed];
});

test("the module has no run-time exports", () => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  expect(Object.keys(require("../../../provider/facts/fact"))).toEqual([]);
});
