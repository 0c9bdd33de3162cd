import { z } from "zod";
import { once } from "./once";
import { connectionSchema, hostKey } from "./connection";
import { endpointAddressField, interfaceNameField, intInRange } from "./fields";
import { canonicalIp, ipFamily, sameAddress } from "../model/ip";

/** A member's own settings; the connection comes apart (a resource input, a director's name in stack config). */
export function haPairMemberFields(defaultPriority: number) {
  return {
    interface: interfaceNameField().describe("the interface VRRP adverts go out on (and VIPs land on by default)"),
    priority: intInRange(1, 254).default(defaultPriority).describe("VRRP priority; the higher one is master"),
    addresses: z
      .array(endpointAddressField())
      .min(1)
      .optional()
      .describe(
        "unicast VRRP (where multicast is filtered): the member's own address on its VRRP interface, one per address family of the VIPs; set on both members",
      ),
    trackInterfaces: z
      .array(interfaceNameField())
      .optional()
      .describe(
        "interfaces keepalived watches (`track_interface`, e.g. the uplink): one going down puts this member in FAULT and its peer takes the VIPs",
      ),
  };
}

/** A command keepalived runs: written as it is into a root-only /bin/sh script, never into keepalived.conf. */
function shellCommandField() {
  return z
    .string()
    .min(1, { error: "must not be empty" })
    .refine((value) => !value.includes("\0"), { error: "must not contain a NUL character" });
}

function trackScriptSchema() {
  return z.object({
    command: shellCommandField(),
    intervalSeconds: intInRange(1, 3600).default(2),
    timeoutSeconds: intInRange(1, 3600).optional(),
    fall: intInRange(1, 255).default(2),
    rise: intInRange(1, 255).default(2),
    weight: intInRange(-253, 253).optional(),
  });
}

// Characters keepalived reads as one plain word (no comment, quote, block or variable character).
const AUTH_PASS = /^[A-Za-z0-9_+=@%:,./-]{1,8}$/;

function memberSchema(defaultPriority: number) {
  return z.object({
    connection: connectionSchema().describe("SSH connection to the director (see Connection)"),
    ...haPairMemberFields(defaultPriority),
  });
}

// A VIP is an address, or an address on another interface than the VRRP one (a floating DIP on the NAT side).
export function floatingAddressSchema() {
  // The argument's type is what the schema takes (z.input), and so the FloatingAddress a program writes.
  return z.preprocess(
    (value: string | { address: string; interface?: string }) =>
      typeof value === "string" ? { address: value } : value,
    z.object({
      address: endpointAddressField(),
      interface: interfaceNameField().optional(),
    }),
  );
}

export const haPairInputsSchema = once(() => {
  return (
    z
      .object({
        primary: memberSchema(150).describe(
          "`{connection, interface, priority, addresses, trackInterfaces}`: the director that is master while it is up (priority default 150); `addresses` for unicast VRRP; `trackInterfaces` (e.g. the uplink) put it in FAULT when one is down",
        ),
        backup: memberSchema(100).describe(
          "`{connection, interface, priority, addresses, trackInterfaces}`: the director that takes over the VIPs (priority default 100)",
        ),
        virtualRouterId: intInRange(1, 255).describe("VRRP virtual router id, unique on the segment"),
        vips: z
          .array(floatingAddressSchema())
          .min(1, { error: "must list at least one address" })
          .describe(
            "addresses keepalived moves to the master: `VIP` or `{address, interface}` (e.g. the DIP NAT real servers route through)",
          ),
        advertIntervalSeconds: intInRange(1, 255).default(1).describe("VRRP advert interval (`advert_int`)"),
        preempt: z
          .boolean()
          .default(true)
          .describe(
            "the primary takes the VIPs back when it returns (false: `nopreempt`, the VIPs stay where they are)",
          ),
        connectionSync: z
          .object({
            enabled: z.boolean().default(true),
            interface: interfaceNameField().optional(),
            syncId: intInRange(0, 255).optional(),
          })
          .prefault({})
          .describe(
            "`{enabled, interface, syncId}`: IPVS connection sync from master to backup (`lvs_sync_daemon`), default on over the VRRP interface with id = virtualRouterId",
          ),
        trackScripts: z
          .array(trackScriptSchema())
          .default([])
          .describe(
            "`[{command, intervalSeconds, timeoutSeconds, fall, rise, weight}]` (`vrrp_script`): a /bin/sh command run every intervalSeconds (default 2) on both members; after `fall` failures (default 2) the member goes to FAULT, or with a weight (-253..253, IPv4-only or IPv6-only pairs) its priority moves by it; `rise` successes (default 2) undo it",
          ),
        notify: z
          .object({
            master: shellCommandField().optional(),
            backup: shellCommandField().optional(),
            fault: shellCommandField().optional(),
            stop: shellCommandField().optional(),
            any: shellCommandField().optional(),
          })
          .optional()
          .describe(
            "`{master, backup, fault, stop, any}`: a /bin/sh command run when the member enters that state (`notify_master`...); `any` runs on every change with keepalived's arguments (type, name, state, priority) as $1..$4",
          ),
        gratuitousArp: z
          .object({
            masterDelaySeconds: intInRange(0, 3600).optional(),
            masterRepeat: intInRange(1, 255).optional(),
            masterRefreshSeconds: intInRange(0, 86400).optional(),
            masterRefreshRepeat: intInRange(1, 255).optional(),
          })
          .optional()
          .describe(
            "`{masterDelaySeconds, masterRepeat, masterRefreshSeconds, masterRefreshRepeat}`: gratuitous ARPs (and unsolicited NAs for IPv6 VIPs: keepalived has no separate NA settings) a new master sends (`garp_master_repeat`), again after a delay (`garp_master_delay`), and every refresh interval while master (`garp_master_refresh`, `garp_master_refresh_repeat`)",
          ),
        preemptDelaySeconds: intInRange(1, 1000)
          .optional()
          .describe(
            "with preempt: the returning primary waits this long before it takes the VIPs back (`preempt_delay`; both members then start as BACKUP)",
          ),
        authentication: z
          .object({
            type: z.literal("PASS", { error: 'is not supported; allowed: "PASS"' }).default("PASS"),
            password: z.string().regex(AUTH_PASS, {
              error: "must be 1 to 8 characters of A-Z a-z 0-9 _ + = @ % : , . / - (keepalived's auth_pass)",
            }),
          })
          .optional()
          .describe(
            "`{type: PASS, password}`: VRRPv2 simple password authentication (IPv4 VIPs only: VRRPv3 has none); the password is a secret",
          ),
        installKeepalived: z
          .boolean()
          .default(false)
          .describe("install keepalived with apt/dnf/yum when missing (otherwise missing is an error)"),
      })
      // The pair's rules read addresses and priorities: they run once every field is valid.
      .superRefine(checkHaPair, { when: (payload) => payload.issues.length === 0 })
  );
});

export type HaPairInputs = z.output<ReturnType<typeof haPairInputsSchema>>;
export type HaPairMember = HaPairInputs["primary"];

interface PairMemberFields {
  connection: { host: string; port?: number };
  interface: string;
  priority: number;
  addresses?: string[];
  trackInterfaces?: string[];
}

interface PairFields {
  primary: PairMemberFields;
  backup: PairMemberFields;
  vips: { address: string }[];
  preempt: boolean;
  preemptDelaySeconds?: number;
  trackScripts: { weight?: number }[];
  authentication?: object;
}

function checkHaPair(value: PairFields, ctx: z.core.$RefinementCtx): void {
  const issue = (path: PropertyKey[], message: string) => ctx.addIssue({ code: "custom", path, message });
  // Compared as the host key (one spelling per address or name): another spelling of one sshd is still one director.
  if (hostKey(value.primary.connection) === hostKey(value.backup.connection)) {
    issue(["backup", "connection", "host"], "is the primary's host: a pair needs two directors");
  }
  if (value.primary.priority <= value.backup.priority) {
    issue(["backup", "priority"], `must be below the primary's priority (${value.primary.priority})`);
  }
  checkUnicast(value, issue);
  checkKeepalivedRules(value, issue);
  checkVipsNotMembers(value, issue);
  const seen = new Set<string>();
  value.vips.forEach((vip, index) => {
    const address = canonicalIp(vip.address);
    if (seen.has(address)) issue(["vips", index, "address"], "is listed twice");
    seen.add(address);
  });
}

/** Unicast VRRP needs both members' addresses, exactly one per family the VIPs use (one VRRP instance per family). */
function checkUnicast(value: PairFields, issue: (path: PropertyKey[], message: string) => void): void {
  const { primary, backup } = value;
  if (!primary.addresses && !backup.addresses) return;
  const families = [...new Set(value.vips.map((vip) => ipFamily(vip.address)))];
  for (const role of ["primary", "backup"] as const) {
    const addresses = value[role].addresses;
    if (!addresses) {
      issue([role, "addresses"], "is required: the other member has addresses (unicast VRRP needs both)");
      continue;
    }
    for (const family of families) {
      const count = addresses.filter((address) => ipFamily(address) === family).length;
      if (count !== 1) {
        issue(
          [role, "addresses"],
          `must hold exactly one ${family === "inet" ? "IPv4" : "IPv6"} address ` +
            "(the VIPs have that family), found " +
            count,
        );
      }
    }
  }
}

/**
 * keepalived takes the VIPs off a member that turns backup (or stops): a VIP that is a member's own address, the one
 * it is reached on (connection.host) or its unicast VRRP address, goes with them and cuts the member off.
 */
function checkVipsNotMembers(value: PairFields, issue: (path: PropertyKey[], message: string) => void): void {
  value.vips.forEach((vip, index) => {
    for (const role of ["primary", "backup"] as const) {
      const member = value[role];
      const own = [
        { field: "connection.host", address: member.connection.host },
        ...(member.addresses ?? []).map((address, i) => ({ field: `addresses[${i}]`, address })),
      ];
      for (const { field, address } of own) {
        if (sameAddress(vip.address, address)) {
          issue(
            ["vips", index, "address"],
            `is the ${role}'s own address (${role}.${field}): keepalived removes the VIPs from a member that ` +
              "turns backup, and the member would lose that address with them; use another VIP",
          );
        }
      }
    }
  });
}

/** What keepalived ignores with a warning (and so `keepalived -t` refuses), named before anything is touched. */
function checkKeepalivedRules(value: PairFields, issue: (path: PropertyKey[], message: string) => void): void {
  const families = new Set(value.vips.map((vip) => ipFamily(vip.address)));
  if (value.preemptDelaySeconds !== undefined && !value.preempt) {
    issue(["preemptDelaySeconds"], "needs preempt: true (keepalived: preempt_delay is incompatible with nopreempt)");
  }
  if (value.authentication !== undefined && families.has("inet6")) {
    issue(
      ["authentication"],
      "is VRRPv2 only: this pair has IPv6 VIPs (a VRRPv3 instance) and VRRPv3 has no authentication; drop it or the IPv6 VIPs",
    );
  }
  if (families.size > 1) {
    value.trackScripts.forEach((script, index) => {
      if (script.weight !== undefined) {
        issue(
          ["trackScripts", index, "weight"],
          "is ignored by keepalived in a sync group (this pair has IPv4 and IPv6 VIPs): leave it out (FAULT on failure)",
        );
      }
    });
  }
  for (const role of ["primary", "backup"] as const) {
    value[role].trackInterfaces?.forEach((name, index) => {
      if (name === value[role].interface) {
        issue(
          [role, "trackInterfaces", index],
          "is the member's VRRP interface, which keepalived tracks already (it refuses to track it twice)",
        );
      }
    });
  }
}
