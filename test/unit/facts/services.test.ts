import { execFileSync } from "child_process";
import { programPresentFact, unitActiveFact } from "../../../provider/facts/services";

// The commands are run by a real sh; they only ask, so they are safe to run here.
const sh = (script: string) => execFileSync("sh", ["-c", script], { encoding: "utf8", stdio: "pipe" });

describe("programPresentFact", () => {
  test("a program on the PATH is present, another is not", () => {
    for (const [program, present] of [
      ["sh", true],
      ["lvs-pulumi-no-such-program", false],
    ] as const) {
      const fact = programPresentFact(program);
      expect(fact.parse(sh(fact.command))).toBe(present);
    }
  });

  test("the name is one word to the shell, never a command of its own", () => {
    const fact = programPresentFact("true; echo yes");
    expect(sh(fact.command)).toBe("no\n");
  });
});

describe("unitActiveFact", () => {
  test("asks systemctl quietly, so only yes or no is printed", () => {
    expect(unitActiveFact("keepalived.service").command).toBe(
      "systemctl is-active --quiet keepalived.service && echo yes || echo no",
    );
  });

  test("a unit that is not running reads as not active, not as a failed read", () => {
    const fact = unitActiveFact("lvs-pulumi-no-such.service");
    expect(sh(fact.command)).toBe("no\n");
    expect(fact.parse("no\n")).toBe(false);
    expect(fact.parse("yes\n")).toBe(true);
  });
});
