import { labTopology } from "../../lab/lab";
import { describeScenario } from "./scenario";

// Neither real server routes back through the director: trs1 is behind the router, nrs1 has no default route at
// all. Each sees the director's DIP on its own subnet as the client address.
const dips = labTopology().directors.dir1.dip;
describeScenario({
  name: "fullnat",
  vip: labTopology().freeVips.ipv4[3],
  forwarding: "fullnat",
  realServers: [
    { host: "trs1", address: "198.51.100.141", extra: { snatSource: dips.lan } },
    { host: "nrs1", address: "198.51.100.71", extra: { snatSource: dips.nat } },
  ],
  hosts: ["dir1", "trs1", "nrs1"],
});
