import * as pulumi from "@pulumi/pulumi";

/** How to reach a host over SSH; the same shape as @pulumi/command's remote Connection, plus sudo and host key pinning. */
export interface ConnectionArgs {
  host: pulumi.Input<string>;
  port?: pulumi.Input<number>;
  user?: pulumi.Input<string>;
  password?: pulumi.Input<string>;
  privateKey?: pulumi.Input<string>;
  privateKeyPassword?: pulumi.Input<string>;
  agentSocketPath?: pulumi.Input<string>;
  dialErrorLimit?: pulumi.Input<number>;
  perDialTimeout?: pulumi.Input<number>;
  /** The jump host (bastion). */
  proxy?: pulumi.Input<ConnectionArgs>;
  /** The pinned host key, "SHA256:..." as `ssh-keygen -lf` prints it. */
  hostKey?: pulumi.Input<string>;
  knownHostsPath?: pulumi.Input<string>;
  /** Turns host key verification off: an explicit, visible choice. */
  insecureSkipHostKeyCheck?: pulumi.Input<boolean>;
  sudo?: pulumi.Input<boolean>;
}
