import {
  claimPath,
  formerPath,
  destinationFragmentPath,
  serviceFragmentPath,
  snatFragmentPath,
} from "../../../provider/model/host-paths";

test("fragment names sort services before real servers and survive any key", () => {
  expect(serviceFragmentPath("tcp:203.0.113.101:80")).toBe("/etc/lvs-pulumi/ipvs.d/10-svc-tcp_203.0.113.101_80.rules");
  expect(destinationFragmentPath("tcp:[2001:db8::1]:80/[2001:db8::11]:80")).toBe(
    "/etc/lvs-pulumi/ipvs.d/20-rs-tcp_20010db8000000000000000000000001_80_20010db8000000000000000000000011_80.rules",
  );
  expect(snatFragmentPath("tcp:203.0.113.101:80/198.51.100.131:80")).toBe(
    "/etc/lvs-pulumi/snat.d/tcp_203.0.113.101_80_198.51.100.131_80.rules",
  );
  expect(claimPath("urn:pulumi:dev::lb::lvs:RealServer::web-1")).toBe(
    "/etc/lvs-pulumi/claims.d/urn_pulumi_dev_lb_lvs_RealServer_web-1.json",
  );
});

test("IPv6 keys that differ only in where the zeros are get different file names", () => {
  const a = "tcp:[2001:db8:1::5]:80";
  const b = "tcp:[2001:db8::1:5]:80";
  expect(serviceFragmentPath(a)).not.toBe(serviceFragmentPath(b));
  expect(destinationFragmentPath(`${a}/[2001:db8::11]:80`)).not.toBe(destinationFragmentPath(`${b}/[2001:db8::11]:80`));
  expect(destinationFragmentPath(`${a}/[2001:db8:1::5]:80`)).not.toBe(
    destinationFragmentPath(`${a}/[2001:db8::1:5]:80`),
  );
  expect(snatFragmentPath(`${a}/[2001:db8::11]:80`)).not.toBe(snatFragmentPath(`${b}/[2001:db8::11]:80`));
  expect(claimPath(`vs:${a}`)).not.toBe(claimPath(`vs:${b}`));
});

test("the former name of an IPv6 key is the one earlier versions wrote; other keys had today's name", () => {
  const key = "tcp:[2001:db8:1::5]:80/[2001:db8::11]:80";
  expect(formerPath(destinationFragmentPath, key)).toBe(
    "/etc/lvs-pulumi/ipvs.d/20-rs-tcp_2001_db8_1_5_80_2001_db8_11_80.rules",
  );
  expect(formerPath(serviceFragmentPath, "tcp:[2001:db8:1::5]:80")).toBe(
    "/etc/lvs-pulumi/ipvs.d/10-svc-tcp_2001_db8_1_5_80.rules",
  );
  expect(formerPath(snatFragmentPath, key)).toBe("/etc/lvs-pulumi/snat.d/tcp_2001_db8_1_5_80_2001_db8_11_80.rules");
  expect(formerPath(claimPath, "vs:tcp:[2001:db8:1::5]:80")).toBe(
    "/etc/lvs-pulumi/claims.d/vs_tcp_2001_db8_1_5_80.json",
  );
  // Two keys shared one former name.
  expect(formerPath(serviceFragmentPath, "tcp:[2001:db8::1:5]:80")).toBe(
    formerPath(serviceFragmentPath, "tcp:[2001:db8:1::5]:80"),
  );
  expect(formerPath(serviceFragmentPath, "tcp:203.0.113.101:80")).toBeUndefined();
  expect(formerPath(claimPath, "director")).toBeUndefined();
});
