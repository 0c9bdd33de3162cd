import { labTopology } from "../../lab/lab";
import { describeScenario } from "./scenario";

describeScenario({
  name: "ipv6-dr",
  vip: labTopology().freeVips.ipv6[0],
  forwarding: "dr",
  realServers: [
    { host: "rs1", address: "2001:db8:1::21" },
    { host: "rs2", address: "2001:db8:1::22" },
  ],
  hosts: ["dir1", "rs1", "rs2"],
});
