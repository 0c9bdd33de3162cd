import * as pulumi from "@pulumi/pulumi";
import type { z } from "zod";
import type { realServerInputsSchema } from "../schemas/real-server";
import type { InputShape } from "./args";
import { providerFor, secretInput, urnInput } from "./provider";
import { VirtualService } from "./virtual-service";

/**
 * The real server's inputs as the schema takes them (schemas/real-server.ts; the README's RealServer table), under
 * its VirtualService resource: the service's identity and directors come from there.
 */
export type RealServerArgs = Omit<
  InputShape<z.input<ReturnType<typeof realServerInputsSchema>>>,
  "directors" | "service" | "serviceChecked"
> & { service: VirtualService };

/** A real server behind a virtual service, on every director of that service. */
export class RealServer extends pulumi.dynamic.Resource {
  declare readonly weight: pulumi.Output<number>;
  declare readonly forwarding: pulumi.Output<string>;
  /** After a refresh: the directors (user@host:port) that no longer list the real server; absent when all do. */
  declare readonly missingFrom: pulumi.Output<string[] | undefined>;
  /** After a refresh: what the next apply runs on the real server's host to repair its side; absent when whole. */
  declare readonly hostDrift: pulumi.Output<string[] | undefined>;

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
