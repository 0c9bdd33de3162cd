import { renderRealServerRestoreScript } from "../../../provider/render/real-server-restore-script";

test("real server restore script replays the union of claims", () => {
  const script = renderRealServerRestoreScript({
    vips: [
      { dev: "tunl0", cidr: "203.0.113.101/32" },
      { dev: "lo", cidr: "2001:db8::1/128" },
    ],
    sysctls: { "net.ipv4.conf.tunl0.rp_filter": "0" },
    routes: [{ family: "inet6", to: "default", via: "2001:db8::fe" }],
    modules: ["ipip"],
    links: ["tunl0"],
  });
  expect(script).toBe(`#!/bin/sh
# Managed by lvs-pulumi; edits are overwritten.
set -u
rc=0
modprobe ipip || rc=1
sysctl -q -p /etc/sysctl.d/90-lvs-pulumi-realserver.conf || rc=1
ip link set dev tunl0 up || rc=1
ip addr replace 203.0.113.101/32 dev tunl0 || rc=1
ip addr replace 2001:db8::1/128 dev lo preferred_lft 0 || rc=1
ip -6 route replace default via 2001:db8::fe || rc=1
exit $rc
`);
});
