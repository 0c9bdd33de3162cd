// readFormerFile on a stand-in host (stand-in-director.ts): the read runs for real on this machine, in a folder of the
// test's standing in for our fragment folder.
import { mkdtempSync, rmSync, writeFileSync } from "fs";
import { tmpdir } from "os";
import { basename, join } from "path";
import { formerPath, Naming, serviceFragmentPath } from "../../../provider/model/host-paths";
import { readFormerFile } from "../../../provider/operations/former-files";
import { withHost } from "../../../provider/operations/session";
import { holdsService } from "../../../provider/plan/former-files";
import { useStandInDirector } from "./stand-in-director";

const director = useStandInDirector();

let dir: string;
beforeAll(() => (dir = mkdtempSync(join(tmpdir(), "lvs-former-"))));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const pathOf = (key: string, name?: Naming) => join(dir, basename(serviceFragmentPath(key, name)));

// 2001:db8:1::5 and 2001:db8::1:5 had one file name before (model/host-paths.ts formerPath).
const A = "tcp:[2001:db8:1::5]:80";
const B = "tcp:[2001:db8::1:5]:80";
const read = (key: string) =>
  withHost(director().connection, (session) => readFormerFile(session, pathOf, key, holdsService(key)));

test("a key whose file name never changed (IPv4) costs no read", async () => {
  expect(await read("tcp:203.0.113.101:80")).toBeUndefined();
  expect(director().reads()).toEqual([]);
});

test("the file under the former name is the key's when its content defines the key; another key's is left alone", async () => {
  const former = formerPath(pathOf, A)!;
  expect(former).toBe(formerPath(pathOf, B));
  expect(await read(A)).toBeUndefined();
  writeFileSync(former, "-A -t [2001:db8:1::5]:80 -s wlc\n");
  expect(await read(A)).toEqual({ path: former, content: "-A -t [2001:db8:1::5]:80 -s wlc\n" });
  expect(await read(B)).toBeUndefined();
  expect(director().reads()).toHaveLength(3);
});
