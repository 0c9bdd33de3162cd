// A director's live IPVS table for a program's outputs, read by the program itself once the resources that write it
// are done. Not state: a table kept in the Director's state was as of its own create, and each refresh then reported
// the Director changed (noise that fails `pulumi refresh --expect-no-changes`).
import * as pulumi from "@pulumi/pulumi";
import { DirectorTable, directorTableFact } from "../facts/director-table";
import { HostSession } from "../operations/session";
import { knownDown } from "../operations/unreachable";
import { closeAll } from "../remote";
import { connectionSchema } from "../schemas/connection";
import { DirectorRef, directorConnection } from "./director";

/** Table reads in flight in this process (the program's: it has no other SSH connections). */
let reading = 0;

/**
 * The table of `director` as it is once every resource in `after` has been applied: read over SSH without the host
 * lock (one `ipvsadm -Sn`). Undefined in a preview, which opens no SSH for it, and for a director listed in
 * LVS_PULUMI_HOSTS_DOWN.
 */
export function liveDirectorTable(
  director: DirectorRef,
  after: pulumi.Resource[] = [],
): pulumi.Output<DirectorTable | undefined> {
  const applied = pulumi.all(
    after.map((resource) => (resource instanceof pulumi.CustomResource ? resource.id : resource.urn)),
  );
  const table = pulumi.all([pulumi.output(directorConnection(director)), applied]).apply(async ([spec]) => {
    const connection = connectionSchema().parse(spec);
    if (pulumi.runtime.isDryRun() || knownDown(connection)) return undefined;
    reading++;
    try {
      return (await new HostSession(connection).read({ table: directorTableFact() })).table;
    } finally {
      // ssh2's keepalive timer keeps an idle connection's process alive for the pool's idle time (10 s): the
      // program's own connections close once its last read is done, so that it ends with its resources.
      if (--reading === 0) closeAll();
    }
  });
  // The connection is secret; the table holds none of it.
  return pulumi.unsecret(table);
}
