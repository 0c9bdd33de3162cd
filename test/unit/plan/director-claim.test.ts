import { parseHostClaims } from "../../../provider/facts/host-claims";
import { directorClaim, directorRelease } from "../../../provider/plan/director-claim";
import { ownerTag } from "../../../provider/plan/owners";
import { renderClaimFile } from "../../../provider/render/claim-file";

const urn = (name: string) => `urn:pulumi:prod::lb::pulumi-nodejs:dynamic/lvs:Director::${name}`;
const state = { modules: ["ip_vs", "ip_vs_wlc"], sysctls: { "net.ipv4.vs.expire_nodest_conn": "1" } };
const dir1 = { urn: urn("dir1") };
const renamed = { urn: urn("dir1-new"), formerUrn: urn("dir1") };
/** The claims a host stores, as `cat claims.d/*.json` lists them. */
const stored = (...ids: string[]) =>
  parseHostClaims(ids.map((id) => renderClaimFile({ ...directorClaim(state, dir1).claim, id })).join(""));

test("a Director holds the setup under its own claim, replacing an older lvs-pulumi's and its former name's", () => {
  expect(directorClaim(state, dir1)).toEqual({
    claim: {
      id: `director@${ownerTag(urn("dir1"))}`,
      vips: [],
      sysctls: state.sysctls,
      routes: [],
      modules: state.modules,
      links: [],
    },
    superseded: ["director"],
  });
  expect(directorClaim(state, renamed).superseded).toEqual([`director@${ownerTag(urn("dir1"))}`, "director"]);
  // State older than URNs in outputs: the shared claim of an older lvs-pulumi, replacing nothing.
  expect(directorClaim(state, { urn: undefined })).toMatchObject({ claim: { id: "director" }, superseded: [] });
});

test("removed while another Director holds the host (a rename's old name): only its own claim goes", () => {
  const mine = `director@${ownerTag(urn("dir1"))}`;
  const theirs = `director@${ownerTag(urn("dir1-new"))}`;
  expect(directorRelease(stored(mine, theirs), dir1)).toEqual({ shared: true, release: [mine] });
  // An older lvs-pulumi's shared claim stays with the owners left.
  expect(directorRelease(stored(mine, "director"), dir1)).toEqual({ shared: true, release: [mine] });
  // Other claims on the host (a real server's, a VIP's) are not Directors.
  expect(
    directorRelease(
      stored(mine, "rs-director:tcp:203.0.113.101:80/198.51.100.131:80", "vs:tcp:203.0.113.101:80"),
      dir1,
    ),
  ).toEqual({
    shared: false,
    release: [mine, "director"],
  });
});

test("the last Director removed: the setup goes, its claim and an older one's last", () => {
  expect(directorRelease(stored(`director@${ownerTag(urn("dir1"))}`), dir1)).toEqual({
    shared: false,
    release: [`director@${ownerTag(urn("dir1"))}`, "director"],
  });
  // A rename's new name removed last takes its former name's claim too.
  expect(directorRelease(stored(`director@${ownerTag(urn("dir1"))}`), renamed)).toEqual({
    shared: false,
    release: [`director@${ownerTag(urn("dir1-new"))}`, `director@${ownerTag(urn("dir1"))}`, "director"],
  });
  expect(directorRelease(stored("director"), { urn: undefined })).toEqual({ shared: false, release: ["director"] });
});
