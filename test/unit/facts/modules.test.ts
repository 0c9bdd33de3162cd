import { loadedModulesFact } from "../../../provider/facts/modules";

test("loaded modules from /proc/modules", () => {
  const fact = loadedModulesFact();
  expect(fact.command).toBe("cat /proc/modules");
  const procModules =
    "ip_vs_rr 12288 1 - Live 0x0000000000000000\n" +
    "ip_vs 200704 3 ip_vs_rr, Live 0x0000000000000000\n" +
    "nf_conntrack 196608 2 ip_vs,nf_nat, Live 0x0000000000000000\n";
  expect(fact.parse(procModules)).toEqual(["ip_vs", "ip_vs_rr", "nf_conntrack"]);
});
