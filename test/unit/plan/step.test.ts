import { auditLines, Step, stepAudit, stepFile, stepRun } from "../../../provider/plan/step";

const file = { path: "/etc/lvs-pulumi/ipvs.d/tcp-198.51.100.40-80", content: "-A -t 198.51.100.40:80\n", mode: "0644" };
const write: Step = { run: "cat > /etc/x <<'EOF'\nsecret body\nEOF", audit: "write /etc/x", file };

test("what a step runs: a command as is, ipvsadm's argv and a removal quoted, a script its run", () => {
  expect(stepRun("modprobe ip_vs")).toBe("modprobe ip_vs");
  expect(stepRun({ ipvsadm: ["-D", "-t", "198.51.100.40:80"] })).toBe("ipvsadm -D -t 198.51.100.40:80");
  expect(stepRun({ ipvsadm: ["-D", "-t", "[2001:db8::40]:80"] })).toBe("ipvsadm -D -t '[2001:db8::40]:80'");
  expect(stepRun({ remove: "/etc/lvs-pulumi/owners.d/it's.json" })).toBe(
    "rm -f '/etc/lvs-pulumi/owners.d/it'\\''s.json'",
  );
  expect(stepRun(write)).toBe(write.run);
});

test("what a step shows: its audit instead of its run (a file body stays out); otherwise what it runs", () => {
  expect(stepAudit(write)).toBe("write /etc/x");
  expect(stepAudit(write)).not.toContain("secret body");
  const removal: Step = { ipvsadm: ["-d", "-t", "198.51.100.40:80", "-r", "198.51.100.21:80"] };
  expect(stepAudit(removal)).toBe(stepRun(removal));
  expect(auditLines(removal)).toEqual(["ipvsadm -d -t 198.51.100.40:80 -r 198.51.100.21:80"]);
  expect(auditLines({ remove: "/etc/x" })).toEqual(["rm -f /etc/x"]);
  expect(auditLines("sysctl -w net.ipv4.vs.conntrack=1")).toEqual(["sysctl -w net.ipv4.vs.conntrack=1"]);
});

test("a step making several changes shows one line per change, joined by '; ' in one", () => {
  const batch: Step = { run: "ipvsadm -R <<'EOF'\n...\nEOF", audit: ["ipvsadm -a one", "ipvsadm -a two"] };
  expect(auditLines(batch)).toEqual(["ipvsadm -a one", "ipvsadm -a two"]);
  expect(stepAudit(batch)).toBe("ipvsadm -a one; ipvsadm -a two");
  expect(auditLines({ run: "true", audit: "one" })).toEqual(["one"]);
});

test("only a write step has a file", () => {
  expect(stepFile(write)).toBe(file);
  expect(stepFile({ run: "true", audit: "true" })).toBeUndefined();
  expect(stepFile("true")).toBeUndefined();
  expect(stepFile({ remove: file.path })).toBeUndefined();
  expect(stepFile({ ipvsadm: ["-D", "-f", "5"] })).toBeUndefined();
});
