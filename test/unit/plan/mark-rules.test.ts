import { stepRun } from "../../../provider/plan/step";
import { MarkRule } from "../../../provider/model/mark-rule";
import { parseMarkRules } from "../../../provider/facts/mark-rules";
import { planMarkRules, planServiceMarks } from "../../../provider/plan/mark-rules";
import { desiredMarkRules, desiredService } from "../../../provider/plan/desired-entries";
import { stepAudit } from "../../../provider/plan/step";
import { markFragmentPath } from "../../../provider/model/host-paths";
import { serviceKey } from "../../../provider/model/ipvs";
import { renderMarkRules } from "../../../provider/render/mark-rules";
import { virtualServiceInputsSchema } from "../../../provider/schemas/virtual-service";
import { iptablesFixture } from "../facts/fixtures";

const rule = (ports: string, over: Partial<MarkRule> = {}): MarkRule => ({
  owner: "fwm:7",
  vip: "198.51.100.51",
  protocol: "tcp",
  ports,
  mark: 7,
  ...over,
});
const live = parseMarkRules(iptablesFixture("mangle-PREROUTING.txt"));

describe("fwmark mark rules", () => {
  it("adds missing rules to mangle PREROUTING, one per VIP and port (range)", () => {
    expect(planMarkRules("fwm:7", [rule("80"), rule("8443:8444")], [])).toEqual([
      "iptables -w -t mangle -A PREROUTING -d 198.51.100.51/32 -p tcp -m tcp --dport 80 -m comment --comment lvs-pulumi:fwm:7 -j MARK --set-mark 7",
      "iptables -w -t mangle -A PREROUTING -d 198.51.100.51/32 -p tcp -m tcp --dport 8443:8444 -m comment --comment lvs-pulumi:fwm:7 -j MARK --set-mark 7",
    ]);
  });

  it("is converged when iptables lists them (as --set-xmark, comment quoted)", () => {
    expect(planMarkRules("fwm:7", [rule("80"), rule("8000:8100")], live)).toEqual([]);
  });

  it("a new match adds the new rules first, then deletes the owner's old ones", () => {
    expect(planMarkRules("fwm:7", [rule("80"), rule("8000:8200")], live)).toEqual([
      "iptables -w -t mangle -A PREROUTING -d 198.51.100.51/32 -p tcp -m tcp --dport 8000:8200 -m comment --comment lvs-pulumi:fwm:7 -j MARK --set-mark 7",
      "iptables -w -t mangle -D PREROUTING -d 198.51.100.51/32 -p tcp -m tcp --dport 8000:8100 -m comment --comment lvs-pulumi:fwm:7 -j MARK --set-mark 7",
    ]);
  });

  it("removal deletes only the owner's rules: never another service's, never a foreign rule", () => {
    const steps = planMarkRules("fwm:7", [], live);
    expect(steps).toHaveLength(2);
    expect(
      steps.every((step) => step.startsWith("iptables -w -t mangle -D PREROUTING") && step.includes("fwm:7 ")),
    ).toBe(true);
    expect(planMarkRules("fwm:8", [], live)).toEqual([]);
  });

  it("uses ip6tables and /128 for IPv6", () => {
    expect(planMarkRules("fwm6:9", [rule("443", { owner: "fwm6:9", vip: "2001:db8:1::100", mark: 9 })], [])).toEqual([
      "ip6tables -w -t mangle -A PREROUTING -d 2001:db8:1::100/128 -p tcp -m tcp --dport 443 -m comment --comment lvs-pulumi:fwm6:9 -j MARK --set-mark 9",
    ]);
  });
});

describe("a fwmark service's marks and their boot file", () => {
  const service = virtualServiceInputsSchema().parse({
    directors: [{ host: "198.51.100.11", insecureSkipHostKeyCheck: true }],
    fwmark: 7,
    match: { protocol: "tcp", addresses: ["198.51.100.51"], ports: [80, "8000-8100"] },
    bindVip: false,
  });
  const key = serviceKey(desiredService(service).id);
  const path = markFragmentPath(key);
  const file = renderMarkRules(desiredMarkRules(service));

  it("on the captured chain (its rules there, the file written): converged; the file only when it is missing", () => {
    expect(key).toBe("fwm:7");
    expect(planServiceMarks(key, service, path, false, live, file).map(stepRun)).toEqual([]);
    expect(planServiceMarks(key, service, path, false, live, null).map(stepAudit)).toEqual([
      expect.stringMatching(`^write ${path} `),
    ]);
  });

  it("on a chain without them: the file written first, then the rules added", () => {
    const steps = planServiceMarks(key, service, path, false, [], null).map(stepAudit);
    expect(steps[0]).toMatch(new RegExp(`^write ${path} `));
    expect(steps.slice(1)).toEqual(planMarkRules(key, desiredMarkRules(service), []));
    expect(steps).toHaveLength(3);
  });

  it("removed: the file goes, and the service's rules; the others in the chain stay", () => {
    expect(planServiceMarks(key, service, path, true, live, file).map(stepRun)).toEqual([
      `rm -f ${path}`,
      "iptables -w -t mangle -D PREROUTING -d 198.51.100.51/32 -p tcp -m tcp --dport 80 -m comment --comment lvs-pulumi:fwm:7 -j MARK --set-mark 7",
      "iptables -w -t mangle -D PREROUTING -d 198.51.100.51/32 -p tcp -m tcp --dport 8000:8100 -m comment --comment lvs-pulumi:fwm:7 -j MARK --set-mark 7",
    ]);
  });
});
