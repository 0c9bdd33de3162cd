import { checkedConfConflict, enableFiles } from "../../../provider/plan/checkedServices";
import { renderCheckedOnlyConf } from "../../../provider/render/checkedServices";
import { renderKeepalivedConf } from "../../../provider/render/keepalivedConf";
import { checkedServicePaths, KEEPALIVED_CHECKED_DIR } from "../../../provider/render/paths";
import { haPairInputsSchema } from "../../../provider/schemas/haPair";

const KEY = "tcp:198.51.100.40:80";
const pair = haPairInputsSchema().parse({
  primary: { connection: { host: "198.51.100.11", insecureSkipHostKeyCheck: true }, interface: "eth0" },
  backup: { connection: { host: "198.51.100.12", insecureSkipHostKeyCheck: true }, interface: "eth0" },
  virtualRouterId: 51,
  vips: ["198.51.100.46"],
});
const paths = checkedServicePaths(KEY);

describe("enable files: keepalived includes a checked service only while it has real servers", () => {
  it("a service with no real server is not included; its first real server includes it", () => {
    const service = [{ path: paths.service, content: "virtual_server ..." }];
    expect(enableFiles([KEY], () => [], service)[0].content).toBeNull();
    const first = [{ path: `${paths.dir}/rs-198.51.100.21_80.conf`, content: "real_server ..." }];
    expect(enableFiles([KEY], () => ["service", "check"], first)[0]).toEqual({
      path: paths.enable,
      content: expect.stringContaining("include tcp_198.51.100.40_80/service\n"),
    });
  });

  it("the last real server removed, or the service removed, takes it out", () => {
    const listing = () => ["service", "check", "rs-198.51.100.21_80.conf"];
    const lastGone = [{ path: `${paths.dir}/rs-198.51.100.21_80.conf`, content: null }];
    expect(enableFiles([KEY], listing, lastGone)[0].content).toBeNull();
    expect(enableFiles([KEY], listing, [{ path: paths.service, content: null }])[0].content).toBeNull();
    expect(enableFiles([KEY], listing, [])[0].content).not.toBeNull();
  });

  it("rebased under another root (the staged copy), paths follow", () => {
    const staged = enableFiles([KEY], () => ["service", "rs-a.conf"], [], "/stage");
    expect(staged[0].path).toBe(`/stage/tcp_198.51.100.40_80.conf`);
    expect(paths.enable.startsWith(`${KEEPALIVED_CHECKED_DIR}/`)).toBe(true);
  });
});

describe("whose keepalived.conf", () => {
  it("none, or ours for checked services: usable", () => {
    expect(checkedConfConflict(null)).toBeUndefined();
    expect(checkedConfConflict(renderCheckedOnlyConf(KEEPALIVED_CHECKED_DIR))).toBeUndefined();
  });

  it("an HA pair's includes them; one written before checked services existed is refused until the pair is updated", () => {
    const conf = renderKeepalivedConf("pair-a", pair, "primary");
    expect(checkedConfConflict(conf)).toBeUndefined();
    const older = conf.replace(`include ${KEEPALIVED_CHECKED_DIR}/*.conf\n`, "");
    expect(checkedConfConflict(older)).toContain("of HA pair pair-a was written by an older lvs-pulumi");
  });

  it("someone else's: refused", () => {
    expect(checkedConfConflict("vrrp_instance X {\n}\n")).toContain("was not written by lvs-pulumi");
  });
});
