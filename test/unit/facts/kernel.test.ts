import { kernelReleaseFact } from "../../../provider/facts/kernel";

test("kernel release from uname -r", () => {
  const fact = kernelReleaseFact();
  expect(fact.command).toBe("uname -r");
  expect(fact.parse("6.1.0-50-amd64\n")).toBe("6.1.0-50-amd64");
});
