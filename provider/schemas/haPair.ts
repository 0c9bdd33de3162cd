import { z } from "zod";
import { connectionSchema } from "./connection";
import { endpointAddressField, interfaceNameField, intInRange } from "./fields";
import { canonicalIp, ipFamily } from "./ip";

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
  };
}

function memberSchema(defaultPriority: number) {
  return z.object({
    connection: connectionSchema().describe("SSH connection to the director (see Connection)"),
    ...haPairMemberFields(defaultPriority),
  });
}

// A VIP is an address, or an address on another interface than the VRRP one (a floating DIP on the NAT side).
export function floatingAddressSchema() {
  return z.preprocess(
    (value) => (typeof value === "string" ? { address: value } : value),
    z.object({
      address: endpointAddressField(),
      interface: interfaceNameField().optional(),
    }),
  );
}

export function haPairInputsSchema() {
  return (
    z
      .object({
        primary: memberSchema(150).describe(
          "`{connection, interface, priority, addresses}`: the director that is master while it is up (priority default 150); `addresses` for unicast VRRP",
        ),
        backup: memberSchema(100).describe(
          "`{connection, interface, priority, addresses}`: the director that takes over the VIPs (priority default 100)",
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
        installKeepalived: z
          .boolean()
          .default(false)
          .describe("install keepalived with apt/dnf/yum when missing (otherwise missing is an error)"),
      })
      // The pair's rules read addresses and priorities: they run once every field is valid.
      .superRefine(checkHaPair, { when: (payload) => payload.issues.length === 0 })
  );
}

export type HaPairInputs = z.output<ReturnType<typeof haPairInputsSchema>>;
export type HaPairMember = HaPairInputs["primary"];

interface PairFields {
  primary: { connection: { host: string }; priority: number; addresses?: string[] };
  backup: { connection: { host: string }; priority: number; addresses?: string[] };
  vips: { address: string }[];
}

function checkHaPair(value: PairFields, ctx: z.core.$RefinementCtx): void {
  const issue = (path: PropertyKey[], message: string) => ctx.addIssue({ code: "custom", path, message });
  if (value.primary.connection.host === value.backup.connection.host) {
    issue(["backup", "connection", "host"], "is the primary's host: a pair needs two directors");
  }
  if (value.primary.priority <= value.backup.priority) {
    issue(["backup", "priority"], `must be below the primary's priority (${value.primary.priority})`);
  }
  checkUnicast(value, issue);
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
