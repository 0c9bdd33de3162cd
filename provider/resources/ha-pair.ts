import * as pulumi from "@pulumi/pulumi";
import type { z } from "zod";
import type { haPairInputsSchema } from "../schemas/ha-pair";
import type { InputShape } from "./args";
import { DirectorRef, directorConnection } from "./director";
import { providerFor, secretInput, urnInput } from "./provider";

type HaPairInputs = z.input<ReturnType<typeof haPairInputsSchema>>;

/** A pair member: a Director resource or a connection, with the member's own settings (schemas/ha-pair.ts). */
export type HAPairMemberArgs = Omit<InputShape<HaPairInputs["primary"]>, "connection"> & { director: DirectorRef };

/** A VIP, or an address on another interface than the VRRP one. */
export type FloatingAddress = InputShape<HaPairInputs["vips"][number]>;

/** The pair's inputs as the schema takes them (schemas/ha-pair.ts; the README's HAPair table). */
export type HAPairArgs = Omit<InputShape<HaPairInputs>, "primary" | "backup"> & {
  primary: HAPairMemberArgs;
  backup: HAPairMemberArgs;
};

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
