import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import * as pulumi from "@pulumi/pulumi";
import { makeUrn, ProviderHost, SECRET_SIG, SIG_KEY, UNKNOWN } from "../../harness/provider-host";
import { serializeInputs, serializeProvider } from "../../harness/serialize";
import { makeFileProvider } from "./file-provider";

jest.setTimeout(60000);

let host: ProviderHost;
let dir: string;
let v1: string;
let v2: string;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "harness-host-"));
  [v1, v2] = await Promise.all([serializeProvider(makeFileProvider("v1")), serializeProvider(makeFileProvider("v2"))]);
  host = await ProviderHost.start({ cwd: path.resolve(__dirname, "../../..") });
});

afterAll(async () => {
  await host?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

test("serializeProvider gives module text exporting handler", () => {
  expect(v1).toContain("exports.handler");
  expect(v1).not.toEqual(v2);
});

test("configure answers as the notes say: acceptSecrets=false, supportsPreview=false", async () => {
  const r = await host.configure();
  expect(r.acceptSecrets).toBe(false);
  expect(r.supportsPreview).toBe(false);
});

test("check / create / diff / update / read / delete through the real host", async () => {
  const urn = makeUrn("one");
  const news = { dir, name: "one.txt", content: "hello", __provider: v1 };

  const bad = await host.check(urn, {}, { ...news, name: "" });
  expect(bad.failures).toEqual([{ property: "name", reason: "required" }]);

  const checked = await host.check(urn, {}, news);
  expect(checked.failures).toEqual([]);
  expect(checked.inputs).toEqual(news);

  const created = await host.create(urn, checked.inputs);
  const file = path.join(dir, "one.txt");
  expect(created.id).toBe(file);
  expect(fs.readFileSync(file, "utf8")).toBe("hello");
  expect(created.outputs).toEqual({ dir, name: "one.txt", content: "hello", tag: "v1", __provider: v1 });
  await host.waitForLog("file-provider[v1] create one.txt token=undefined");

  // Unchanged inputs: the provider says changes=false.
  const same = await host.diff(urn, created.id, created.outputs, checked.inputs);
  expect(same).toEqual({ changes: "none", replaces: [], deleteBeforeReplace: false });
  // Only __provider differs: still no change, since the provider's `changes: false` is honoured.
  const codeOnly = await host.diff(urn, created.id, created.outputs, { ...checked.inputs, __provider: v2 });
  expect(codeOnly.changes).toBe("none");
  // A changed field.
  const changed = await host.diff(urn, created.id, created.outputs, { ...checked.inputs, content: "bye" });
  expect(changed).toEqual({ changes: "some", replaces: [], deleteBeforeReplace: false });
  // A replacing field, with and without delete-before-replace.
  const replaced = await host.diff(urn, created.id, created.outputs, { ...checked.inputs, name: "two.txt" });
  expect(replaced).toEqual({ changes: "some", replaces: ["name"], deleteBeforeReplace: false });
  const dbr = await host.diff(urn, created.id, created.outputs, { ...checked.inputs, name: "two.txt", dbr: true });
  expect(dbr.deleteBeforeReplace).toBe(true);

  const updatedOuts = await host.update(urn, created.id, created.outputs, { ...checked.inputs, content: "bye" });
  expect(fs.readFileSync(file, "utf8")).toBe("bye");
  expect(updatedOuts.content).toBe("bye");
  expect(updatedOuts.__provider).toBe(v1);

  // A hand edit is seen by read.
  fs.writeFileSync(file, "edited by hand");
  const live = await host.read(urn, created.id, updatedOuts);
  expect(live.id).toBe(file);
  expect(live.outputs.content).toBe("edited by hand");
  expect(live.outputs.__provider).toBe(v1);
  expect(live.inputs).toBeUndefined();

  await host.delete(urn, created.id, updatedOuts);
  expect(fs.existsSync(file)).toBe(false);
  await host.waitForLog("file-provider[v1] delete one.txt (created by v1)");

  const gone = await host.read(urn, created.id, updatedOuts);
  expect(gone.id).toBe("");
});

test("secret inputs reach the provider as plain values (acceptSecrets=false)", async () => {
  const urn = makeUrn("secret");
  const wire = await serializeInputs({
    dir,
    name: "secret.txt",
    content: "x",
    token: pulumi.secret("s3cret"),
    __provider: Promise.resolve(v1),
  });
  // Language-host wire form: the secret is wrapped ...
  expect(wire.token).toEqual({ [SIG_KEY]: SECRET_SIG, value: "s3cret" });
  // ... and the host strips the wrapper, as the engine does for this provider.
  const checked = await host.check(urn, {}, wire);
  expect(checked.inputs.token).toBe("s3cret");
  const created = await host.create(urn, checked.inputs);
  expect(created.outputs.token).toBe("s3cret");
  await host.waitForLog("file-provider[v1] create secret.txt token=string");
  await host.delete(urn, created.id, created.outputs);
});

test("unknowns are sent as the engine's sentinel string", async () => {
  const wire = await serializeInputs({ a: 1, nested: { b: undefined, c: [undefined, 2] } });
  expect(wire).toEqual({ a: 1, nested: { c: [null, 2] } });
  const checked = await host.check(makeUrn("unk"), {}, { dir, name: "u.txt", content: UNKNOWN, __provider: v1 });
  expect(checked.inputs.content).toBe(UNKNOWN);
});

test("provider errors surface as rejected calls; the host keeps running", async () => {
  const urn = makeUrn("dup");
  fs.writeFileSync(path.join(dir, "dup.txt"), "already");
  await expect(host.create(urn, { dir, name: "dup.txt", content: "x", __provider: v1 })).rejects.toThrow(
    /Create: .*already exists/,
  );
  expect((await host.check(urn, {}, { dir, name: "ok.txt", content: "x", __provider: v1 })).failures).toEqual([]);
});

test("stop() kills the host by PID and leaves no process", async () => {
  const h = await ProviderHost.start({ cwd: dir });
  const pid = h.pid;
  expect(pidAlive(pid)).toBe(true);
  await h.stop();
  expect(pidAlive(pid)).toBe(false);
  await expect(h.check(makeUrn("x"), {}, {})).rejects.toThrow(/exited/);
});
