import { labTopology } from "../../lab/lab";
import { describeScenario } from "./scenario";

// trs1 is on a routed remote subnet; rs2 shares the director's segment. Both decapsulate on tunl0.
describeScenario({
  name: "tun",
  vip: labTopology().freeVips.ipv4[2],
  forwarding: "tun",
  realServers: [
    { host: "trs1", address: "198.51.100.141" },
    { host: "rs2", address: "198.51.100.22" },
  ],
  hosts: ["dir1", "trs1", "rs2"],
});
