// The table output read by the program on a stand-in director (test/unit/operations/stand-in-director.ts): its
// `ipvsadm -Sn` prints the captured real table (test/fixtures/ipvsadm/ipvsadm-Sn.txt).
import * as pulumi from "@pulumi/pulumi";
import { HOSTS_DOWN_VARIABLE } from "../../../provider/operations/unreachable";
import { pooledConnections } from "../../../provider/remote";
import { liveDirectorTable } from "../../../provider/resources/live-table";
import { useStandInDirector } from "../operations/stand-in-director";
import { value } from "./registrations";

const director = useStandInDirector();

/** A resource whose create ends only when `finish` is called. */
let finish: () => void = () => {};
async function mock(preview: boolean): Promise<void> {
  await pulumi.runtime.setMocks(
    {
      call: () => ({}),
      newResource: async (args) => {
        if (args.name === "slow") await new Promise<void>((resolve) => (finish = resolve));
        return { id: `${args.name}-id`, state: args.inputs };
      },
    },
    "lvs-pulumi",
    "test",
    preview,
  );
}

class Slow extends pulumi.CustomResource {
  constructor() {
    super("test:index:Slow", "slow", {});
  }
}

test("after the resources it waits for, one read of the table without the host lock; not a secret", async () => {
  await mock(false);
  const slow = new Slow();
  const table = liveDirectorTable(pulumi.secret(director().connection), [slow]);
  await new Promise((resolve) => setTimeout(resolve, 500));
  expect(director().counted("-A").tableReads).toBe(0);
  finish();
  const read = await value(table);
  expect(read?.["tcp:203.0.113.101:80"]).toMatchObject({ scheduler: "sh", schedulerFlags: ["sh-port"] });
  expect(read?.["tcp:203.0.113.101:80"].realServers["198.51.100.131:80"]).toMatchObject({
    forwarding: "nat",
    weight: 1,
  });
  expect(director().counted("-A")).toMatchObject({ tableReads: 1, locks: 0 });
  expect(await pulumi.isSecret(table)).toBe(false);
  // Closed after the last read: an idle connection would keep the program's process alive for 10 s.
  expect(pooledConnections()).toEqual([]);
});

test("in a preview, no SSH: the table is undefined", async () => {
  await mock(true);
  const table = liveDirectorTable(director().connection);
  expect(await value(table)).toBeUndefined();
  expect(director().counted("-A")).toMatchObject({ channels: 0, tableReads: 0 });
});

test("a director listed in LVS_PULUMI_HOSTS_DOWN is not dialled: the table is undefined", async () => {
  await mock(false);
  process.env[HOSTS_DOWN_VARIABLE] = "127.0.0.1";
  try {
    expect(await value(liveDirectorTable(director().connection))).toBeUndefined();
  } finally {
    delete process.env[HOSTS_DOWN_VARIABLE];
  }
  expect(director().counted("-A")).toMatchObject({ channels: 0, tableReads: 0 });
});
