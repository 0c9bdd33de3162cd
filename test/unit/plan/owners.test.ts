import {
  claimIdsOf,
  parseOwners,
  releasedClaimIds,
  renderOwners,
  stackOf,
  withOwner,
  withoutOwner,
} from "../../../provider/plan/owners";

const urn = (name: string, stack = "prod") => `urn:pulumi:${stack}::lb::pulumi-nodejs:dynamic/lvs:RealServer::${name}`;
const old = urn("web-rs1");
const renamed = urn("web-rs1-new");

describe("owners of an entry", () => {
  test("a URN's stack is project and stack", () => {
    expect(stackOf(urn("x", "staging"))).toBe("lb/staging");
  });

  test("a rename: the new name joins the old one, which then leaves without removing the entry", () => {
    const joined = withOwner([{ urn: old }], { urn: renamed }, false, "real server k", "dir1");
    expect(joined).toEqual([{ urn: old }, { urn: renamed }]);
    expect(withoutOwner(joined, { urn: old })).toEqual({ owners: [{ urn: renamed }], last: false, removeEntry: false });
    expect(withoutOwner([{ urn: renamed }], { urn: renamed })).toEqual({ owners: [], last: true, removeEntry: true });
  });

  test("an entry of another stack is refused, naming its owner; its removal from here touches nothing", () => {
    expect(() => withOwner([{ urn: old }], { urn: urn("web-rs1", "staging") }, false, "real server k", "dir1")).toThrow(
      `host dir1: real server k is owned by ${old} (stack lb/prod); declare it in one stack only; nothing was changed`,
    );
    expect(withoutOwner([{ urn: old }], { urn: urn("web-rs1", "staging") })).toEqual({
      owners: [{ urn: old }],
      last: false,
      removeEntry: false,
    });
  });

  test("an undone create keeps the entry it adopted live, and removes one it made", () => {
    const adopted = withOwner(undefined, { urn: old }, true, "k", "dir1");
    expect(adopted).toEqual([{ urn: old, adopted: true }]);
    expect(withoutOwner(adopted, { urn: old, undo: true })).toEqual({ owners: [], last: true, removeEntry: false });
    // A delete of the adopted entry (not an undo) removes it, as adopt promises.
    expect(withoutOwner(adopted, { urn: old }).removeEntry).toBe(true);
    expect(withoutOwner([{ urn: old }], { urn: old, undo: true }).removeEntry).toBe(true);
  });

  test("an update through an alias moves the record to the new URN, keeping adopted", () => {
    const moved = withOwner([{ urn: old, adopted: true }], { urn: renamed, formerUrn: old }, false, "k", "dir1");
    expect(moved).toEqual([{ urn: renamed, adopted: true }]);
  });

  test("an entry of an older lvs-pulumi (no owners file) goes by its key, as it did", () => {
    expect(withOwner(undefined, { urn: old }, false, "k", "dir1")).toEqual([{ urn: old }]);
    expect(withoutOwner(undefined, { urn: old })).toEqual({ owners: [], last: true, removeEntry: true });
  });

  test("owners files round-trip; none left removes the file", () => {
    const text = renderOwners([{ urn: renamed }, { urn: old, adopted: true }]);
    expect(parseOwners(text!)).toEqual([{ urn: old, adopted: true }, { urn: renamed }]);
    expect(renderOwners([])).toBeNull();
    expect(parseOwners(null)).toBeUndefined();
  });

  test("claims are held per owner; the older unowned claim gives way, and goes on release only with the last owner", () => {
    const ids = claimIdsOf("rs:k", { urn: renamed, formerUrn: old });
    expect(ids.own).toMatch(/^rs:k@[0-9a-f]{12}$/);
    expect(ids.superseded).toEqual([claimIdsOf("rs:k", { urn: old }).own, "rs:k"]);
    expect(releasedClaimIds("rs:k", { urn: old }, false)).toEqual([claimIdsOf("rs:k", { urn: old }).own]);
    expect(releasedClaimIds("rs:k", { urn: old }, true)).toEqual([claimIdsOf("rs:k", { urn: old }).own, "rs:k"]);
    expect(claimIdsOf("rs:k", { urn: undefined })).toEqual({ own: "rs:k", superseded: [] });
  });
});
