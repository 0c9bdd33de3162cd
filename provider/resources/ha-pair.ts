import * as pulumi from "@pulumi/pulumi";
import { DirectorRef, directorConnection } from "./director";
import { providerFor, secretInput, urnInput } from "./provider";

export interface HAPairMemberArgs {
  director: DirectorRef;
  /** The interface VRRP adverts go out on (VIPs land there unless they name another). */
  interface: pulumi.Input<string>;
  /** VRRP priority: primary 150, backup 100 by default. */
  priority?: pulumi.Input<number>;
  /** Unicast VRRP (multicast filtered): the member's own address on its VRRP interface, one per VIP family. */
  addresses?: pulumi.Input<pulumi.Input<string>[]>;
  /** Interfaces keepalived watches (e.g. the uplink): one down puts this member in FAULT. */
  trackInterfaces?: pulumi.Input<pulumi.Input<string>[]>;
}

/** A /bin/sh command keepalived runs every intervalSeconds: `fall` failures put the member in FAULT (or apply weight). */
export interface HAPairTrackScript {
  command: string;
  intervalSeconds?: number;
  timeoutSeconds?: number;
  fall?: number;
  rise?: number;
  weight?: number;
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
  trackScripts?: pulumi.Input<pulumi.Input<HAPairTrackScript>[]>;
  /** /bin/sh commands run on a state change; `any` gets keepalived's arguments (type, name, state, priority). */
  notify?: pulumi.Input<{ master?: string; backup?: string; fault?: string; stop?: string; any?: string }>;
  /** Gratuitous ARP (and unsolicited NA) after becoming master and while master. */
  gratuitousArp?: pulumi.Input<{
    masterDelaySeconds?: number;
    masterRepeat?: number;
    masterRefreshSeconds?: number;
    masterRefreshRepeat?: number;
  }>;
  /** With preempt: how long a returning primary waits before it takes the VIPs back. */
  preemptDelaySeconds?: pulumi.Input<number>;
  /** VRRPv2 PASS authentication (IPv4 VIPs only; an output may resolve to none); a secret in state. */
  authentication?: pulumi.Input<{ type?: "PASS"; password: pulumi.Input<string> } | undefined>;
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
        primary: secretInput(member(args.primary)),
        backup: secretInput(member(args.backup)),
        authentication: secretInput(args.authentication),
        master: undefined,
        __urn: urnInput(name, "HAPair", opts),
      },
      { ...opts, additionalSecretOutputs: ["primary", "backup", "authentication"] },
      "lvs",
      "HAPair",
    );
  }
}
