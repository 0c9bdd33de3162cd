import * as pulumi from "@pulumi/pulumi";
import { ConnectionArgs } from "./connection";
import { DirectorRef, directorConnection } from "./director";
import { providerFor, secretInput, urnInput } from "./provider";

/** Packets of `protocol` to one of `addresses` on one of `ports` (a port, or a range "8000-8100"). */
export interface FwmarkMatchArgs {
  protocol: "tcp" | "udp" | "sctp";
  addresses: string[];
  ports: (number | string)[];
}

/** A keepalived checker (see README, Health checks): tcp, http, https, misc or dns, with its timing. */
export interface HealthCheckArgs {
  type: "tcp" | "http" | "https" | "misc" | "dns";
  port?: number;
  intervalSeconds?: number;
  connectTimeoutSeconds?: number;
  retries?: number;
  delayBeforeRetrySeconds?: number;
  warmupSeconds?: number;
  inhibitOnFailure?: boolean;
  /** http, https. */
  path?: string;
  status?: number;
  digest?: string;
  virtualHost?: string;
  /** misc: argv, the program by its absolute path. */
  command?: string[];
  timeoutSeconds?: number;
  dynamicWeight?: boolean;
  /** dns. */
  name?: string;
  recordType?: string;
}

export interface VirtualServiceArgs {
  /** Every director carrying this service (both members of an HA pair carry the same table). */
  directors: DirectorRef[];
  protocol?: pulumi.Input<"tcp" | "udp" | "sctp">;
  /** The VIP (IPv4 or IPv6). */
  address?: pulumi.Input<string>;
  port?: pulumi.Input<number>;
  /** A firewall-mark service instead of protocol/address/port. */
  fwmark?: pulumi.Input<number>;
  family?: pulumi.Input<"inet" | "inet6">;
  /** fwmark services: the packets that get the mark (rules on every director) and so the VIPs the service serves. */
  match?: pulumi.Input<FwmarkMatchArgs>;
  scheduler?: pulumi.Input<string>;
  schedulerFlags?: pulumi.Input<pulumi.Input<string>[]>;
  persistence?: pulumi.Input<{ timeoutSeconds: number; netmask?: string | number }>;
  onePacket?: pulumi.Input<boolean>;
  bindVip?: pulumi.Input<boolean>;
  vipInterface?: pulumi.Input<string>;
  /** Take over an entry with the same key that a director has and lvs-pulumi did not create (see README). */
  adopt?: pulumi.Input<boolean>;
  /** Checks every real server; keepalived then owns the service on its directors (see README, Health checks). */
  healthCheck?: pulumi.Input<HealthCheckArgs>;
  /** Checked services: served while no real server is healthy. */
  sorryServer?: pulumi.Input<{ address: string; port?: number; forwarding?: "dr" | "nat" | "tun" }>;
  quorum?: pulumi.Input<number>;
  hysteresis?: pulumi.Input<number>;
  /** Checked services: programs (argv) run when the service gains / loses quorum. */
  notifyQuorumUp?: pulumi.Input<pulumi.Input<string>[]>;
  notifyQuorumDown?: pulumi.Input<pulumi.Input<string>[]>;
  /** Checked services: real servers get traffic before their first check passed (default false). */
  startHealthy?: pulumi.Input<boolean>;
}

/** An IPVS virtual service (VIP:port or fwmark) on one or several directors. */
export class VirtualService extends pulumi.dynamic.Resource {
  declare readonly directors: pulumi.Output<ConnectionArgs[]>;
  declare readonly protocol: pulumi.Output<string | undefined>;
  declare readonly address: pulumi.Output<string | undefined>;
  declare readonly port: pulumi.Output<number | undefined>;
  declare readonly fwmark: pulumi.Output<number | undefined>;
  declare readonly family: pulumi.Output<string | undefined>;
  declare readonly match: pulumi.Output<FwmarkMatchArgs | undefined>;
  declare readonly scheduler: pulumi.Output<string>;
  declare readonly healthCheck: pulumi.Output<HealthCheckArgs | undefined>;
  /** After a refresh: the directors (user@host:port) that no longer list the service; absent when all do. */
  declare readonly missingFrom: pulumi.Output<string[] | undefined>;

  constructor(name: string, args: VirtualServiceArgs, opts?: pulumi.CustomResourceOptions) {
    super(
      providerFor("virtualService"),
      name,
      {
        ...args,
        directors: secretInput(args.directors.map(directorConnection)),
        __urn: urnInput(name, "VirtualService", opts),
      },
      { ...opts, additionalSecretOutputs: ["directors"] },
      "lvs",
      "VirtualService",
    );
  }
}
