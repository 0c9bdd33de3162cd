import { availableSchedulersFact } from "../../../provider/facts/schedulers";

test("scheduler modules shipped with the running kernel", () => {
  const fact = availableSchedulersFact();
  expect(fact.command).toBe('ls "/lib/modules/$(uname -r)/kernel/net/netfilter/ipvs/" 2>/dev/null || true');
  const ls =
    "ip_vs.ko.xz\nip_vs_dh.ko.xz\nip_vs_fo.ko.xz\nip_vs_ftp.ko.xz\nip_vs_lblc.ko.xz\nip_vs_lblcr.ko.xz\n" +
    "ip_vs_lc.ko.zst\nip_vs_mh.ko\nip_vs_nq.ko.xz\nip_vs_ovf.ko.xz\nip_vs_pe_sip.ko.xz\nip_vs_rr.ko.xz\n" +
    "ip_vs_sed.ko.xz\nip_vs_sh.ko.xz\nip_vs_twos.ko.xz\nip_vs_wlc.ko.xz\nip_vs_wrr.ko.xz\n";
  expect(fact.parse(ls)).toEqual([
    "dh",
    "fo",
    "lblc",
    "lblcr",
    "lc",
    "mh",
    "nq",
    "ovf",
    "rr",
    "sed",
    "sh",
    "twos",
    "wlc",
    "wrr",
  ]);
  expect(fact.parse("")).toEqual([]);
});
