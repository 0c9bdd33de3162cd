import * as pulumi from "@pulumi/pulumi";
import { ConnectionArgs } from "./connection";
import { providerFor, secretInput, urnInput } from "./provider";
import { HealthCheckArgs, VirtualService } from "./virtual-service";

export interface RealServerArgs {
  service: VirtualService;
  /** The RIP. */
  address: pulumi.Input<string>;
  /** Defaults to the service port; must equal it for dr and tun; none for fwmark services. */
  port?: pulumi.Input<number>;
  weight?: pulumi.Input<number>;
  upperThreshold?: pulumi.Input<number>;
  lowerThreshold?: pulumi.Input<number>;
  forwarding?: pulumi.Input<"dr" | "nat" | "tun" | "fullnat">;
  /** fullnat: the director's DIP that client addresses are translated to. */
  snatSource?: pulumi.Input<string>;
  /** The real server itself: given, its side is set up too (VIP on lo/tunl0, ARP sysctls, NAT return route). */
  host?: pulumi.Input<ConnectionArgs>;
  /** nat: the DIP the real server routes replies through. */
  directorAddress?: pulumi.Input<string>;
  /** nat: route only this client prefix via the director (default: the default route). */
  clientPrefix?: pulumi.Input<string>;
  /** On delete: weight 0, then up to this many seconds for active connections to end (default 0: at once). */
  drainSeconds?: pulumi.Input<number>;
  /** Take over an entry with the same key that a director has and lvs-pulumi did not create (see README). */
  adopt?: pulumi.Input<boolean>;
  /** This real server's own check instead of the service's healthCheck (checked services only). */
  healthCheck?: pulumi.Input<HealthCheckArgs>;
  /** Checked services: programs (argv) run when this real server passes its check again / fails it. */
  notifyUp?: pulumi.Input<pulumi.Input<string>[]>;
  notifyDown?: pulumi.Input<pulumi.Input<string>[]>;
}

/** A real server behind a virtual service, on every director of that service. */
export class RealServer extends pulumi.dynamic.Resource {
  declare readonly weight: pulumi.Output<number>;
  declare readonly forwarding: pulumi.Output<string>;
  /** After a refresh: the directors (user@host:port) that no longer list the real server; absent when all do. */
  declare readonly missingFrom: pulumi.Output<string[] | undefined>;

  constructor(name: string, args: RealServerArgs, opts?: pulumi.CustomResourceOptions) {
    const { service, ...rest } = args;
    const identity = pulumi
      .all([service.protocol, service.address, service.port, service.fwmark, service.family, service.match])
      .apply(([protocol, address, port, fwmark, family, match]) => ({
        protocol,
        address,
        port,
        fwmark,
        family,
        match,
      }));
    super(
      providerFor("realServer"),
      name,
      {
        ...rest,
        service: identity,
        directors: secretInput(service.directors),
        host: secretInput(rest.host),
        serviceChecked: pulumi.output(service.healthCheck).apply((check) => check !== undefined),
        __urn: urnInput(name, "RealServer", opts),
      },
      { ...opts, additionalSecretOutputs: ["directors", "host"] },
      "lvs",
      "RealServer",
    );
  }
}
