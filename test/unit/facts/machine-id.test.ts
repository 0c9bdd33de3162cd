import { machineIdFact } from "../../../provider/facts/machine-id";

test("a host's identity is its machine id with its host keys; a host showing neither has none", () => {
  const out = "5f1c0e7e2a6b4c1f9d3e8a7b6c5d4e3f\nssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIB root@dir1\n";
  expect(machineIdFact().parse(out)).toBe(out.trim());
  expect(machineIdFact().parse("\n")).toBeUndefined();
});
