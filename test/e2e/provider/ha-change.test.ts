// Routine changes of a live HA pair under client load: another virtual router id, a member written as a host name
// instead of its address, a member's sshd on another port, the pair and a director renamed. Each is an update in
// place: the member holding the VIP never stops keepalived (its PID stays), the VIP is never held by both, and the
// failed requests are counted and printed.
import { labClock, moreThanOneHolder, outage, recordLoad, vipHolders, watchVipHolders } from "../../lab/failover";
import { labExec, labTopology } from "../../lab/lab";
import { connectionTo, Declared, haPairTopology, LabStack } from "./fixture";

const DIRECTORS = ["dir1", "dir2"];
const HOST_NAME = "lvs-test-dir1.lab";
const SSHD_PORT = 2222;
const SSHD_PID_FILE = `/run/lvs-test-sshd-${SSHD_PORT}.pid`;

describe("HA pair changes in place under load", () => {
  let stack: LabStack;
  const vip = labTopology().freeVips.ipv4[7];
  const figures: string[] = [];

  type Variant = { virtualRouterId: number; primaryHost?: string; backupPort?: number; pairName?: string };
  const declare = (v: Variant, directorName = "dir1"): Declared[] =>
    haPairTopology("chg", vip, {
      virtualRouterId: v.virtualRouterId,
      primary: v.primaryHost ? { connection: { ...connectionTo("dir1"), host: v.primaryHost } } : {},
      backup: v.backupPort ? { connection: { ...connectionTo("dir2"), port: v.backupPort } } : {},
    }).map((r) => {
      if (r.kind === "haPair" && v.pairName) return { ...r, name: v.pairName };
      if (r.kind === "director" && r.name === "dir1") return { ...r, name: directorName };
      return r;
    });
  const keepalivedPid = async (host: string) =>
    (await labExec(host, "systemctl show -p MainPID --value keepalived")).trim();

  /** Deploys `resources` under load; returns the summary after checking what the clients and the VIP saw. */
  async function underLoad(what: string, resources: Declared[], expectUpdated: string[]) {
    const holderPid = await keepalivedPid("dir1");
    const watch = watchVipHolders(vip, DIRECTORS);
    const load = recordLoad(vip, 80);
    const started = await labClock();
    const summary = await stack.deploy(resources);
    await new Promise((resolve) => setTimeout(resolve, 3000)); // requests after the change, too
    const requests = await load.stop();
    const seen = await watch.stop();
    const seenOutage = outage(requests, started);
    const line =
      `${what}: ${seenOutage.failed} of ${seenOutage.failed + seenOutage.served} requests failed ` +
      `(at ms ${JSON.stringify(seenOutage.failures)}), VIP holders sampled ${JSON.stringify(seen.seen)}, ` +
      `updated ${JSON.stringify(summary.updated.map((u) => u.split("::").pop()))}, ` +
      `created ${JSON.stringify(summary.created.map((u) => u.split("::").pop()))}, ` +
      `deleted ${JSON.stringify(summary.deleted.map((u) => u.split("::").pop()))}`;
    figures.push(line);
    process.stdout.write(`${line}\n`);
    expect(summary.replaced).toEqual([]);
    expect(summary.updated.map((u) => u.split("::").pop()).sort()).toEqual([...expectUpdated].sort());
    expect(seenOutage.failed).toBeLessThanOrEqual(3);
    expect(seenOutage.served).toBeGreaterThan(20);
    expect(moreThanOneHolder(seen)).toEqual([]);
    // The holder's keepalived was reloaded at most, never stopped: the VIP had a holder throughout.
    expect(await keepalivedPid("dir1")).toBe(holderPid);
    expect(await vipHolders(vip, DIRECTORS)).toEqual(["dir1"]);
    expect((await labExec("dir2", "systemctl is-active keepalived")).trim()).toBe("active");
    return summary;
  }

  beforeAll(async () => {
    await labExec("lab-vm", `grep -q ' ${HOST_NAME}$' /etc/hosts || echo '198.51.100.11 ${HOST_NAME}' >> /etc/hosts`);
    await labExec("dir2", `mkdir -p /run/sshd && /usr/sbin/sshd -p ${SSHD_PORT} -o PidFile=${SSHD_PID_FILE}`);
    stack = await LabStack.start();
    await stack.deploy(declare({ virtualRouterId: 71 }));
    expect(await vipHolders(vip, DIRECTORS)).toEqual(["dir1"]);
  }, 600_000);
  afterAll(async () => {
    await stack?.destroy().catch(() => undefined);
    await stack?.stop();
    await labExec("lab-vm", `sed -i '/ ${HOST_NAME}$/d' /etc/hosts`);
    await labExec("dir2", `test ! -e ${SSHD_PID_FILE} || kill "$(cat ${SSHD_PID_FILE})"`);
    process.stdout.write(`ha-change figures:\n${figures.join("\n")}\n`);
  }, 600_000);

  test("another virtual router id: the holder moves to the new VRRP instance without a gap", async () => {
    await underLoad("router id 71 -> 72", declare({ virtualRouterId: 72 }), ["chg-pair"]);
    const conf = await labExec("dir1", "cat /etc/keepalived/keepalived.conf");
    expect(conf).toMatch(/virtual_router_id 72\n\s*priority 150\n/);
    expect(conf).not.toMatch(/virtual_router_id 71/);
  }, 600_000);

  test("the primary written as a host name, the backup reached on another sshd port: the same members", async () => {
    await underLoad("primary as a host name", declare({ virtualRouterId: 72, primaryHost: HOST_NAME }), ["chg-pair"]);
    const both = declare({ virtualRouterId: 72, primaryHost: HOST_NAME, backupPort: SSHD_PORT });
    await underLoad(`backup on sshd port ${SSHD_PORT}`, both, ["chg-pair"]);
    const again = await stack.deploy(both);
    expect([...again.created, ...again.updated, ...again.deleted]).toEqual([]);
  }, 600_000);

  test("the pair and a director renamed: created under the new name, the old name deleted, nothing stops", async () => {
    const variant = { virtualRouterId: 72, primaryHost: HOST_NAME, backupPort: SSHD_PORT, pairName: "chg-pair-2" };
    const timeouts = await labExec("dir1", "ipvsadm -L --timeout");
    const summary = await underLoad("pair and director renamed", declare(variant, "dir1-renamed"), []);
    expect(summary.created.map((u) => u.split("::").pop()).sort()).toEqual(["chg-pair-2", "dir1-renamed"]);
    expect(summary.deleted.map((u) => u.split("::").pop()).sort()).toEqual(["chg-pair", "dir1"]);
    expect(await labExec("dir1", "ipvsadm -L --timeout")).toBe(timeouts);
    expect(await labExec("dir1", "ls /etc/lvs-pulumi/claims.d")).toMatch(/^director_[0-9a-f]{12}\.json$/m);
    const again = await stack.deploy(declare(variant, "dir1-renamed"));
    expect([...again.created, ...again.updated, ...again.deleted]).toEqual([]);
  }, 600_000);

  test("destroy: keepalived given up on both members", async () => {
    await stack.destroy();
    for (const d of DIRECTORS) {
      expect((await labExec(d, "test -e /etc/keepalived/keepalived.conf && echo present || echo absent")).trim()).toBe(
        "absent",
      );
    }
    expect(await vipHolders(vip, DIRECTORS)).toEqual([]);
  }, 600_000);
});
