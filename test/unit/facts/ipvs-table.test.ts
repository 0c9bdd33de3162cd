import { ipvsTable, ipvsTableFact } from "../../../provider/facts/ipvs-table";
import { ipvsadmFixture } from "./fixtures";

describe("ipvsTable", () => {
  const save = ipvsadmFixture("ipvsadm-Sn.txt");
  const thresholds = ipvsadmFixture("ipvsadm-Ln-exact-thresholds.txt");

  it("combines -Sn with the thresholds -Sn does not print", () => {
    const table = ipvsTable(save, thresholds);
    expect(table.destinations["tcp:203.0.113.108:80/198.51.100.131:80"]).toMatchObject({
      forwarding: "nat",
      weight: 3,
      upperThreshold: 100,
      lowerThreshold: 10,
    });
    expect(table.destinations["tcp:203.0.113.108:80/198.51.100.132:8080"]).toMatchObject({
      upperThreshold: 200,
      lowerThreshold: 20,
    });
  });

  it("reads both listings from one command", () => {
    const fact = ipvsTableFact();
    expect(fact.command).toBe(
      "ipvsadm -Sn && echo '--- lvs-pulumi thresholds ---' && ipvsadm -Ln --exact --thresholds",
    );
    const stdout = `${save}--- lvs-pulumi thresholds ---\n${thresholds}`;
    expect(fact.parse(stdout)).toEqual(ipvsTable(save, thresholds));
  });
});
