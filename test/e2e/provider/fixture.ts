// Drives the real provider through the SDK's dynamic-provider host, against lab hosts, as the engine would.
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { providerFor } from "../../../provider/resources/provider";
import type { ResourceKind } from "../../../provider/kinds/registry";
import { Engine, Summary } from "../../harness/engine";
import { MonitorServer, Severity } from "../../harness/cli/monitor";
import { makeUrn, PropertyMap, ProviderHost } from "../../harness/provider-host";
import { serializeProvider } from "../../harness/serialize";
import { LabConnection, labExec, labHosts } from "../../lab/lab";

const repoRoot = path.resolve(__dirname, "../../..");

/** A lab host's connection as a user writes it: key content, pinned host keys, the VM as jump host. */
export function connectionTo(host: string): PropertyMap {
  const toInput = (c: LabConnection): PropertyMap => ({
    host: c.host,
    port: c.port,
    user: c.user,
    privateKey: fs.readFileSync(c.privateKeyPath, "utf8"),
    hostKey: c.hostKey,
    ...(c.proxy ? { proxy: toInput(c.proxy) } : {}),
  });
  return toInput(labHosts().hosts[host].connection);
}

/**
 * A lab host's connection as the non-root user with sudo, through the jump host as the same user; `credentials`
 * (its key, or an agent socket) go to both.
 */
export function sudoUserConnectionTo(host: string, credentials: PropertyMap): PropertyMap {
  const { hosts, sudoUser } = labHosts();
  const toInput = (c: LabConnection): PropertyMap => ({
    host: c.host,
    port: c.port,
    user: sudoUser.user,
    ...credentials,
    hostKey: c.hostKey,
  });
  const connection = hosts[host].connection;
  return { ...toInput(connection), sudo: true, proxy: toInput(connection.proxy!) };
}

/** As production often has it: the sudo user's key only in an ssh-agent (no key or password in the inputs). */
export function sudoAgentConnectionTo(host: string, agentSocketPath: string): PropertyMap {
  return sudoUserConnectionTo(host, { agentSocketPath });
}

export interface Declared {
  name: string;
  kind: ResourceKind;
  inputs: PropertyMap;
  /** Former names (resource option aliases), of the same kind and stack. */
  aliases?: string[];
}

const TYPES: Record<ResourceKind, string> = {
  director: "pulumi-nodejs:dynamic/lvs:Director",
  virtualService: "pulumi-nodejs:dynamic/lvs:VirtualService",
  realServer: "pulumi-nodejs:dynamic/lvs:RealServer",
  haPair: "pulumi-nodejs:dynamic/lvs:HAPair",
};

export function urnOf(name: string, kind: ResourceKind, stack?: string): string {
  return makeUrn(name, TYPES[kind], stack);
}

/** A diagnostic the provider sent the engine (what `pulumi up` shows under the resource). */
export interface Diagnostic {
  severity: Severity;
  message: string;
  urn: string;
}

/** A stack: the provider host, the serialized providers and an engine keeping state between deploys. */
export class LabStack {
  private constructor(
    public host: ProviderHost,
    public engine: Engine,
    private readonly providers: Record<ResourceKind, string>,
    readonly stack: string,
    private readonly monitor: MonitorServer,
    /** The provider's diagnostics, as the engine received them. */
    readonly diagnostics: Diagnostic[],
  ) {}

  /** `stack`: the stack name in the URNs (two stacks of one project declare the same resources apart). */
  static async start(stack = "test"): Promise<LabStack> {
    const diagnostics: Diagnostic[] = [];
    // The engine's log service, which the provider's diagnostics reach (no program runs here: nothing registers).
    const monitor = await MonitorServer.start({
      register: () => Promise.reject(new Error("no program runs in a LabStack")),
      registerOutputs: () => undefined,
      log: (severity, message, urn) => void diagnostics.push({ severity, message, urn }),
    });
    const host = await LabStack.startHost(monitor);
    const state = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "lvs-stack-")), "state.json");
    const kinds = Object.keys(TYPES) as ResourceKind[];
    const texts = await Promise.all(kinds.map((kind) => serializeProvider(providerFor(kind))));
    const providers = Object.fromEntries(kinds.map((kind, i) => [kind, texts[i]])) as Record<ResourceKind, string>;
    if (process.env.LVS_TEST_PROVIDER_LOG === "1") {
      // Troubleshooting: the provider host's log lines, kept current in a file while the test runs.
      const logFile = path.join(os.tmpdir(), `lvs-provider-host-${host.pid}.log`);
      setInterval(() => fs.writeFileSync(logFile, host.logs.map((l) => l.line).join("\n")), 2000).unref();
    }
    return new LabStack(host, new Engine(host, state), providers, stack, monitor, diagnostics);
  }

  private static startHost(monitor: MonitorServer, env?: Record<string, string>): Promise<ProviderHost> {
    return ProviderHost.start({ cwd: repoRoot, engineAddress: monitor.address, env });
  }

  /**
   * A new provider process with `env` added (what `VAR=value pulumi up` gives the provider), the state kept: the
   * next deploy or refresh runs in it.
   */
  async restartProvider(env: Record<string, string> = {}): Promise<void> {
    await this.host.stop();
    this.host = await LabStack.startHost(this.monitor, env);
    this.engine = new Engine(this.host, this.engine.statePath);
  }

  providerText(kind: ResourceKind): string {
    return this.providers[kind];
  }

  deploy(resources: Declared[]): Promise<Summary> {
    return this.engine.deploy(
      resources.map((r) => ({
        urn: urnOf(r.name, r.kind, this.stack),
        inputs: { ...r.inputs, __provider: this.providers[r.kind], __urn: urnOf(r.name, r.kind, this.stack) },
        aliases: r.aliases?.map((name) => urnOf(name, r.kind, this.stack)),
      })),
    );
  }

  destroy(): Promise<Summary> {
    return this.engine.destroy();
  }

  outputs(name: string, kind: ResourceKind): PropertyMap {
    return this.engine.readState()[urnOf(name, kind, this.stack)].outputs;
  }

  /** Stops the provider host and removes the state folder (it holds secret outputs in plain text). */
  async stop(): Promise<void> {
    await this.host.stop();
    await this.monitor.stop();
    fs.rmSync(path.dirname(this.engine.statePath), { recursive: true, force: true });
  }
}

/** Everything of a host the product may touch, to compare before and after. */
export async function hostSnapshot(host: string): Promise<string> {
  return labExec(
    host,
    `ipvsadm -Sn 2>/dev/null; echo ---; ip -o addr show | awk '{print $2, $4}' | grep -v fe80 | sort; echo ---
     ip route show; ip -6 route show | grep -v fe80 | sort; echo ---
     sysctl net.ipv4.ip_forward net.ipv4.conf.all.arp_ignore net.ipv4.conf.all.arp_announce net.ipv4.conf.eth0.arp_ignore \\
       net.ipv4.conf.eth0.arp_announce net.ipv4.conf.all.rp_filter net.ipv4.vs.conntrack net.ipv4.vs.expire_nodest_conn \\
       net.ipv4.vs.expire_quiescent_template net.ipv6.conf.eth0.ndisc_notify 2>/dev/null; echo ---
     iptables -t nat -S POSTROUTING; iptables -t mangle -S PREROUTING; ip6tables -t mangle -S PREROUTING; echo ---
     ls /etc/lvs-pulumi /etc/sysctl.d /etc/modules-load.d /usr/local/lib/lvs-pulumi 2>/dev/null; echo ---
     ls /etc/systemd/system/multi-user.target.wants/; echo ---
     ls /etc/keepalived; systemctl is-active keepalived lvs-pulumi-checker; ipvsadm -L --daemon`,
  );
}

/** Lines appended to the host's change log since `before` lines: what the provider really changed. */
export async function changeLogLength(host: string): Promise<number> {
  const out = await labExec(host, "wc -l < /var/log/lvs-pulumi/changes.log 2>/dev/null || echo 0");
  return Number(out.trim());
}

/**
 * The HA suites' topology: dir1 and dir2, a DR service on the VIP that the pair holds (not the service), rs1 behind it,
 * and the pair with dir1 as primary: `pair` adds the pair's own inputs (virtualRouterId, member extras, ...).
 */
export function haPairTopology(
  prefix: string,
  vip: string,
  pair: { primary?: PropertyMap; backup?: PropertyMap } & PropertyMap,
): Declared[] {
  const dir1 = connectionTo("dir1");
  const dir2 = connectionTo("dir2");
  const directors = [dir1, dir2];
  const web = { protocol: "tcp", address: vip, port: 80 };
  const { primary, backup, ...rest } = pair;
  return [
    { name: "dir1", kind: "director", inputs: { connection: dir1 } },
    { name: "dir2", kind: "director", inputs: { connection: dir2 } },
    { name: `${prefix}-web`, kind: "virtualService", inputs: { directors, ...web, scheduler: "rr", bindVip: false } },
    {
      name: `${prefix}-web-rs1`,
      kind: "realServer",
      inputs: { directors, service: web, address: "198.51.100.21", host: connectionTo("rs1") },
    },
    {
      name: `${prefix}-pair`,
      kind: "haPair",
      inputs: {
        primary: { connection: dir1, interface: "eth0", ...primary },
        backup: { connection: dir2, interface: "eth0", ...backup },
        vips: [vip],
        ...rest,
      },
    },
  ];
}
