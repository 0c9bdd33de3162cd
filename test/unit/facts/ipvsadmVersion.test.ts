import { ipvsadmVersionFact } from "../../../provider/facts/ipvsadmVersion";

describe("ipvsadm --version", () => {
  const fact = ipvsadmVersionFact();
  it("reads the tool and IPVS versions", () => {
    expect(fact.parse("ipvsadm v1.31 2019/12/24 (compiled with popt and IPVS v1.2.1)\n")).toEqual({
      ipvsadm: "1.31",
      ipvs: "1.2.1",
    });
  });
  it("is undefined when ipvsadm is missing", () => {
    expect(fact.command).toBe("ipvsadm --version 2>/dev/null || true");
    expect(fact.parse("")).toBeUndefined();
  });
});
