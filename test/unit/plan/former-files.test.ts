import {
  formerFileOf,
  holdsClaim,
  holdsDestination,
  holdsService,
  holdsSnatRule,
  planFormerFileRemoval,
} from "../../../provider/plan/former-files";
import { stepAudit } from "../../../provider/plan/step";

// 2001:db8:1::5 and 2001:db8::1:5 had one former file name: the content tells whose the file is.
const A = "tcp:[2001:db8:1::5]:80";
const B = "tcp:[2001:db8::1:5]:80";
const PATH = "/etc/lvs-pulumi/ipvs.d/10-svc-tcp_2001_db8_1_5_80.rules";

test("a former service fragment is the key's only when it defines that service", () => {
  const fragment = "-A -t [2001:db8:1::5]:80 -s wlc\n";
  expect(holdsService(A)(fragment)).toBe(true);
  expect(holdsService(B)(fragment)).toBe(false);
  expect(holdsService(A)("not ipvsadm rules\n")).toBe(false);
});

test("a former real server fragment is the key's only when it defines that real server", () => {
  const fragment = "-a -t [2001:db8:1::5]:80 -r [2001:db8::21]:80 -g -w 1\n";
  expect(holdsDestination(`${A}/[2001:db8::21]:80`)(fragment)).toBe(true);
  expect(holdsDestination(`${B}/[2001:db8::21]:80`)(fragment)).toBe(false);
});

test("a former SNAT fragment is the real server's whatever its DIP", () => {
  const content =
    "ip6tables -d 2001:db8::21/128 -m ipvs --vaddr 2001:db8:1::5/128 --vport 80 -j SNAT --to-source 2001:db8::66\n";
  const rule = { vip: "2001:db8:1::5", port: 80, rip: "2001:db8::21", toSource: "2001:db8::67" };
  expect(holdsSnatRule(rule)(content)).toBe(true);
  expect(holdsSnatRule({ ...rule, vip: "2001:db8::1:5" })(content)).toBe(false);
});

test("a former claim file is the claim with that id", () => {
  expect(holdsClaim(`vs:${A}`)(JSON.stringify({ id: `vs:${A}`, vips: [] }))).toBe(true);
  expect(holdsClaim(`vs:${B}`)(JSON.stringify({ id: `vs:${A}`, vips: [] }))).toBe(false);
  expect(holdsClaim(`vs:${A}`)("{")).toBe(false);
});

test("a former file that is the key's is removed; another key's, an absent one or none is left alone", () => {
  const ours = formerFileOf(PATH, "-A -t [2001:db8:1::5]:80 -s wlc\n", holdsService(A));
  expect(ours).toEqual({ path: PATH, content: "-A -t [2001:db8:1::5]:80 -s wlc\n" });
  expect(planFormerFileRemoval(ours).map(stepAudit)).toEqual([`rm -f ${PATH}`]);
  expect(formerFileOf(PATH, "-A -t [2001:db8::1:5]:80 -s wlc\n", holdsService(A))).toBeUndefined();
  expect(formerFileOf(PATH, null, holdsService(A))).toBeUndefined();
  expect(formerFileOf(undefined, null, holdsService(A))).toBeUndefined();
  expect(planFormerFileRemoval(undefined)).toEqual([]);
});
