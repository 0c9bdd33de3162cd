import {
  foundUnreachable,
  readReachable,
  rememberUnreachable,
  unreachableHost,
} from "../../../provider/operations/unreachable";
import { HostUnreachableError, RemoteCommandError, setLogger } from "../../../provider/remote";

const down = (endpoint: string) => new HostUnreachableError(endpoint, 2, new Error("timed out after 3000ms"));

describe("reading through an outage", () => {
  const warnings: string[] = [];
  beforeAll(() => setLogger({ debug: () => {}, info: () => {}, warn: (m) => void warnings.push(m) }));
  afterAll(() => setLogger());

  it("finds the unreachable host behind a wrapping error", () => {
    const cause = down("a:22");
    expect(unreachableHost(new Error("read failed", { cause }))).toBe(cause);
    expect(unreachableHost(new Error("other"))).toBeUndefined();
  });

  it("reads the hosts that answer and warns once per unreachable host", async () => {
    const read = (host: string) =>
      host === "dead:22" ? Promise.reject(down(host)) : Promise.resolve(`table of ${host}`);
    expect(await readReachable(["dead:22", "live:22"], read, "read from the others")).toEqual([
      undefined,
      "table of live:22",
    ]);
    await readReachable(["dead:22", "live:22"], read, "read from the others");
    expect(warnings).toEqual([
      "host dead:22 unreachable (2 SSH attempts, last: timed out after 3000ms): read from the others; " +
        "once it answers (network, sshd), refresh again",
    ]);
  });

  it("fails when no host answers, or on any other error", async () => {
    await expect(readReachable(["x:22"], (h) => Promise.reject(down(h)), "")).rejects.toThrow("host x:22 unreachable");
    const failed = new RemoteCommandError("live:22", "ipvsadm -Sn", 2, "", "cannot initialize ipvs");
    const read = (host: string) => Promise.reject(host === "live:22" ? failed : down(host));
    await expect(readReachable(["gone:22", "live:22"], read, "")).rejects.toBe(failed);
  });
});

describe("a host found unreachable", () => {
  it("is remembered for the rest of the process, by endpoint; other errors are not", () => {
    const dir = { host: "198.51.100.31", port: 22 };
    expect(foundUnreachable(dir)).toBeUndefined();
    rememberUnreachable(dir, new Error("ipvsadm failed"));
    expect(foundUnreachable(dir)).toBeUndefined();
    const cause = down("198.51.100.31:22");
    rememberUnreachable(dir, new Error("read failed", { cause }));
    expect(foundUnreachable({ host: "198.51.100.31" })).toBe(cause);
    expect(foundUnreachable({ host: "198.51.100.31", port: 2222 })).toBeUndefined();
  });
});
