import { directorState, planDirector } from "../../../provider/plan/director";
import { directorInputsSchema } from "../../../provider/schemas/director";

const inputs = directorInputsSchema().parse({
  connection: { host: "192.0.2.10", insecureSkipHostKeyCheck: true },
  timeouts: { tcp: 900, udp: 60 },
});

describe("director", () => {
  const state = directorState(inputs, {
    schedulers: ["wlc", "rr", "wlc"],
    forwarding: ["dr", "fullnat"],
    families: ["inet"],
  });

  it("derives modules and sysctls from what the services use", () => {
    expect(state).toEqual({
      modules: ["ip_vs", "ip_vs_rr", "ip_vs_wlc", "nf_conntrack", "xt_ipvs"],
      sysctls: {
        "net.ipv4.vs.expire_nodest_conn": "1",
        "net.ipv4.vs.expire_quiescent_template": "1",
        "net.ipv4.ip_forward": "1",
        "net.ipv4.vs.conntrack": "1",
      },
      timeouts: { tcp: 900, tcpFin: 0, udp: 60 },
    });
    const drOnly = directorState(
      { ...inputs, sysctls: { expireNodestConn: false, expireQuiescentTemplate: true } },
      { schedulers: ["sh"], forwarding: ["dr"], families: ["inet6"] },
    );
    expect(drOnly.sysctls).toEqual({
      "net.ipv4.vs.expire_nodest_conn": "0",
      "net.ipv4.vs.expire_quiescent_template": "1",
    });
    const nat6 = directorState(inputs, { schedulers: ["rr"], forwarding: ["nat"], families: ["inet6"] });
    expect(nat6.sysctls["net.ipv6.conf.all.forwarding"]).toBe("1");
  });

  it("plans modules, then sysctls, then timeouts", () => {
    const facts = {
      loadedModules: ["ip_vs", "ip_vs_rr"],
      sysctls: {
        "net.ipv4.ip_forward": "0",
        "net.ipv4.vs.expire_nodest_conn": "1",
        "net.ipv4.vs.expire_quiescent_template": "0",
      },
      timeouts: { tcp: 900, tcpFin: 120, udp: 300 },
    };
    expect(planDirector(state, facts)).toEqual([
      "modprobe ip_vs_wlc",
      "modprobe nf_conntrack",
      "modprobe xt_ipvs",
      "sysctl -w net.ipv4.ip_forward=1",
      "sysctl -w net.ipv4.vs.conntrack=1",
      "sysctl -w net.ipv4.vs.expire_quiescent_template=1",
      "ipvsadm --set 900 0 60",
    ]);
  });

  it("is converged when everything is in place", () => {
    const facts = {
      loadedModules: state.modules,
      sysctls: state.sysctls,
      timeouts: { tcp: 900, tcpFin: 120, udp: 60 },
    };
    expect(planDirector(state, facts)).toEqual([]);
  });
});
