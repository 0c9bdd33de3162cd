// Checked services' keepalived files on a stand-in director (stand-in-director.ts): reads run for real on this
// machine, which runs no checker of ours (its `ipvsadm` prints a captured real table); change scripts are kept, never
// run, and fail where a test says.
import {
  checkedRealServerPaths,
  checkedServicePaths,
  KEEPALIVED_CHECKED_DIR,
} from "../../../provider/model/host-paths";
import {
  activateChecked,
  activateCheckedItems,
  checkedFacts,
  checkerOf,
  refuseCheckedChanges,
} from "../../../provider/operations/checked-services";
import { HostSession, withHost } from "../../../provider/operations/session";
import { CheckedChange, checkedRemoval } from "../../../provider/plan/checked-services";
import { pruneBatchDirs } from "../../../provider/plan/files";
import { DONE, ItemOutcome } from "../../../provider/plan/host-batch";
import { planServiceRemoval } from "../../../provider/plan/virtual-service";
import { useStandInDirector } from "./stand-in-director";

const director = useStandInDirector();

// A service of the captured table (test/fixtures/ipvsadm/ipvsadm-Sn.txt) and one of its real servers.
const KEY = "tcp:203.0.113.101:80";
const ID = { protocol: "tcp" as const, address: "203.0.113.101", port: 80 };
const service = checkedServicePaths(KEY);
const rs = checkedRealServerPaths(KEY, `${KEY}/198.51.100.131:80`);
const written: CheckedChange = {
  serviceKey: KEY,
  files: [{ path: rs.block, content: "real_server 198.51.100.131 80 {\n  weight 1\n}\n" }],
  programs: ["/usr/local/bin/check-web"],
  expected: [],
};
const serviceGone = checkedRemoval(KEY, [service.service, service.check, service.checkScript]);

/** What a batch touching KEY reads of keepalived, with the files of `change`. */
const readChecked = (session: HostSession, change: CheckedChange) =>
  session.readWithFiles(
    checkedFacts([KEY]),
    change.files.map((f) => f.path),
  );
const onDirector = <T>(fn: (session: HostSession) => Promise<T>) => withHost(director().connection, fn);

test("what a batch reads of keepalived: here no checker of ours, and nothing in the checked folder", async () => {
  const { facts } = await onDirector((session) => readChecked(session, written));
  expect(checkerOf(facts)).toEqual({ conf: null, unit: null, enabled: false, active: false });
  expect(facts.checkedServices).toEqual([]);
  // The listing of each service's own folder comes in the same read, by its index.
  expect((facts as Record<string, unknown>).checked_0).toEqual([]);
  expect(director().reads()).toHaveLength(1);
});

describe("refuseCheckedChanges", () => {
  test("files that change are checked staged (keepalived installed first where it is missing); passing: not refused", async () => {
    const { installed, refused } = await onDirector(async (session) => {
      const { facts, file } = await readChecked(session, written);
      return {
        installed: facts.keepalivedInstalled,
        refused: await refuseCheckedChanges(session, [KEY], facts, [{ checked: written }, {}], file),
      };
    });
    expect(refused).toBeUndefined();
    const scripts = director().scripts();
    expect(scripts).toHaveLength(installed ? 1 : 2);
    if (!installed) expect(scripts[0]).toContain("apt-get install -y -q keepalived");
    const check = scripts.at(-1)!;
    expect(check).toContain("[ -f /usr/local/bin/check-web ] && [ -x /usr/local/bin/check-web ]");
    expect(check).toContain("keepalived -t -f");
    // Staged only: nothing keepalived reads is written by the check.
    expect(check).not.toContain(`mv -f ${rs.block}`);
  });

  test("keepalived -t refusing the staged result refuses the batch's checked items, nothing changed", async () => {
    director().reset(undefined, { anyLine: "keepalived -t -f" });
    const refused = await onDirector(async (session) => {
      const { facts, file } = await readChecked(session, written);
      return refuseCheckedChanges(session, [KEY], facts, [{ checked: written }], file);
    });
    expect(String(refused)).toMatch(
      /^Error: host tester@127\.0\.0\.1:\d+: the health checks are refused, nothing was changed: .*stand-in: failed at keepalived -t -f/s,
    );
  });

  test("no checked file changes (a removal of files that are not there): nothing to check, no script", async () => {
    const refused = await onDirector(async (session) => {
      const { facts, file } = await readChecked(session, serviceGone);
      return refuseCheckedChanges(session, [KEY], facts, [{ checked: serviceGone }], file);
    });
    expect(refused).toBeUndefined();
    expect(director().scripts()).toEqual([]);
  });
});

describe("activating a batch's checked files", () => {
  const removed = {
    left: () => [],
    steps: (table: Parameters<typeof planServiceRemoval>[1]) => planServiceRemoval(ID, table),
  };

  test("the last service gone: its folder pruned, then with no checker needed its entry deleted from the table read", async () => {
    await onDirector(async (session) => {
      const { facts } = await readChecked(session, serviceGone);
      await activateChecked(session, [KEY], facts, [serviceGone], removed);
    });
    const [emptied, shutdown] = director().scripts();
    expect(emptied).toContain(pruneBatchDirs([service.dir]));
    expect(director().scripts()).toHaveLength(2);
    // No checker of ours runs here, so nothing to stop: the entry (in the captured table) goes, then the folder.
    const deleted = shutdown.indexOf("\nipvsadm -D -t 203.0.113.101:80\n");
    expect(deleted).toBeGreaterThan(0);
    expect(shutdown.indexOf(pruneBatchDirs([KEEPALIVED_CHECKED_DIR]))).toBeGreaterThan(deleted);
    expect(shutdown).not.toContain("systemctl");
  });

  test("only items written are activated; when activation fails, they fail with its error and others keep theirs", async () => {
    director().reset(undefined, { anyLine: "rmdir" });
    const own = new Error("its own step failed");
    const outcomes: ItemOutcome[] = [DONE, { error: own }, DONE];
    await onDirector(async (session) => {
      const { facts } = await readChecked(session, serviceGone);
      await activateCheckedItems(
        session,
        [KEY],
        facts,
        [{ checked: serviceGone }, { checked: written }, {}],
        outcomes,
        removed,
      );
    });
    expect(String((outcomes[0] as { error: Error }).error)).toContain("stand-in: failed at rmdir");
    expect(outcomes.slice(1)).toEqual([{ error: own }, DONE]);
  });

  test("no item written: nothing read or run", async () => {
    const outcomes: ItemOutcome[] = [{ again: true }, { error: new Error("refused") }];
    await onDirector(async (session) => {
      await activateCheckedItems(
        session,
        [KEY],
        {},
        [{ checked: written }, { checked: serviceGone }],
        outcomes,
        removed,
      );
    });
    expect(director().reads()).toEqual([]);
    expect(director().scripts()).toEqual([]);
  });
});
