import {
  renderCheckedRealServer,
  renderCheckedService,
  renderCheckScript,
  renderHealthCheck,
} from "../../../provider/render/checked-services";
import { healthCheckSchema } from "../../../provider/schemas/health-check";

const check = (raw: Record<string, unknown>) => healthCheckSchema().parse(raw);
const body = (text: string) => text.split("\n").filter((line) => !line.startsWith("#"));

describe("a checked service's virtual_server block", () => {
  it("VIP:port: scheduler, flags, persistence, alpha, quorum and its scripts, sorry server, real servers", () => {
    const service = {
      id: { protocol: "tcp" as const, address: "198.51.100.40", port: 80 },
      scheduler: "sh",
      flags: ["sh-port"],
      persistence: { timeoutSeconds: 300, netmask: "255.255.255.0" },
      onePacket: false,
    };
    const text = renderCheckedService(service, {
      startHealthy: false,
      quorum: 2,
      hysteresis: 1,
      notifyQuorumUp: ["/usr/local/bin/page", "up"],
      notifyQuorumDown: ["/usr/local/bin/page", "down"],
      sorryServer: { address: "198.51.100.30", forwarding: "dr" as const },
    });
    expect(body(text)).toEqual([
      "virtual_server 198.51.100.40 80 {",
      "    protocol TCP",
      "    lvs_sched sh",
      "    sh-port",
      "    persistence_timeout 300",
      "    persistence_granularity 255.255.255.0",
      "    alpha",
      "    quorum 2",
      "    hysteresis 1",
      "    quorum_up /etc/keepalived/lvs-pulumi-checked/tcp_198.51.100.40_80/quorum-up.sh",
      "    quorum_down /etc/keepalived/lvs-pulumi-checked/tcp_198.51.100.40_80/quorum-down.sh",
      "    sorry_server 198.51.100.30 80",
      "    sorry_server_lvs_method DR",
      "    include rs-*.conf",
      "}",
      "",
    ]);
  });

  it("fwmark IPv6, one-packet, starting healthy: no alpha", () => {
    const service = { id: { fwmark: 7, family: "inet6" as const }, scheduler: "rr", flags: [], onePacket: true };
    expect(body(renderCheckedService(service, { startHealthy: true }))).toEqual([
      "virtual_server fwmark 7 {",
      "    ip_family inet6",
      "    lvs_sched rr",
      "    ops",
      "    include rs-*.conf",
      "}",
      "",
    ]);
  });
});

describe("checkers", () => {
  it("http: url, status, digest, virtual host, timing; inhibit first", () => {
    const text = renderHealthCheck(
      check({
        type: "http",
        path: "/health?full=1",
        digest: "0123456789abcdef0123456789abcdef",
        virtualHost: "www.lab.example",
        inhibitOnFailure: true,
        intervalSeconds: 1,
        port: 8080,
      }),
      "/unused",
    );
    expect(text.split("\n")).toEqual([
      "inhibit_on_failure",
      "HTTP_GET {",
      "    url {",
      "        path /health?full=1",
      "        status_code 200",
      "        digest 0123456789abcdef0123456789abcdef",
      "    }",
      "    virtualhost www.lab.example",
      "    connect_timeout 5",
      "    connect_port 8080",
      "    delay_loop 1",
      "    retry 1",
      "    delay_before_retry 1",
      "}",
      "",
    ]);
  });

  it("https is SSL_GET; tcp and dns name their checker", () => {
    expect(renderHealthCheck(check({ type: "https" }), "/x")).toContain("SSL_GET {\n    url {\n        path /\n");
    expect(renderHealthCheck(check({ type: "tcp", warmupSeconds: 3 }), "/x")).toMatch(/^TCP_CHECK \{\n.*warmup 3\n\}/s);
    expect(renderHealthCheck(check({ type: "dns", name: "lab.example", recordType: "AAAA" }), "/x")).toContain(
      "DNS_CHECK {\n    name lab.example\n    type AAAA\n",
    );
  });

  it("misc runs its script, which execs the argv quoted for sh (keepalived never splits the arguments)", () => {
    const misc = check({
      type: "misc",
      command: ["/usr/local/bin/check web", "--name", "it's; reboot"],
      dynamicWeight: true,
    });
    const text = renderHealthCheck(misc, "/etc/keepalived/lvs-pulumi-checked/s/check.sh");
    expect(text).toContain(
      "MISC_CHECK {\n    misc_path /etc/keepalived/lvs-pulumi-checked/s/check.sh\n    misc_dynamic\n",
    );
    expect(text).not.toContain("connect_port");
    expect(renderCheckScript(misc)).toMatch(/\nexec '\/usr\/local\/bin\/check web' --name 'it'\\''s; reboot'\n$/);
    expect(renderCheckScript(check({ type: "tcp" }))).toBeUndefined();
  });
});

describe("a checked real server's block", () => {
  const dest = {
    service: { protocol: "tcp" as const, address: "198.51.100.40", port: 80 },
    address: "198.51.100.71",
    port: 8080,
    forwarding: "nat" as const,
    weight: 3,
    upperThreshold: 100,
    lowerThreshold: 0,
  };

  it("takes the service's check file by default", () => {
    expect(body(renderCheckedRealServer(dest))).toEqual([
      "real_server 198.51.100.71 8080 {",
      "    weight 3",
      "    lvs_method NAT",
      "    uthreshold 100",
      "    include check",
      "}",
      "",
    ]);
  });

  it("runs its notify scripts when its check changes its mind", () => {
    const notify = { up: "/k/rs-a.up.sh", down: "/k/rs-a.down.sh" };
    expect(body(renderCheckedRealServer(dest, undefined, notify))).toEqual([
      "real_server 198.51.100.71 8080 {",
      "    weight 3",
      "    lvs_method NAT",
      "    uthreshold 100",
      "    notify_up /k/rs-a.up.sh",
      "    notify_down /k/rs-a.down.sh",
      "    include check",
      "}",
      "",
    ]);
  });

  it("or carries its own check", () => {
    const own = { check: check({ type: "tcp", port: 22 }), script: "/unused" };
    expect(body(renderCheckedRealServer({ ...dest, forwarding: "dr" }, own))).toContain("    TCP_CHECK {");
    expect(renderCheckedRealServer(dest, own)).not.toContain("include check");
  });
});
