import * as pulumi from "@pulumi/pulumi";
import type { z } from "zod";
import type { FwmarkMatch } from "../schemas/fwmark-match";
import type { HealthCheck } from "../schemas/health-check";
import type { virtualServiceInputsSchema } from "../schemas/virtual-service";
import type { InputShape } from "./args";
import { ConnectionArgs } from "./connection";
import { DirectorRef, directorConnection } from "./director";
import { providerFor, secretInput, urnInput } from "./provider";

type VirtualServiceInputs = z.input<ReturnType<typeof virtualServiceInputsSchema>>;

/** Packets of `protocol` to one of `addresses` on one of `ports` (a port, or a range "8000-8100"). */
export type FwmarkMatchArgs = InputShape<NonNullable<VirtualServiceInputs["match"]>>;

/** A keepalived checker (see README, Health checks): one of tcp, http, https, misc or dns, each with its fields. */
export type HealthCheckArgs = InputShape<NonNullable<VirtualServiceInputs["healthCheck"]>>;

/**
 * The service's inputs as the schema takes them (schemas/virtual-service.ts; the README's VirtualService table),
 * with Director resources or connections as its directors.
 */
export type VirtualServiceArgs = Omit<InputShape<VirtualServiceInputs>, "directors"> & {
  /** Every director carrying this service (both members of an HA pair carry the same table). */
  directors: DirectorRef[];
};

/** An IPVS virtual service (VIP:port or fwmark) on one or several directors. */
export class VirtualService extends pulumi.dynamic.Resource {
  declare readonly directors: pulumi.Output<ConnectionArgs[]>;
  declare readonly protocol: pulumi.Output<string | undefined>;
  declare readonly address: pulumi.Output<string | undefined>;
  declare readonly port: pulumi.Output<number | undefined>;
  declare readonly fwmark: pulumi.Output<number | undefined>;
  declare readonly family: pulumi.Output<string | undefined>;
  declare readonly match: pulumi.Output<FwmarkMatch | undefined>;
  declare readonly scheduler: pulumi.Output<string>;
  declare readonly healthCheck: pulumi.Output<HealthCheck | undefined>;
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
