import * as pulumi from "@pulumi/pulumi";
import { DirectorRef, directorConnection } from "./director";
import { providerFor, urnInput } from "./provider";

export interface HAPairMemberArgs {
  director: DirectorRef;
  /** The interface VRRP adverts go out on (VIPs land there unless they name another). */
  interface: pulumi.Input<string>;
  /** VRRP priority: primary 150, backup 100 by default. */
  priority?: pulumi.Input<number>;
  /** Unicast VRRP (multicast filtered): the member's own address on its VRRP interface, one per VIP family. */
  addresses?: pulumi.Input<pulumi.Input<string>[]>;
}

/** A VIP, or an address on another interface than the VRRP one. */
export type FloatingAddress = string | { address: pulumi.Input<string>; interface?: pulumi.Input<string> };

export interface HAPairArgs {
  primary: HAPairMemberArgs;
  backup: HAPairMemberArgs;
  virtualRouterId: pulumi.Input<number>;
  /** What keepalived moves to the master: VIPs, or `{address, interface}` (a floating DIP for NAT real servers). */
  vips: pulumi.Input<pulumi.Input<FloatingAddress>[]>;
  advertIntervalSeconds?: pulumi.Input<number>;
  preempt?: pulumi.Input<boolean>;
  connectionSync?: pulumi.Input<{ enabled?: boolean; interface?: string; syncId?: number }>;
  installKeepalived?: pulumi.Input<boolean>;
}

/**
 * Two directors sharing VIPs with keepalived (VRRP), with IPVS connection sync from master to backup. The services
 * on the pair list both directors and leave the VIP to keepalived (`bindVip: false`).
 */
export class HAPair extends pulumi.dynamic.Resource {
  /** The SSH host of the director holding the VIPs, as of the last apply or refresh. */
  declare readonly master: pulumi.Output<string>;
  declare readonly virtualRouterId: pulumi.Output<number>;

  constructor(name: string, args: HAPairArgs, opts?: pulumi.CustomResourceOptions) {
    const member = ({ director, ...rest }: HAPairMemberArgs) => ({ ...rest, connection: directorConnection(director) });
    super(
      providerFor("haPair"),
      name,
      {
        ...args,
        primary: member(args.primary),
        backup: member(args.backup),
        master: undefined,
        __urn: urnInput(name, "HAPair", opts),
      },
      { ...opts, additionalSecretOutputs: ["primary", "backup"] },
      "lvs",
      "HAPair",
    );
  }
}
