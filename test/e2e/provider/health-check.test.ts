// Health checks: a checked DR service is keepalived's on the director. Under steady client load a real server whose
// HTTP server stops leaves the table within seconds and no request fails after that; started again, it comes back on
// its own. A check that cannot run is refused before anything changes. Figures are printed.
import { labClock, outage, recordLoad } from "../../lab/failover";
import { fetchThroughVip, labExec, labRun, labTopology, tally, waitFor } from "../../lab/lab";
import { connectionTo, Declared, hostSnapshot, LabStack } from "./fixture";

const HOSTS = ["dir1", "rs1", "rs2"];

describe("health checks (keepalived owns a checked service)", () => {
  let stack: LabStack;
  const vip = labTopology().freeVips.ipv4[10];
  const dir1 = connectionTo("dir1");
  const identity = { protocol: "tcp", address: vip, port: 80 };
  const httpCheck = {
    type: "http",
    path: "/",
    status: 200,
    intervalSeconds: 1,
    retries: 1,
    delayBeforeRetrySeconds: 1,
    connectTimeoutSeconds: 1,
  };
  const service = (healthCheck: Record<string, unknown>): Declared => ({
    name: "checked-web",
    kind: "virtualService",
    inputs: { directors: [dir1], ...identity, scheduler: "rr", healthCheck },
  });
  const server = (name: string, address: string): Declared => ({
    name: `checked-${name}`,
    kind: "realServer",
    inputs: { directors: [dir1], service: identity, address, host: connectionTo(name), serviceChecked: true },
  });
  const stack1 = (healthCheck: Record<string, unknown>) => [
    { name: "dir1", kind: "director", inputs: { connection: dir1 } } as Declared,
    service(healthCheck),
    server("rs1", "198.51.100.21"),
    server("rs2", "198.51.100.22"),
  ];
  const before: Record<string, string> = {};
  const inTable = async (rip: string) =>
    (await labExec("dir1", `ipvsadm -Ln -t ${vip}:80 2>/dev/null || true`)).includes(`${rip}:80`);
  const keepalivedFiles = () =>
    labExec(
      "dir1",
      "cd /etc/keepalived && find . -type f | sort | xargs sha256sum; systemctl show -p MainPID keepalived",
    );

  beforeAll(async () => {
    for (const h of HOSTS) before[h] = await hostSnapshot(h);
    stack = await LabStack.start();
  });
  afterAll(async () => {
    await labRun("rs1", "systemctl start lab-httpd@80");
    await stack?.stop();
  });

  test("a real server whose HTTP server dies leaves the table within seconds, no request fails after, and it comes back", async () => {
    const summary = await stack.deploy(stack1(httpCheck));
    expect(summary.created).toHaveLength(4);
    expect(await labExec("dir1", "systemctl is-active keepalived")).toBe("active\n");
    // alpha: a real server gets traffic once its first check passed.
    await waitFor(
      "both real servers in dir1's table",
      async () => (await inTable("198.51.100.21")) && (await inTable("198.51.100.22")),
      30_000,
    );
    expect(tally(await fetchThroughVip(vip, 80, 4))).toEqual({ rs1: 2, rs2: 2 });
    // keepalived's entries, not ours: no boot fragment of lvs-pulumi for them.
    expect(await labExec("dir1", "ls /etc/lvs-pulumi/ipvs.d 2>/dev/null | grep -c . || true")).toBe("0\n");

    const load = recordLoad(vip, 80);
    await new Promise((resolve) => setTimeout(resolve, 3000));
    const faultAt = await labClock();
    await labExec("rs1", "systemctl stop lab-httpd@80");
    await waitFor("rs1 out of the table", async () => !(await inTable("198.51.100.21")), 30_000);
    const leftAt = await labClock();
    await new Promise((resolve) => setTimeout(resolve, 5000));
    const restartAt = await labClock();
    await labExec("rs1", "systemctl start lab-httpd@80");
    await waitFor("rs1 back in the table", async () => inTable("198.51.100.21"), 30_000);
    const backAt = await labClock();
    await new Promise((resolve) => setTimeout(resolve, 3000));
    const requests = await load.stop();
    const afterLeaving = outage(requests, leftAt);
    const sinceFault = outage(requests, faultAt, leftAt);
    console.log(
      `health check (HTTP, delay 1 s, 1 retry): rs1 left the table ${leftAt - faultAt} ms after its HTTP server ` +
        `stopped (${sinceFault.failed} of ${sinceFault.failed + sinceFault.served} requests failed meanwhile); ` +
        `after that ${afterLeaving.failed} of ${afterLeaving.failed + afterLeaving.served} failed; ` +
        `started again, it served again after ${backAt - restartAt} ms`,
    );
    expect(afterLeaving.failed).toBe(0);
    expect(afterLeaving.served).toBeGreaterThan(20);
    expect(leftAt - faultAt).toBeLessThan(15_000);
    expect(tally(await fetchThroughVip(vip, 80, 4))).toEqual({ rs1: 2, rs2: 2 });
  });

  test("a misc check whose program does not exist is refused; keepalived's files and process are untouched", async () => {
    const files = await keepalivedFiles();
    const table = await labExec("dir1", "ipvsadm -Sn");
    const misc = { type: "misc", command: ["/nonexistent/check-web", "--vip", vip] };
    const failure = stack.deploy(stack1(misc)).then(
      () => "",
      (error: Error) => error.message,
    );
    const message = await failure;
    expect(message).toContain("/nonexistent/check-web is not an executable file on this director");
    expect(message).toContain("nothing was changed");
    expect(await keepalivedFiles()).toBe(files);
    expect(await labExec("dir1", "ipvsadm -Sn")).toBe(table);
  });

  test("destroy removes the checked service and stops keepalived: the hosts are as before", async () => {
    const summary = await stack.destroy();
    expect(summary.deleted).toHaveLength(4);
    for (const h of HOSTS) expect(await hostSnapshot(h)).toBe(before[h]);
  });
});
