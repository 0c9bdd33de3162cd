import { labTopology } from "../../lab/lab";
import { describeScenario } from "./scenario";

describeScenario({
  name: "dr",
  vip: labTopology().freeVips.ipv4[0],
  forwarding: "dr",
  realServers: [
    { host: "rs1", address: "198.51.100.21" },
    { host: "rs2", address: "198.51.100.22" },
  ],
  hosts: ["dir1", "rs1", "rs2"],
});
