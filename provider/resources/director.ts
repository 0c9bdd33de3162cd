import * as pulumi from "@pulumi/pulumi";
import type { z } from "zod";
import type { directorInputsSchema } from "../schemas/director";
import type { InputShape } from "./args";
import { ConnectionArgs } from "./connection";
import { providerFor, secretInput, urnInput } from "./provider";

/** The director's inputs as the schema takes them (schemas/director.ts; the README's Director table). */
export type DirectorArgs = InputShape<z.input<ReturnType<typeof directorInputsSchema>>>;

/** An LVS director: IPVS and its schedulers loaded, sysctls and timeouts set, all of it persisted for boot. */
export class Director extends pulumi.dynamic.Resource {
  declare readonly connection: pulumi.Output<ConnectionArgs>;
  declare readonly kernelRelease: pulumi.Output<string>;
  declare readonly ipvsadmVersion: pulumi.Output<string>;
  declare readonly schedulers: pulumi.Output<string[]>;
  /** After a refresh: what the next apply runs on the director to repair its sysctls, VIPs and timeouts. */
  declare readonly hostDrift: pulumi.Output<string[] | undefined>;

  constructor(name: string, args: DirectorArgs, opts?: pulumi.CustomResourceOptions) {
    super(
      providerFor("director"),
      name,
      {
        ...args,
        connection: secretInput(args.connection),
        kernelRelease: undefined,
        ipvsadmVersion: undefined,
        schedulers: undefined,
        __urn: urnInput(name, "Director", opts),
      },
      { ...opts, additionalSecretOutputs: ["connection"] },
      "lvs",
      "Director",
    );
  }
}

/** A director resource or a plain connection: both name a director. */
export type DirectorRef = Director | pulumi.Input<ConnectionArgs>;

export function directorConnection(ref: DirectorRef): pulumi.Input<ConnectionArgs> {
  return ref instanceof Director ? ref.connection : ref;
}
