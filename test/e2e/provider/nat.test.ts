import { labTopology } from "../../lab/lab";
import { describeScenario } from "./scenario";

// The real servers sit on the private subnet behind the director and route replies back through its DIP.
const dip = labTopology().directors.dir1.dip.nat;
describeScenario({
  name: "nat",
  vip: labTopology().freeVips.ipv4[1],
  forwarding: "nat",
  realServers: [
    { host: "nrs1", address: "198.51.100.71", extra: { directorAddress: dip } },
    { host: "nrs2", address: "198.51.100.72", extra: { directorAddress: dip } },
  ],
  hosts: ["dir1", "nrs1", "nrs2"],
});
