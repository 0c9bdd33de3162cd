import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import * as pulumi from "@pulumi/pulumi";
import { LvsCluster } from "../../../provider/cluster";
import { HOSTS_DOWN_VARIABLE } from "../../../provider/operations/unreachable";
import { ClusterTopology } from "../../../provider/cluster/topology";
import { RegisterRequest, urnOf, watchRegistrations } from "../../harness/program";
import lvsStack from "../../../stacks";
import { FAKE_HOST_KEY, FAKE_KEY, writeFakeLabHosts } from "../fixtures/lab-hosts";

const KEY = FAKE_KEY;
const HOST_KEY = FAKE_HOST_KEY;
const DIRECTOR = "pulumi-nodejs:dynamic/lvs:Director";
// The directors' table outputs are read by the program over SSH (resources/live-table.test.ts reads one): these
// hosts do not exist here, and a director listed down is not dialled (its table output is undefined).
process.env[HOSTS_DOWN_VARIABLE] = "198.51.100.11,198.51.100.12,198.51.100.13";

interface Registered {
  type: string;
  name: string;
  parent: string;
  dependencies: string[];
  inputs: Record<string, unknown>;
  /** Former names, or URNs ending in them. */
  aliases: string[];
}

let registered: Map<string, Registered>;

/** Mocks whose resources echo their inputs (plus a director's computed facts); records every registration. */
async function mock(): Promise<void> {
  registered = new Map();
  const requests = new Map<string, RegisterRequest>();
  await pulumi.runtime.setMocks(
    {
      call: () => ({}),
      newResource: (args) => {
        const req = requests.get(`${args.type}::${args.name}`)!;
        const urn = urnOf("lvs-pulumi", "test", req.getParent(), args.type, args.name);
        registered.set(urn, {
          type: args.type,
          name: args.name,
          parent: req.getParent(),
          dependencies: req.getDependenciesList(),
          inputs: args.inputs,
          // By URN (an engine without alias specs) or by spec (the mocks): the former name either way.
          aliases: [
            ...req.getAliasurnsList(),
            ...req.getAliasesList().map((alias) => alias.getUrn() || alias.getSpec()?.getName() || ""),
          ],
        });
        const computed = args.type === DIRECTOR ? { kernelRelease: "6.1.0", ipvsadmVersion: "1.31" } : {};
        return { id: `${args.name}-id`, state: { ...args.inputs, ...computed } };
      },
    },
    "lvs-pulumi",
    "test",
  );
  watchRegistrations((req) => requests.set(`${req.getType()}::${req.getName()}`, req));
}

function connection(host: string) {
  return { host, hostKey: HOST_KEY, privateKey: pulumi.secret(KEY) };
}

function topology(): ClusterTopology {
  return {
    directors: { dir1: { connection: connection("198.51.100.11") }, dir2: { connection: connection("198.51.100.12") } },
    services: {
      web: {
        directors: ["dir1", "dir2"],
        protocol: "tcp",
        address: "198.51.100.40",
        port: 80,
        scheduler: "wrr",
        realServers: {
          rs1: { address: "198.51.100.21", weight: 2, forwarding: "dr", host: connection("198.51.100.21") },
          rs2: { address: "198.51.100.22", forwarding: "dr" },
        },
      },
      web6: {
        directors: ["dir1"],
        protocol: "tcp",
        address: "2001:db8:1::100",
        port: 443,
        realServers: { rs1: { address: "2001:db8:1::21", forwarding: "dr" } },
      },
    },
  };
}

function value<T>(output: pulumi.Output<T>): Promise<T> {
  return new Promise((resolve) => output.apply(resolve));
}

function isSecret(output: pulumi.Output<unknown>): Promise<boolean> {
  return pulumi.isSecret(output);
}

function byName(name: string): [string, Registered] {
  const hit = [...registered.entries()].find(([, r]) => r.name === name);
  if (!hit) throw new Error(`${name} was not registered`);
  return hit;
}

describe("LvsCluster", () => {
  let cluster: LvsCluster;
  let clusterUrn: string;

  beforeAll(async () => {
    await mock();
    cluster = new LvsCluster("lab", topology());
    clusterUrn = await value(cluster.urn);
    await value(cluster.vips);
    await value(cluster.realServerResources.web6.rs1.urn);
  });

  test("one Director, VirtualService and RealServer per topology entry, all children of the component", () => {
    const children = [...registered.values()].filter((r) => r.type !== "lvs:index:LvsCluster");
    expect(children.map((r) => `${r.type.split(":").pop()} ${r.name}`).sort()).toEqual([
      "Director lab-dir1",
      "Director lab-dir2",
      "RealServer lab-web-rs1",
      "RealServer lab-web-rs2",
      "RealServer lab-web6-rs1",
      "VirtualService lab-web",
      "VirtualService lab-web6",
    ]);
    for (const child of children)
      expect({ name: child.name, parent: child.parent }).toEqual({ name: child.name, parent: clusterUrn });
    expect(clusterUrn).toBe("urn:pulumi:test::lvs-pulumi::lvs:index:LvsCluster::lab");
  });

  test("a service depends on its directors; a real server on its service", () => {
    const [dir1] = byName("lab-dir1");
    const [dir2] = byName("lab-dir2");
    const [web, webReg] = byName("lab-web");
    const [web6, web6Reg] = byName("lab-web6");
    expect(webReg.dependencies.sort()).toEqual([dir1, dir2].sort());
    expect(web6Reg.dependencies).toEqual([dir1]);
    expect(byName("lab-web-rs1")[1].dependencies).toEqual([web]);
    expect(byName("lab-web-rs2")[1].dependencies).toEqual([web]);
    expect(byName("lab-web6-rs1")[1].dependencies).toEqual([web6]);
    expect(dir1).toBe(urnOf("lvs-pulumi", "test", clusterUrn, DIRECTOR, "lab-dir1"));
  });

  test("each resource gets its part of the topology", () => {
    expect(byName("lab-web")[1].inputs).toMatchObject({
      protocol: "tcp",
      address: "198.51.100.40",
      port: 80,
      scheduler: "wrr",
    });
    const rs1 = byName("lab-web-rs1")[1].inputs;
    expect(rs1).toMatchObject({ address: "198.51.100.21", weight: 2, forwarding: "dr" });
    expect(rs1.service).toEqual({ protocol: "tcp", address: "198.51.100.40", port: 80 });
    expect(byName("lab-dir2")[1].inputs.__provider).toEqual(expect.stringContaining('require("lvs-pulumi/runtime")'));
  });

  test("vips and directors outputs", async () => {
    expect(await value(cluster.vips)).toEqual(["tcp:198.51.100.40:80", "tcp:[2001:db8:1::100]:443"]);
    expect(await value(cluster.directors)).toEqual({
      dir1: { host: "198.51.100.11", kernelRelease: "6.1.0", ipvsadmVersion: "1.31", table: undefined },
      dir2: { host: "198.51.100.12", kernelRelease: "6.1.0", ipvsadmVersion: "1.31", table: undefined },
    });
  });

  test("the private key stays secret: in the inputs sent, in the resources' outputs; derived outputs are not", async () => {
    const secretWrapped = (v: unknown) =>
      (v as Record<string, unknown>)[pulumi.runtime.specialSigKey] === pulumi.runtime.specialSecretSig;
    expect(secretWrapped(byName("lab-dir1")[1].inputs.connection)).toBe(true);
    expect(secretWrapped(byName("lab-web")[1].inputs.directors)).toBe(true);
    expect(secretWrapped(byName("lab-web-rs1")[1].inputs.host)).toBe(true);
    expect(secretWrapped(byName("lab-web-rs2")[1].inputs.directors)).toBe(true);
    expect(await isSecret(cluster.directorResources.dir1.connection)).toBe(true);
    expect(await isSecret(cluster.serviceResources.web.directors)).toBe(true);
    expect(await isSecret(cluster.vips)).toBe(false);
    expect(await isSecret(cluster.directors)).toBe(false);
    expect(JSON.stringify(await value(cluster.directors))).not.toContain("PRIVATE KEY");
  });

  test("a key renamed with renamedFrom: the resources under the former names are aliases, not new", async () => {
    const renamed = topology();
    renamed.services.shop = { ...renamed.services.web, renamedFrom: "web" };
    renamed.services.shop.realServers = {
      first: { ...renamed.services.web.realServers.rs1, renamedFrom: "rs1" },
      rs2: renamed.services.web.realServers.rs2,
    };
    delete renamed.services.web;
    const moved = new LvsCluster("moved", renamed);
    await value(moved.realServerResources.shop.first.urn);
    await value(moved.realServerResources.shop.rs2.urn);
    // Its outputs are registered once every resource is (the table waits for them), before the next mocks.
    await value(moved.directors);
    const aliasName = (name: string) => byName(name)[1].aliases.map((urn) => urn.split("::").pop());
    expect(aliasName("moved-shop")).toEqual(["moved-web"]);
    expect(aliasName("moved-shop-first")).toEqual(["moved-web-rs1"]);
    expect(aliasName("moved-shop-rs2")).toEqual(["moved-web-rs2"]);
    expect(aliasName("moved-web6")).toEqual([]);
    expect(byName("moved-shop-first")[1].inputs).not.toHaveProperty("renamedFrom");
  });

  test("a service naming an undefined director is an error naming both", () => {
    const bad = topology();
    bad.services.web.directors = ["dir1", "dir9"];
    expect(() => new LvsCluster("bad", bad)).toThrow('LvsCluster: "web" names director "dir9", which is not defined');
  });
});

describe("LvsCluster with an HA pair", () => {
  let cluster: LvsCluster;
  let clusterUrn: string;

  function haTopology(): ClusterTopology {
    const base = topology();
    base.services.web6.directors = ["dir1", "dir2"];
    // A service on one member only is that director's own.
    base.services.solo = { directors: ["dir1"], protocol: "tcp", address: "198.51.100.41", port: 80, realServers: {} };
    // A fwmark service on the pair: the VIPs its mark matches move with the pair too.
    base.services.marked = {
      directors: ["dir1", "dir2"],
      fwmark: 7,
      match: { protocol: "tcp", addresses: ["198.51.100.42", "198.51.100.40"], ports: [80, 8443] },
      realServers: {},
    };
    base.directors.dir3 = { connection: connection("198.51.100.13") };
    base.haPairs = {
      pair: {
        primary: { director: "dir1", interface: "eth0" },
        backup: { director: "dir2", interface: "eth0" },
        virtualRouterId: 51,
        floatingAddresses: [{ address: "198.51.100.68", interface: "eth1" }],
      },
    };
    return base;
  }

  beforeAll(async () => {
    await mock();
    cluster = new LvsCluster("ha", haTopology());
    clusterUrn = await value(cluster.urn);
    await value(cluster.haPairResources.pair.urn);
    await value(cluster.vips);
  });

  test("one HAPair, child of the component, on both directors, after the services it carries and their real servers", () => {
    const [pairUrn, pair] = byName("ha-pair");
    expect(pair.type).toBe("pulumi-nodejs:dynamic/lvs:HAPair");
    expect(pair.parent).toBe(clusterUrn);
    const [dir1] = byName("ha-dir1");
    const [dir2] = byName("ha-dir2");
    const [web] = byName("ha-web");
    const [web6] = byName("ha-web6");
    const [marked] = byName("ha-marked");
    const servers = ["ha-web-rs1", "ha-web-rs2", "ha-web6-rs1"].map((name) => byName(name)[0]);
    expect(pair.dependencies.sort()).toEqual([dir1, dir2, web, web6, marked, ...servers].sort());
    expect(byName("ha-solo")[1].dependencies).not.toContain(pairUrn);
  });

  test("the pair holds its services' VIPs and the floating DIP; those services leave the VIP to it", () => {
    const pair = byName("ha-pair")[1].inputs;
    expect(pair.vips).toEqual([
      "198.51.100.40",
      "2001:db8:1::100",
      "198.51.100.42",
      { address: "198.51.100.68", interface: "eth1" },
    ]);
    expect(pair).toMatchObject({ virtualRouterId: 51 });
    expect(byName("ha-web")[1].inputs.bindVip).toBe(false);
    expect(byName("ha-web6")[1].inputs.bindVip).toBe(false);
    expect(byName("ha-marked")[1].inputs.bindVip).toBe(false);
    expect(byName("ha-solo")[1].inputs.bindVip).toBeUndefined();
  });

  test("the members' connections stay secret; the haPairs output is not", async () => {
    const primary = byName("ha-pair")[1].inputs.primary as Record<string, unknown>;
    expect(primary[pulumi.runtime.specialSigKey]).toBe(pulumi.runtime.specialSecretSig);
    expect(await isSecret(cluster.haPairs)).toBe(false);
    expect(Object.keys(await value(cluster.haPairs))).toEqual(["pair"]);
  });

  test("a pair's service on a third director too is an error, raised before any resource exists", async () => {
    const bad = haTopology();
    bad.services.web6.directors = ["dir1", "dir2", "dir3"];
    expect(() => new LvsCluster("wide", bad)).toThrow(
      'LvsCluster: service "web6" is on HA pair "pair" and more directors: list exactly dir1, dir2',
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect([...registered.values()].filter((r) => r.name.startsWith("wide-")).map((r) => r.name)).toEqual([]);
  });
});

describe("the stack program (stacks/index.ts)", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "lvs-stack-unit-"));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  const hostsFile = () => writeFakeLabHosts(dir);

  async function run(config: Record<string, string>): Promise<Record<string, pulumi.Output<unknown>>> {
    await mock();
    pulumi.runtime.setAllConfig(config, ["lvs:sshPrivateKey"]);
    return lvsStack() as unknown as Record<string, pulumi.Output<unknown>>;
  }

  test("the lab stack: connections completed from the lab hosts file, the key from the secret config", async () => {
    const { load } = await import("js-yaml");
    const stackFile = load(fs.readFileSync(path.resolve(__dirname, "../../../Pulumi.lab.yaml"), "utf8")) as {
      config: Record<string, unknown>;
    };
    const outputs = await run({
      "lvs:topology": JSON.stringify(stackFile.config["lvs:topology"]),
      "lvs:labHostsFile": hostsFile(),
      "lvs:sshPrivateKey": KEY,
    });
    expect(await value(outputs.vips)).toEqual([
      "tcp:198.51.100.46:80",
      "tcp:198.51.100.47:80",
      "tcp:198.51.100.48:80",
      "tcp:[2001:db8:1::101]:80",
    ]);
    const director = byName("lvs-dir1")[1].inputs.connection as { value: Record<string, unknown> };
    expect(director.value).toMatchObject({
      host: "198.51.100.11",
      hostKey: HOST_KEY,
      privateKey: KEY,
      proxy: { host: "127.0.0.1", port: 2222, hostKey: HOST_KEY, privateKey: KEY },
    });
    expect(director.value).not.toHaveProperty("privateKeyPath");
    expect(await isSecret(outputs.vips)).toBe(false);
    // Every output settled, so the component's outputs are registered before the next test replaces the mocks.
    expect(Object.keys(await value(outputs.haPairs as pulumi.Output<object>))).toEqual(["pair"]);
    expect(Object.keys(await value(outputs.directors as pulumi.Output<object>))).toEqual(["dir1", "dir2"]);
  });

  test("a bad config fails the program with the config key", async () => {
    const topology = {
      subnets: ["198.51.100.0/26"],
      directors: {},
      services: { web: { directors: ["dir9"], protocol: "tcp", address: "198.51.100.40", port: 80 } },
    };
    await expect(run({ "lvs:topology": JSON.stringify(topology), "lvs:sshPrivateKey": KEY })).rejects.toThrow(
      'lvs:topology.services.web.directors[0]: "dir9" is not a defined director',
    );
  });
});
