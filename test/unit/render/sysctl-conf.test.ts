import { renderSysctlConf } from "../../../provider/render/sysctl-conf";
import { header } from "../../../provider/render/header";

test("sysctl.d file, keys sorted", () => {
  expect(renderSysctlConf({ "net.ipv4.vs.expire_nodest_conn": "1", "net.ipv4.ip_forward": "1" })).toBe(
    "# Managed by lvs-pulumi; edits are overwritten.\nnet.ipv4.ip_forward = 1\nnet.ipv4.vs.expire_nodest_conn = 1\n",
  );
});

test("the same settings in another order render the same file (no rewrite for a reordered claim)", () => {
  const a = {
    "net.ipv4.conf.all.arp_ignore": "1",
    "net.ipv4.conf.all.arp_announce": "2",
    "net.ipv4.conf.lo.arp_ignore": "1",
  };
  const b = Object.fromEntries(Object.entries(a).reverse());
  expect(renderSysctlConf(b)).toBe(renderSysctlConf(a));
});

test("a VLAN device's key is written as given, slashes and all; no settings: only the header", () => {
  expect(renderSysctlConf({ "net.ipv6.conf.eth0/100.ndisc_notify": "1" })).toBe(
    `${header()}net.ipv6.conf.eth0/100.ndisc_notify = 1\n`,
  );
  expect(renderSysctlConf({})).toBe(header());
});
