// Who owns an entry on a host: the Pulumi resources (by URN) that declared it. A key alone says nothing about who
// wrote it: a renamed resource is created before its old name is deleted, and another stack may declare the same
// service. The entry goes only with its last owner, and never to a resource of another stack.
import { createHash } from "crypto";
import { planFiles } from "./files";
import { Step } from "./step";

/** A resource that holds the entry; `adopted`: it took over an entry that existed before (adopt: true). */
export interface Owner {
  urn: string;
  adopted?: boolean;
}

/** The resource an operation acts for. */
export interface Actor {
  /** Undefined for state older than URNs in outputs: ownership is then the key's, as it used to be. */
  urn: string | undefined;
  /** The URN the resource had before an update (a rename through aliases): its ownership moves to `urn`. */
  formerUrn?: string;
  /** Undoing a create that failed: only what the create added goes (an adopted entry stays live). */
  undo?: boolean;
}

export const NO_ACTOR: Actor = { urn: undefined };

/** The owners recorded in an owners file; undefined when there is none (an entry of an older lvs-pulumi). */
export function parseOwners(content: string | null): Owner[] | undefined {
  if (content === null) return undefined;
  const parsed = JSON.parse(content) as { owners?: Owner[] };
  return (parsed.owners ?? []).filter((o) => typeof o.urn === "string");
}

/** The owners file's content; null once nobody owns the entry. */
export function renderOwners(owners: Owner[]): string | null {
  if (owners.length === 0) return null;
  const sorted = [...owners].sort((a, b) => a.urn.localeCompare(b.urn));
  return `${JSON.stringify({ owners: sorted.map((o) => (o.adopted ? o : { urn: o.urn })) }, null, 2)}\n`;
}

/** `<project>/<stack>` of a URN (`urn:pulumi:<stack>::<project>::<type>::<name>`). */
export function stackOf(urn: string): string {
  const [head, project] = urn.split("::");
  return `${project}/${head.replace(/^urn:pulumi:/, "")}`;
}

/** A short, stable tag of the acting resource for claim ids (a URN is long and not a file name). */
export function ownerTag(urn: string): string {
  return createHash("sha256").update(urn).digest("hex").slice(0, 12);
}

/**
 * The claim id `base` as held by `actor`: each owner holds its own claim, so that claims merge (host-claims.ts) and
 * the VIP or sysctl stays while any owner is left. Without a URN, the id an older lvs-pulumi used.
 */
export function ownedClaimId(base: string, urn: string | undefined): string {
  return urn === undefined ? base : `${base}@${ownerTag(urn)}`;
}

/**
 * The owners once `actor` holds the entry. Throws when a resource of another stack holds it: the entry is that
 * stack's, and changing or deleting it from here would break it. `adopted`: the actor takes over an entry that
 * lvs-pulumi did not create.
 */
export function withOwner(
  recorded: Owner[] | undefined,
  actor: Actor,
  adopted: boolean,
  what: string,
  host: string,
): Owner[] | undefined {
  if (actor.urn === undefined) return recorded;
  const urn = actor.urn;
  const foreign = (recorded ?? []).filter((o) => stackOf(o.urn) !== stackOf(urn));
  if (foreign.length > 0) {
    throw new Error(
      `host ${host}: ${what} is owned by ${foreign.map((o) => o.urn).join(", ")} (stack ${stackOf(foreign[0].urn)}); ` +
        "declare it in one stack only; nothing was changed",
    );
  }
  const mine = (recorded ?? []).find((o) => o.urn === urn || o.urn === actor.formerUrn);
  const others = (recorded ?? []).filter((o) => o !== mine);
  return [...others, { urn, ...(adopted || mine?.adopted ? { adopted: true } : {}) }];
}

/** What a removal by `actor` does with the entry. */
export interface Release {
  /** The owners left, to write back (none: the owners file goes). */
  owners: Owner[];
  /** No other owner is left: the entry's own files (boot fragment, owners file) go. */
  last: boolean;
  /** The live entry goes too: last, unless an undone create had only adopted it (it was live before). */
  removeEntry: boolean;
}

export function withoutOwner(recorded: Owner[] | undefined, actor: Actor): Release {
  // No record (an older lvs-pulumi's entry) or no URN: the key decides, as it did.
  if (recorded === undefined || actor.urn === undefined) return { owners: [], last: true, removeEntry: true };
  const urns = new Set([actor.urn, actor.formerUrn].filter((u) => u !== undefined));
  const mine = recorded.filter((o) => urns.has(o.urn));
  const left = recorded.filter((o) => !urns.has(o.urn));
  // Held by others only (the old name of a rename, after its new name took it; another stack): not ours to touch.
  if (mine.length === 0 || left.length > 0) return { owners: left, last: false, removeEntry: false };
  const adoptedOnly = actor.undo === true && mine.some((o) => o.adopted);
  return { owners: [], last: true, removeEntry: !adoptedOnly };
}

/** The claim ids `actor` may hold for `base`: its own, and those its own replaces (its former URN's, an older one's). */
export function claimIdsOf(base: string, actor: Actor): { own: string; superseded: string[] } {
  const own = ownedClaimId(base, actor.urn);
  const former = actor.formerUrn === undefined ? [] : [ownedClaimId(base, actor.formerUrn)];
  return { own, superseded: [...former, base].filter((id) => id !== own) };
}

/** The claims a removal by `actor` releases: its own; an older lvs-pulumi's only with the last owner. */
export function releasedClaimIds(base: string, actor: Actor, last: boolean): string[] {
  const { own, superseded } = claimIdsOf(base, actor);
  return [own, ...superseded.filter((id) => id !== base || last)];
}

/** The step that records `owners` in the owners file at `path` (none when unchanged, or not tracked). */
export function planOwners(path: string, owners: Owner[] | undefined, live: string | null): Step[] {
  return owners === undefined ? [] : planFiles([{ path, content: renderOwners(owners) }], { [path]: live });
}
