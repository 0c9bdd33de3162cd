// An HA pair where VRRP multicast does not get through (as in clouds and routed networks): with multicast adverts
// dropped on both directors, a multicast pair ends in split brain and its apply fails; with the members' addresses
// given, VRRP goes unicast and the pair elects one master, fails over (keepalived stopped; a cable cut) and takes the
// VIP back, measured under steady client load with a watcher of VIP holders.
import {
  holdRequest,
  labClock,
  moreThanOneHolder,
  outage,
  REQUEST_TIMEOUT_MS,
  recordLoad,
  Request,
  vipHolders,
  watchVipHolders,
  Watched,
} from "../../lab/failover";
import { fetchThroughVip, labExec, labTopology, liveIpvsTable, tally, waitFor } from "../../lab/lab";
import { connectionTo, Declared, haPairTopology, hostSnapshot, LabStack } from "./fixture";

const HOSTS = ["dir1", "dir2", "rs1", "rs2"];
const DIRECTORS = ["dir1", "dir2"];
// Drops VRRP's multicast adverts (224.0.0.18, ff02::12) arriving at the host; unicast adverts still pass.
const BLOCK = "lvs_test_no_vrrp_multicast";

describe("HA pair over unicast VRRP", () => {
  let stack: LabStack;
  const vip = labTopology().freeVips.ipv4[9];
  const before: Record<string, string> = {};

  const declare = (unicast: boolean): Declared[] =>
    haPairTopology("u", vip, {
      primary: unicast ? { addresses: ["198.51.100.11"] } : {},
      backup: unicast ? { addresses: ["198.51.100.12"] } : {},
      virtualRouterId: 61,
    });
  const holders = () => vipHolders(vip, DIRECTORS);

  beforeAll(async () => {
    for (const h of HOSTS) before[h] = await hostSnapshot(h);
    for (const d of DIRECTORS) {
      await labExec(
        d,
        `nft add table inet ${BLOCK}
         nft 'add chain inet ${BLOCK} in { type filter hook input priority -10; }'
         nft add rule inet ${BLOCK} in ip daddr 224.0.0.18 drop
         nft add rule inet ${BLOCK} in ip6 daddr ff02::12 drop`,
      );
    }
    stack = await LabStack.start();
  });
  afterAll(async () => {
    await stack?.destroy().catch(() => undefined);
    await stack?.stop();
    for (const d of DIRECTORS) await labExec(d, `nft delete table inet ${BLOCK} 2>/dev/null || true`);
  });

  test("multicast VRRP with its adverts dropped: both directors claim the VIP and the apply says so", async () => {
    const failed = await stack.deploy(declare(false)).catch((error: Error) => error);
    expect(failed).toBeInstanceOf(Error);
    expect((failed as Error).message).toMatch(/both directors hold .*VRRP adverts/);
    await stack.destroy();
    expect(await holders()).toEqual([]);
  }, 600_000);

  test("unicast under steady load: the master's keepalived stops, later its cable is cut; the backup serves at once, the primary takes the VIP back; never two holders", async () => {
    await stack.deploy(declare(true));
    expect(await holders()).toEqual(["dir1"]);
    // keepalived itself accepts the rendered configuration.
    for (const d of DIRECTORS) await labExec(d, "keepalived -t -f /etc/keepalived/keepalived.conf");
    expect(tally(await fetchThroughVip(vip, 80, 4))).toEqual({ rs1: 4 });

    const watch = watchVipHolders(vip, DIRECTORS);
    const load = recordLoad(vip, 80);
    const faults: { what: string; at: number; tookMs: number }[] = [];
    // Each fault prints its time on the VM's clock (the one the requests are timed by), then waits for the holder.
    const fault = async (what: string, host: string, command: string, holder: string) => {
      const at = Number((await labExec(host, `date +%s%3N; ${command}`)).trim());
      const tookMs = await waitFor(
        `${holder} alone holds the VIP (${what})`,
        async () => (await holders()).join() === holder,
        30_000,
      );
      faults.push({ what, at, tookMs });
      await new Promise((resolve) => setTimeout(resolve, 3000)); // requests served in the new state before the next
    };
    try {
      await fault("the master's keepalived stopped", "dir1", "systemctl stop keepalived", "dir2");
      await fault("keepalived back on the primary (preempt)", "dir1", "systemctl start keepalived", "dir1");
      // A cable cut: the switch side of dir1's link goes down (dir1 loses carrier; keepalived tracks its interface).
      await fault("the master's cable cut", "lab-vm", "ip link set v-dir1-0 down", "dir2");
      await fault("the primary's cable back (preempt)", "lab-vm", "ip link set v-dir1-0 up", "dir1");
    } finally {
      await labExec("lab-vm", "ip link set v-dir1-0 up");
    }
    const requests = await load.stop();
    const watched = await watch.stop();
    // A request started within its timeout before the next fault may be cut by that fault: it counts for neither.
    const windowEnd = (i: number) => (i + 1 < faults.length ? faults[i + 1].at - REQUEST_TIMEOUT_MS : undefined);
    const figures = faults.map((f, i) => ({ ...f, ...outage(requests, f.at, windowEnd(i)) }));
    for (const f of figures) {
      console.log(
        `unicast failover: ${f.what}: served again ${f.servedAgainAfterMs} ms after the fault, ${f.failed} failed ` +
          `request(s) at ${JSON.stringify(f.failures)} ms, ${f.served} served; VIP holder switched after ${f.tookMs} ms (polled every 0.5 s)`,
      );
    }
    console.log(`unicast failover: VIP holders watched ${JSON.stringify(watched)}`);
    expect(moreThanOneHolder(watched)).toEqual([]);
    expect(watched.seen.dir1).toBeGreaterThan(0);
    expect(watched.seen.dir2).toBeGreaterThan(0);
    for (const f of figures) {
      expect({ what: f.what, servedAgain: f.servedAgainAfterMs !== undefined, served: f.served > 0 }).toEqual({
        what: f.what,
        servedAgain: true,
        served: true,
      });
    }
    // keepalived stopping sends a priority-0 advert: the backup takes over at once, without waiting out the master.
    expect(figures[0].failed).toBeLessThanOrEqual(1);
  }, 900_000);

  test("an established connection outlives the failover: the backup forwards it from the synced connection table", async () => {
    expect(await holders()).toEqual(["dir1"]);
    const held = holdRequest(vip, 80);
    const clientPort = await held.clientPort;
    // The master's sync daemon sends it to the backup (multicast 224.0.0.81: the kernel's sync daemon has no unicast).
    const syncedMs = await waitFor(
      `the connection from client port ${clientPort} synced to dir2`,
      async () => (await labExec("dir2", "ipvsadm -Lnc")).includes(`:${clientPort} `),
      15_000,
    );
    const at = Number((await labExec("dir1", "date +%s%3N; systemctl stop keepalived")).trim());
    try {
      await waitFor("dir2 alone holds the VIP", async () => (await holders()).join() === "dir2", 30_000);
      const answer = await held.finish();
      const answeredMs = Number((await labExec("lab-vm", "date +%s%3N")).trim()) - at;
      console.log(
        `unicast failover: connection from client port ${clientPort} synced to the backup after ${syncedMs} ms; ` +
          `its request, finished after the failover, answered ${answeredMs} ms after the fault by ` +
          JSON.stringify(answer.trim().split("\n").pop()),
      );
      expect(answer).toMatch(/^HTTP\/1\.[01] 200/);
      expect(answer.trim().split("\n").pop()).toBe("rs1");
      // It went through dir2 (the only holder): its own connection table forwarded it.
      expect(await labExec("dir2", "ipvsadm -Lnc")).toContain(`:${clientPort} `);
    } finally {
      await labExec("dir1", "systemctl start keepalived");
      await waitFor("dir1 holds the VIP again", async () => (await holders()).join() === "dir1", 30_000);
    }
  }, 300_000);

  test("a config change under load (a real server added, a weight changed, a VIP added): nothing fails, the VIP stays, both tables as declared", async () => {
    const vip2 = labTopology().freeVips.ipv4[8];
    const changed = declare(true).map((r) => {
      if (r.kind === "realServer") return { ...r, inputs: { ...r.inputs, weight: 3 } };
      if (r.kind === "haPair") return { ...r, inputs: { ...r.inputs, vips: [vip, vip2] } };
      return r;
    });
    const directors = [connectionTo("dir1"), connectionTo("dir2")];
    const web = { protocol: "tcp", address: vip, port: 80 };
    const web2 = { protocol: "tcp", address: vip2, port: 80 };
    changed.push(
      {
        name: "u-web-rs2",
        kind: "realServer",
        inputs: { directors, service: web, address: "198.51.100.22", host: connectionTo("rs2") },
      },
      { name: "u-web2", kind: "virtualService", inputs: { directors, ...web2, scheduler: "rr", bindVip: false } },
      {
        name: "u-web2-rs2",
        kind: "realServer",
        inputs: { directors, service: web2, address: "198.51.100.22", host: connectionTo("rs2") },
      },
    );
    const keepalivedPid = await labExec("dir1", "systemctl show -p MainPID --value keepalived");
    const watch = watchVipHolders(vip, DIRECTORS);
    const load = recordLoad(vip, 80);
    const started = await labClock();
    let requests: Request[] = [];
    let watched: Watched;
    try {
      await stack.deploy(changed);
      await new Promise((resolve) => setTimeout(resolve, 2000)); // requests served after the change as well
    } finally {
      requests = await load.stop();
      watched = await watch.stop();
    }
    const during = outage(requests, started);
    console.log(
      `unicast config change under load: ${during.served} requests served, ${during.failed} failed; ` +
        `VIP holders watched ${JSON.stringify(watched)}`,
    );
    expect(during.failed).toBe(0);
    expect(during.served).toBeGreaterThan(0);
    expect(watched.seen).toEqual({ dir1: watched.samples });
    // Reloaded, not restarted: the same keepalived process, so the VIP never left.
    expect(await labExec("dir1", "systemctl show -p MainPID --value keepalived")).toBe(keepalivedPid);
    expect((await holders()).join()).toBe("dir1");
    expect(await vipHolders(vip2, DIRECTORS)).toEqual(["dir1"]);
    const desired = [
      `-A -t ${vip}:80 -s rr`,
      `-a -t ${vip}:80 -r 198.51.100.21:80 -g -w 3`,
      `-a -t ${vip}:80 -r 198.51.100.22:80 -g -w 1`,
      `-A -t ${vip2}:80 -s rr`,
      `-a -t ${vip2}:80 -r 198.51.100.22:80 -g -w 1`,
    ].sort();
    for (const d of DIRECTORS) {
      const table = (await liveIpvsTable(d)).trim().split("\n").sort();
      expect({ director: d, table }).toEqual({ director: d, table: desired });
    }
    expect(tally(await fetchThroughVip(vip2, 80, 2))).toEqual({ rs2: 2 });
  }, 600_000);

  test("destroy leaves every host as it was", async () => {
    await stack.destroy();
    for (const h of HOSTS) expect({ host: h, state: await hostSnapshot(h) }).toEqual({ host: h, state: before[h] });
  }, 600_000);
});
