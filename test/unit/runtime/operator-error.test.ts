import { forOperator, omitPrintedCopies } from "../../../provider/runtime/operator-error";
import { HostUnreachableError, registerSecret } from "../../../provider/remote";

test("an unreachable host: one line naming it, one line saying what to do; no stack", () => {
  const error = forOperator(new HostUnreachableError("198.51.100.11:22", 10, new Error("connect ETIMEDOUT")));
  expect(error.message.split("\n")).toEqual([
    "host 198.51.100.11:22 unreachable after 10 attempts: connect ETIMEDOUT",
    "  to fix: check the network path to 198.51.100.11:22 and its sshd; a host known to be down can be listed in " +
      "LVS_PULUMI_HOSTS_DOWN for an up that changes the others",
  ]);
  expect(error.stack).toBe("");
});

test("the cause is found behind a wrapping error; other errors keep their message, secrets masked", () => {
  const wrapped = new Error("HA pair edge: reading failed", {
    cause: new HostUnreachableError("198.51.100.12:22", 2, "refused"),
  });
  expect(forOperator(wrapped).message).toContain("to fix: check the network path to 198.51.100.12:22");
  registerSecret("s3cret-token");
  expect(forOperator(new Error("sudo: s3cret-token rejected")).message).toBe("sudo: [secret] rejected");
  expect(forOperator("plain").message).toBe("plain");
});

test("the dynamic-provider host's stderr copy of such an error is left out once; other lines pass", () => {
  const written: unknown[][] = [];
  const stream = { error: (...args: unknown[]) => void written.push(args) };
  omitPrintedCopies(stream);
  const error = forOperator(new Error("host dir1: `ipvsadm -R` failed (exit 2): Memory allocation problem"));
  // What cmd/dynamic-provider/index.js writes for a failed check, diff, read or delete.
  stream.error(`${error}: ${error.stack}`);
  stream.error("another line");
  stream.error(`${error}: ${error.stack}`);
  expect(written).toEqual([["another line"], [`${error}: `]]);
});
