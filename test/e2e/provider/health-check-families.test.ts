// Checked services beyond an IPv4 VIP:port: an IPv6 DR service with a TCP check and an IPv4 fwmark service (tcp/80
// and tcp/8443 of one VIP) with an HTTP check on port 80. A real server whose server stops leaves both and comes back;
// refresh sees no drift; destroy leaves the hosts as before. The IPv6 check passes only because the director's VIP is
// deprecated (preferred_lft 0): a /128 VIP would be the checks' source address, and rs1 holds it on lo.
import { fetchThroughVip, labExec, labRun, labTopology, tally, waitFor } from "../../lab/lab";
import { PropertyMap } from "../../harness/provider-host";
import { connectionKey, ConnectionSpec } from "../../../provider/remote";
import { connectionTo, Declared, hostSnapshot, LabStack, urnOf } from "./fixture";

const HOSTS = ["dir1", "rs1", "rs2"];
const MARK = 8080;

describe("checked IPv6 and fwmark services", () => {
  let stack: LabStack;
  const vip = labTopology().freeVips.ipv4[9];
  const vip6 = labTopology().freeVips.ipv6[3];
  const dir1 = connectionTo("dir1");
  const fast = { intervalSeconds: 1, retries: 1, delayBeforeRetrySeconds: 1, connectTimeoutSeconds: 1 };
  const v6Web = { protocol: "tcp", address: vip6, port: 80 };
  const marked = { fwmark: MARK, family: "inet", match: { protocol: "tcp", addresses: [vip], ports: [80, 8443] } };
  const rs = (name: string, service: PropertyMap, host: string, address: string): Declared => ({
    name,
    kind: "realServer",
    inputs: { directors: [dir1], service, address, host: connectionTo(host), serviceChecked: true },
  });
  const declared: Declared[] = [
    { name: "dir1", kind: "director", inputs: { connection: dir1 } },
    {
      name: "v6-web",
      kind: "virtualService",
      inputs: { directors: [dir1], ...v6Web, scheduler: "rr", healthCheck: { type: "tcp", ...fast } },
    },
    rs("v6-rs1", v6Web, "rs1", "2001:db8:1::21"),
    rs("v6-rs2", v6Web, "rs2", "2001:db8:1::22"),
    {
      name: "fwm-web",
      kind: "virtualService",
      inputs: { directors: [dir1], ...marked, scheduler: "rr", healthCheck: { type: "http", port: 80, ...fast } },
    },
    rs("fwm-rs1", marked, "rs1", "198.51.100.21"),
    rs("fwm-rs2", marked, "rs2", "198.51.100.22"),
  ];
  const listed = (rip: string) => labExec("dir1", `ipvsadm -Ln 2>/dev/null | grep -c -F '${rip}' || true`);
  const inBoth = async (n: number) =>
    (await listed("[2001:db8:1::21]:80")) === `${n}\n` && (await listed("198.51.100.21:0")) === `${n}\n`;
  const before: Record<string, string> = {};

  beforeAll(async () => {
    for (const h of HOSTS) before[h] = await hostSnapshot(h);
    stack = await LabStack.start();
  });
  afterAll(async () => {
    await labRun("rs1", "systemctl start lab-httpd@80");
    await stack?.stop();
  });

  test("both served by keepalived; rs1's server stopped, it leaves both; started, it is back; no drift", async () => {
    expect((await stack.deploy(declared)).created).toHaveLength(declared.length);
    await waitFor("rs1 in both services", () => inBoth(1), 30_000);
    const table = await labExec("dir1", "ipvsadm -Sn");
    expect(table).toContain(`-A -f ${MARK} -s rr`);
    expect(table).toContain(`-A -t [${vip6}]:80 -s rr`);
    expect(await labExec("dir1", "ls /etc/lvs-pulumi/ipvs.d 2>/dev/null | grep -c . || true")).toBe("0\n");
    await waitFor("rs2 in both services", async () => (await listed("198.51.100.22:0")) === "1\n", 30_000);
    expect(tally(await fetchThroughVip(vip6, 80, 4))).toEqual({ rs1: 2, rs2: 2 });
    expect(tally(await fetchThroughVip(vip, 8443, 4))).toEqual({ rs1: 2, rs2: 2 });

    await labExec("rs1", "systemctl stop lab-httpd@80");
    await waitFor("rs1 out of both services", () => inBoth(0), 30_000);
    expect(tally(await fetchThroughVip(vip6, 80, 3))).toEqual({ rs2: 3 });
    expect(tally(await fetchThroughVip(vip, 8443, 3))).toEqual({ rs2: 3 });
    const live = await stack.engine.refresh();
    const dir1Key = connectionKey(dir1 as unknown as ConnectionSpec);
    for (const name of ["v6-rs1", "fwm-rs1"]) {
      expect(live[urnOf(name, "realServer")]).toMatchObject({ health: { [dir1Key]: "down" } });
    }
    expect((await stack.deploy(declared)).updated).toEqual([]);

    await labExec("rs1", "systemctl start lab-httpd@80");
    await waitFor("rs1 back in both services", () => inBoth(1), 30_000);
    expect(tally(await fetchThroughVip(vip6, 80, 4))).toEqual({ rs1: 2, rs2: 2 });
  });

  test("destroy: keepalived stopped, the hosts as before", async () => {
    await stack.destroy();
    expect(await labExec("dir1", "ipvsadm -Sn")).toBe("");
    for (const h of HOSTS) expect(await hostSnapshot(h)).toBe(before[h]);
  });
});
