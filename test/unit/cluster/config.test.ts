import * as fs from "fs";
import * as path from "path";
import { load } from "js-yaml";
import * as pulumi from "@pulumi/pulumi";
import { checkTopologyConfig, clusterTopology, parseTopologyConfig } from "../../../provider/cluster/config";

const HOST_KEY = "SHA256:" + "A".repeat(43);

// Deliberately loose: the tests break it in every way a hand-written config can be broken.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
function topology(): Record<string, any> {
  return {
    subnets: ["198.51.100.0/26", "2001:db8:1::/64"],
    directors: {
      dir1: { connection: { host: "198.51.100.11", hostKey: HOST_KEY } },
      dir2: { connection: { host: "198.51.100.12", hostKey: HOST_KEY }, timeouts: { tcp: 900 } },
    },
    services: {
      web: {
        directors: ["dir1", "dir2"],
        protocol: "tcp",
        address: "198.51.100.40",
        port: 80,
        scheduler: "wrr",
        realServers: {
          rs1: {
            address: "198.51.100.21",
            weight: 2,
            forwarding: "dr",
            host: { host: "198.51.100.21", hostKey: HOST_KEY },
          },
          rs2: { address: "198.51.100.22", forwarding: "dr" },
        },
      },
      web6: {
        directors: ["dir1"],
        protocol: "tcp",
        address: "2001:db8:1::100",
        port: 80,
        scheduler: "rr",
        realServers: { rs1: { address: "2001:db8:1::21", forwarding: "dr" } },
      },
    },
  };
}

function reasons(raw: unknown): string[] {
  return checkTopologyConfig(raw).failures.map((f) => f.reason);
}

test("a valid topology parses, with the resource schemas' defaults filled in", () => {
  const parsed = parseTopologyConfig(topology());
  expect(parsed.services.web.realServers.rs2).toMatchObject({ weight: 1, forwarding: "dr" });
  expect(parsed.directors.dir1.connection).toMatchObject({ port: 22, user: "root" });
});

test("a service naming a missing director names the key and the director", () => {
  const raw = topology();
  raw.services.web.directors = ["dir1", "dir9"];
  expect(reasons(raw)).toEqual([
    'lvs:topology.services.web.directors[1]: "dir9" is not a defined director (lvs:topology.directors has dir1, dir2)',
  ]);
  expect(checkTopologyConfig(raw).failures[0].property).toBe("lvs:topology.services.web.directors[1]");
});

test("a VIP outside every declared subnet names the key and the subnets", () => {
  const raw = topology();
  raw.services.web.address = "203.0.113.40";
  raw.services.web.realServers = { rs1: { address: "203.0.113.21", forwarding: "dr" } };
  expect(reasons(raw)).toEqual([
    'lvs:topology.services.web.address: "203.0.113.40" is not in any of lvs:topology.subnets (198.51.100.0/26, 2001:db8:1::/64)',
  ]);
});

test("an IPv6 VIP is only matched against IPv6 subnets", () => {
  const raw = topology();
  raw.subnets = ["198.51.100.0/26"];
  expect(reasons(raw)).toEqual([
    'lvs:topology.services.web6.address: "2001:db8:1::100" is not in any of lvs:topology.subnets (198.51.100.0/26)',
  ]);
});

test("a duplicate VIP:port across services names the second key and the first service", () => {
  const raw = topology();
  raw.services.api = { ...raw.services.web, address: "198.51.100.40", scheduler: "rr" };
  expect(reasons(raw)).toEqual([
    'lvs:topology.services.api.address: "198.51.100.40" tcp 198.51.100.40 port 80 is already used by lvs:topology.services.web',
  ]);
  // Same VIP, another port or protocol: fine.
  raw.services.api.port = 443;
  expect(reasons(raw)).toEqual([]);
});

test("IPv6 duplicates are found whatever the spelling", () => {
  const raw = topology();
  raw.services.other = { ...raw.services.web6, address: "2001:0db8:0001:0000:0000:0000:0000:0100" };
  expect(reasons(raw)).toHaveLength(1);
  expect(reasons(raw)[0]).toMatch(
    /^lvs:topology\.services\.other\.address: .* is already used by lvs:topology\.services\.web6$/,
  );
});

test("an unknown scheduler names the key and lists the known ones", () => {
  const raw = topology();
  raw.services.web.scheduler = "fastest";
  expect(reasons(raw)).toEqual([
    'lvs:topology.services.web.scheduler: "fastest" is not a known scheduler; allowed: rr, wrr, lc, wlc, lblc, lblcr, dh, sh, sed, nq, fo, ovf, mh, twos',
  ]);
});

test("the resource schemas' cross-field rules apply at their config keys", () => {
  const raw = topology();
  raw.services.web.realServers.rs2 = { address: "198.51.100.22", port: 8080, forwarding: "dr" };
  raw.services.web.realServers.rs3 = { address: "198.51.100.23", forwarding: "nat", snatSource: "198.51.100.66" };
  raw.services.web.schedulerFlags = ["sh-port"];
  expect(reasons(raw)).toEqual([
    'lvs:topology.services.web.schedulerFlags[0]: "sh-port" needs scheduler "sh" (scheduler is "wrr")',
    "lvs:topology.services.web.realServers.rs2.port: 8080 must equal the service port 80 for dr",
    'lvs:topology.services.web.realServers.rs3.snatSource: "198.51.100.66" is only for fullnat forwarding',
  ]);
});

test("field errors and unknown keys are named; whole-topology rules wait until the fields are valid", () => {
  const raw = topology();
  raw.services.web.port = 0;
  raw.services.web.realServers.rs1.wieght = 3;
  raw.directors.dir2.connection = { host: "198.51.100.12" };
  raw.services.web.directors = ["dir9"];
  expect(reasons(raw)).toEqual([
    "lvs:topology.directors.dir2.connection.hostKey: is required: pin the host key, or set knownHostsPath, or set insecureSkipHostKeyCheck: true",
    "lvs:topology.services.web.port: 0 is out of range 1..65535",
    "lvs:topology.services.web.realServers.rs1: (object) has unknown keys: wieght",
  ]);
});

test("credentials in plain config are refused, without showing them", () => {
  const secret = topology();
  secret.directors.dir1.connection.privateKey = "-----BEGIN OPENSSH PRIVATE KEY-----";
  secret.services.web.realServers.rs1.host.proxy = { host: "203.0.113.5", hostKey: HOST_KEY, password: "hunter2" };
  expect(reasons(secret)).toEqual([
    "lvs:topology.directors.dir1.connection.privateKey: must not be in plain config: set the key with `pulumi config set --secret lvs:sshPrivateKey`",
    "lvs:topology.services.web.realServers.rs1.host.proxy.password: must not be in plain config: set the key with `pulumi config set --secret lvs:sshPrivateKey`",
  ]);
});

test("parseTopologyConfig throws one error listing every failure", () => {
  const raw = topology();
  raw.services.web.scheduler = "fastest";
  raw.subnets = [];
  expect(() => parseTopologyConfig(raw)).toThrow(
    /^invalid stack config lvs:topology:\n {2}lvs:topology\.subnets: .*\n {2}lvs:topology\.services\.web\.scheduler: /,
  );
});

test.each(["staging", "prod", "lab"])("Pulumi.%s.yaml holds a valid lvs:topology", (stack) => {
  const file = path.resolve(__dirname, `../../../Pulumi.${stack}.yaml`);
  const config = (load(fs.readFileSync(file, "utf8")) as { config: Record<string, unknown> }).config;
  let raw = config["lvs:topology"];
  if (stack === "lab") {
    // Host keys and the jump host come from the lab's hosts file at program time; pin dummies here.
    raw = JSON.parse(JSON.stringify(raw), (key, value) =>
      (key === "connection" || key === "host") && typeof value === "object" ? { ...value, hostKey: HOST_KEY } : value,
    );
  }
  expect(checkTopologyConfig(raw).failures).toEqual([]);
});

describe("HA pairs in stack config", () => {
  function withPair(pair: Record<string, unknown> = {}) {
    const raw = topology();
    raw.services.web6.directors = ["dir1", "dir2"];
    raw.haPairs = {
      pair: {
        primary: { director: "dir1", interface: "eth0" },
        backup: { director: "dir2", interface: "eth0" },
        virtualRouterId: 51,
        ...pair,
      },
    };
    return raw;
  }

  test("a valid pair parses with the resource's defaults", () => {
    const parsed = parseTopologyConfig(withPair());
    expect(parsed.haPairs.pair).toMatchObject({
      primary: { director: "dir1", interface: "eth0", priority: 150 },
      backup: { director: "dir2", priority: 100 },
      preempt: true,
      floatingAddresses: [],
    });
  });

  test("track scripts, interfaces, notify hooks and keepalived's rules go through stack config, named by key", () => {
    const parsed = parseTopologyConfig(
      withPair({
        primary: { director: "dir1", interface: "eth0", trackInterfaces: ["eth1"] },
        trackScripts: [{ command: "test -e /run/ok" }],
        notify: { fault: "logger fault" },
      }),
    );
    expect(parsed.haPairs.pair).toMatchObject({
      primary: { trackInterfaces: ["eth1"] },
      trackScripts: [{ command: "test -e /run/ok", intervalSeconds: 2, fall: 2, rise: 2 }],
      notify: { fault: "logger fault" },
    });
    expect(reasons(withPair({ preempt: false, preemptDelaySeconds: 10 }))).toEqual([
      "lvs:topology.haPairs.pair.preemptDelaySeconds: 10 needs preempt: true (keepalived: preempt_delay is incompatible with nopreempt)",
    ]);
  });

  test("the VRRP password never sits in plain config: it comes from the secret lvs:vrrpPasswords", async () => {
    // (This pair's VIP is IPv6, so keepalived's own rule speaks too.)
    expect(reasons(withPair({ authentication: { password: "s3cr3t" } }))).toEqual([
      "lvs:topology.haPairs.pair.authentication: (object) must not be in plain config (it holds the VRRP password): set it with `pulumi config set --secret --path lvs:vrrpPasswords.pair <password>`",
      "lvs:topology.haPairs.pair.authentication: (object) is VRRPv2 only: this pair has IPv6 VIPs (a VRRPv3 instance) and VRRPv3 has no authentication; drop it or the IPv6 VIPs",
    ]);
    const topology = parseTopologyConfig(withPair());
    const resolved = (value: unknown) =>
      new Promise((resolve) => (pulumi.output(value) as pulumi.Output<unknown>).apply(resolve));
    const passwords = (value: Record<string, string>) => pulumi.secret(value) as pulumi.Output<Record<string, string>>;
    const withPassword = clusterTopology(topology, undefined, passwords({ pair: "s3cr3t" }));
    expect(await resolved(withPassword.haPairs?.pair.authentication)).toEqual({ type: "PASS", password: "s3cr3t" });
    const other = clusterTopology(topology, undefined, passwords({ elsewhere: "x" }));
    expect(await resolved(other.haPairs?.pair.authentication)).toBeUndefined();
    expect(clusterTopology(topology).haPairs?.pair.authentication).toBeUndefined();
  });

  test("every broken pair names its config key", () => {
    expect(reasons(withPair({ backup: { director: "dir7", interface: "eth0" } }))).toEqual([
      'lvs:topology.haPairs.pair.backup.director: "dir7" is not a defined director (lvs:topology.directors has dir1, dir2)',
      "lvs:topology.haPairs.pair: (object) carries no VIP: no service names both its directors and it has no floatingAddresses",
    ]);
    expect(reasons(withPair({ virtualRouterId: 0 }))).toEqual([
      "lvs:topology.haPairs.pair.virtualRouterId: 0 is out of range 1..255",
    ]);
    expect(reasons(withPair({ backup: { director: "dir2", interface: "eth0", priority: 200 } }))).toEqual([
      "lvs:topology.haPairs.pair.backup.priority: 200 must be below the primary's priority (150)",
    ]);
    const wider = withPair();
    wider.directors.dir3 = { connection: { host: "198.51.100.13", hostKey: HOST_KEY } };
    wider.services.web6.directors = ["dir1", "dir2", "dir3"];
    expect(reasons(wider)).toEqual([
      'lvs:topology.services.web6.directors: ["dir1","dir2","dir3"] names both directors of lvs:topology.haPairs.pair and more: a pair\'s service is on exactly dir1, dir2',
    ]);
    const ownService = withPair();
    ownService.services.web6.directors = ["dir1"];
    expect(reasons(ownService)).toEqual([]);
  });

  test("a VIP that is a member's own address is named where the config sets it, once", () => {
    // A floating address: at floatingAddresses, the value as written.
    expect(reasons(withPair({ floatingAddresses: ["198.51.100.12"] }))).toEqual([
      'lvs:topology.haPairs.pair.floatingAddresses[0].address: "198.51.100.12" is the backup\'s own address (backup.connection.host): keepalived removes the VIPs from a member that turns backup, and the member would lose that address with them; use another VIP',
    ]);
    expect(reasons(withPair({ floatingAddresses: [{ address: "198.51.100.11", interface: "eth1" }] }))).toEqual([
      expect.stringMatching(
        /^lvs:topology\.haPairs\.pair\.floatingAddresses\[0\]\.address: "198\.51\.100\.11" is the primary's own address/,
      ),
    ]);
    // A service's VIP that is a member's SSH address: the service's own rule names it, the pair's adds nothing.
    const onHost = withPair();
    onHost.services.web.address = "198.51.100.12";
    onHost.services.web.realServers = { rs2: { address: "198.51.100.22", forwarding: "dr" } };
    expect(reasons(onHost)).toEqual([
      'lvs:topology.services.web.address: "198.51.100.12" is the address of directors[1] (its connection.host): a VIP is taken off the directors when the service goes or the VIP moves, and the director would lose the address it is reached on; use another VIP',
    ]);
    // One that is a member's unicast VRRP address: only the pair knows, and names it at the service.
    const unicast = withPair({
      primary: { director: "dir1", interface: "eth0", addresses: ["198.51.100.40", "2001:db8:1::11"] },
      backup: { director: "dir2", interface: "eth0", addresses: ["198.51.100.14", "2001:db8:1::12"] },
    });
    expect(reasons(unicast)).toEqual([
      expect.stringMatching(
        /^lvs:topology\.services\.web\.address: "198\.51\.100\.40" is the primary's own address \(primary\.addresses\[0\]\)/,
      ),
    ]);
  });

  test("a pair without VIPs, a director in two pairs and a reused router id are refused", () => {
    const raw = withPair();
    raw.directors.dir3 = { connection: { host: "198.51.100.13", hostKey: HOST_KEY } };
    raw.services.web.directors = ["dir1"];
    raw.services.web6.directors = ["dir3"];
    raw.haPairs.other = { ...raw.haPairs.pair, primary: { director: "dir3", interface: "eth0" } };
    expect(reasons(raw)).toEqual([
      "lvs:topology.haPairs.pair: (object) carries no VIP: no service names both its directors and it has no floatingAddresses",
      'lvs:topology.haPairs.other.backup.director: "dir2" is already in lvs:topology.haPairs.pair: a director serves one pair',
      "lvs:topology.haPairs.other.virtualRouterId: 51 is already used by lvs:topology.haPairs.pair",
      "lvs:topology.haPairs.other: (object) carries no VIP: no service names both its directors and it has no floatingAddresses",
    ]);
  });
});

test("a real server on its service's VIP, and directorAddress without host, are named at their keys", () => {
  const raw = topology();
  raw.services.web.realServers.rs2.address = "198.51.100.40";
  raw.services.web.realServers.nrs1 = { address: "198.51.100.71", forwarding: "nat", directorAddress: "198.51.100.66" };
  raw.services.marked = {
    directors: ["dir1"],
    fwmark: 5,
    scheduler: "rr",
    match: { protocol: "tcp", addresses: ["198.51.100.41"], ports: [80] },
    realServers: { rs1: { address: "198.51.100.41", forwarding: "dr" } },
  };
  expect(reasons(raw)).toEqual([
    'lvs:topology.services.web.realServers.rs2.address: "198.51.100.40" is the service\'s VIP (service.address): a real server needs an address of its own, which the directors do not hold',
    expect.stringMatching(
      /^lvs:topology\.services\.web\.realServers\.nrs1\.directorAddress: "198\.51\.100\.66" needs host: /,
    ),
    expect.stringMatching(
      /^lvs:topology\.services\.marked\.realServers\.rs1\.address: "198\.51\.100\.41" is the service's VIP \(service\.match\.addresses\.0\)/,
    ),
  ]);
});

test("a fwmark service's matched VIPs must be in the declared subnets too: the one outside is named", () => {
  const raw = topology();
  raw.services.marked = {
    directors: ["dir1"],
    fwmark: 5,
    scheduler: "rr",
    match: { protocol: "tcp", addresses: ["198.51.100.41", "203.0.113.41"], ports: [80, 8443] },
    realServers: { rs1: { address: "198.51.100.21", forwarding: "dr" } },
  };
  expect(reasons(raw)).toEqual([
    'lvs:topology.services.marked.match.addresses[1]: "203.0.113.41" is not in any of lvs:topology.subnets (198.51.100.0/26, 2001:db8:1::/64)',
  ]);
  raw.services.marked.match.addresses = ["198.51.100.41"];
  expect(reasons(raw)).toEqual([]);
});

test("a renamed key names its former key with renamedFrom; it must be a valid name", () => {
  const renamed = topology();
  renamed.services.shop = { ...renamed.services.web, renamedFrom: "web" };
  renamed.services.shop.realServers.rs1.renamedFrom = "old-rs1";
  delete renamed.services.web;
  const parsed = parseTopologyConfig(renamed);
  expect(parsed.services.shop.renamedFrom).toBe("web");
  expect(parsed.services.shop.realServers.rs1.renamedFrom).toBe("old-rs1");
  renamed.services.shop.renamedFrom = "Web!";
  expect(reasons(renamed)).toEqual([
    'lvs:topology.services.shop.renamedFrom: "Web!" is not a valid service name ([a-z][a-z0-9-]*)',
  ]);
});
