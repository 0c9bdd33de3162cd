import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import * as pulumi from "@pulumi/pulumi";
import { DesiredResource, Engine } from "../../harness/engine";
import { makeUrn, ProviderHost, SECRET_SIG, SIG_KEY } from "../../harness/provider-host";
import { serializeProvider } from "../../harness/serialize";
import { makeFileProvider } from "./file-provider";

jest.setTimeout(60000);

let host: ProviderHost;
let dir: string;
let statePath: string;
let engine: Engine;
const providers: Record<string, string> = {};

const A = makeUrn("a");
const B = makeUrn("b");

function file(name: string, content: string, provider: string, extra: Record<string, unknown> = {}): DesiredResource {
  return { urn: makeUrn(name), inputs: { dir, name: `${name}.txt`, content, __provider: provider, ...extra } };
}
function read(name: string): string | undefined {
  const p = path.join(dir, name);
  return fs.existsSync(p) ? fs.readFileSync(p, "utf8") : undefined;
}
function ops(): string[] {
  return engine.operations.splice(0).map((o) => `${o.op} ${o.urn.split("::").pop()}`);
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "harness-engine-"));
  statePath = path.join(dir, "state.json");
  for (const tag of ["v1", "v2", "v3"]) providers[tag] = await serializeProvider(makeFileProvider(tag));
  for (const tag of ["nodiff1", "nodiff2"]) {
    providers[tag] = await serializeProvider(makeFileProvider(tag, { withoutDiff: true }));
  }
  host = await ProviderHost.start({ cwd: path.resolve(__dirname, "../../..") });
  engine = new Engine(host, statePath);
});

afterAll(async () => {
  await host?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

test("first deploy creates in order and records {id, inputs, outputs} in the state file", async () => {
  const s = await engine.deploy([file("a", "A1", providers.v1), file("b", "B1", providers.v1)]);
  expect(s).toEqual({ created: [A, B], updated: [], replaced: [], deleted: [], unchanged: [] });
  expect(ops()).toEqual(["check a", "create a", "check b", "create b"]);
  expect(read("a.txt")).toBe("A1");
  const state = engine.readState();
  expect(Object.keys(state)).toEqual([A, B]);
  expect(state[A].id).toBe(path.join(dir, "a.txt"));
  expect(state[A].outputs).toMatchObject({ content: "A1", tag: "v1", __provider: providers.v1 });
  expect(state[A].inputs).toMatchObject({ content: "A1", __provider: providers.v1 });
});

test("second run with nothing changed: all unchanged (check + diff only), the state written once at the end", async () => {
  const written = () => fs.statSync(statePath).mtimeMs;
  const before = written();
  const deployment = await engine.begin();
  for (const name of ["a", "b"]) await deployment.apply(file(name, name.toUpperCase() + "1", providers.v1));
  // As the CLI elides the checkpoint of a same step that stores nothing new: no write per resource.
  expect(written()).toBe(before);
  const s = await deployment.finish();
  expect(s).toEqual({ created: [], updated: [], replaced: [], deleted: [], unchanged: [A, B] });
  expect(ops()).toEqual(["check a", "diff a", "check b", "diff b"]);
  expect(written()).not.toBe(before);
});

test("a code-only change is unchanged because diff says changes=false; outputs keep the old __provider", async () => {
  const s = await engine.deploy([file("a", "A1", providers.v2), file("b", "B1", providers.v2)]);
  expect(s.unchanged).toEqual([A, B]);
  const state = engine.readState();
  expect(state[A].inputs.__provider).toBe(providers.v2);
  expect(state[A].outputs.__provider).toBe(providers.v1);
  ops();
});

test("a changed field updates; the new outputs carry the new __provider", async () => {
  const s = await engine.deploy([file("a", "A2", providers.v2), file("b", "B1", providers.v2)]);
  expect(s).toEqual({ created: [], updated: [A], replaced: [], deleted: [], unchanged: [B] });
  expect(ops()).toEqual(["check a", "diff a", "update a", "check b", "diff b"]);
  expect(read("a.txt")).toBe("A2");
  expect(engine.readState()[A].outputs).toMatchObject({ content: "A2", tag: "v2", __provider: providers.v2 });
});

test("a replacing field creates the new one, then deletes the old one at the end", async () => {
  const b: DesiredResource = { urn: B, inputs: { dir, name: "b2.txt", content: "B1", __provider: providers.v2 } };
  const s = await engine.deploy([file("a", "A2", providers.v2), b]);
  expect(s).toEqual({ created: [], updated: [], replaced: [B], deleted: [], unchanged: [A] });
  expect(ops()).toEqual(["check a", "diff a", "check b", "diff b", "check b", "create b", "delete b"]);
  expect(read("b.txt")).toBeUndefined();
  expect(read("b2.txt")).toBe("B1");
  expect(engine.readState()[B].id).toBe(path.join(dir, "b2.txt"));
});

test("deleteBeforeReplace deletes first", async () => {
  const b: DesiredResource = {
    urn: B,
    inputs: { dir, name: "b3.txt", content: "B1", dbr: true, __provider: providers.v2 },
  };
  const s = await engine.deploy([file("a", "A2", providers.v2), b]);
  expect(s.replaced).toEqual([B]);
  expect(ops()).toEqual(["check a", "diff a", "check b", "diff b", "check b", "delete b", "create b"]);
  expect(read("b2.txt")).toBeUndefined();
  expect(read("b3.txt")).toBe("B1");
});

test("removing a resource deletes it with its OLD outputs and OLD provider text", async () => {
  host.clearLogs();
  const s = await engine.deploy([file("a", "A2", providers.v3)]);
  expect(s).toEqual({ created: [], updated: [], replaced: [], deleted: [B], unchanged: [A] });
  expect(read("b3.txt")).toBeUndefined();
  // b's outputs were written by v2; v2's code ran the delete, not v3's.
  await host.waitForLog("file-provider[v2] delete b3.txt (created by v2)");
  expect(host.stdout.some((l) => l.includes("file-provider[v3]"))).toBe(false);
  expect(Object.keys(engine.readState())).toEqual([A]);
});

test("pulumi.secret inputs reach the provider in plain text; the echoed key is recorded as secret", async () => {
  const c = file("c", "C1", providers.v3, { token: pulumi.secret("s3cret") });
  const s = await engine.deploy([file("a", "A2", providers.v3), c]);
  expect(s.created).toEqual([makeUrn("c")]);
  await host.waitForLog("file-provider[v3] create c.txt token=string");
  const entry = engine.readState()[makeUrn("c")];
  expect(entry.outputs.token).toBe("s3cret");
  expect(entry.secretInputs).toEqual(["token"]);
  expect(entry.secretOutputs).toEqual(["token"]);
  // Same secret again: no change.
  expect((await engine.deploy([file("a", "A2", providers.v3), c])).unchanged).toHaveLength(2);
});

test("the state file holds a secret input and output as the CLI's ciphertext envelope; a new engine reads it back", async () => {
  const text = fs.readFileSync(statePath, "utf8");
  expect(text).not.toContain("s3cret");
  const stored = JSON.parse(text).resources[makeUrn("c")];
  const envelope = { [SIG_KEY]: SECRET_SIG, ciphertext: expect.stringMatching(/^v1:[A-Za-z0-9+/=]+:[A-Za-z0-9+/=]+$/) };
  expect(stored.inputs.token).toEqual(envelope);
  expect(stored.outputs.token).toEqual(envelope);
  // Unchanged, the secret keeps its ciphertext: a rewrite of the state does not churn it.
  expect(stored.outputs.token).toEqual(stored.inputs.token);
  expect(fs.statSync(`${statePath}.key`).mode & 0o777).toBe(0o600);
  expect(new Engine(host, statePath).readState()[makeUrn("c")].inputs.token).toBe("s3cret");
});

test("a state with secret inputs, outputs and stack outputs reads back equal; without its key it is refused", () => {
  const at = path.join(dir, "sealed.json");
  const key = "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjE=\n-----END OPENSSH PRIVATE KEY-----\n";
  const connection = { host: "198.51.100.11", privateKey: key, proxy: { host: "127.0.0.1", password: "jump-pw" } };
  const file = {
    resources: {
      [makeUrn("d")]: {
        id: "d",
        inputs: { connection, installPackages: true },
        secretInputs: ["connection"],
        outputs: { connection, kernelRelease: "6.1.0" },
        secretOutputs: ["connection"],
      },
    },
    components: [],
    outputs: { vips: ["198.51.100.40"], token: { [SIG_KEY]: SECRET_SIG, value: { nested: "s3cr3t-token" } } },
  };
  new Engine(host, at).writeStateFile(file);
  const text = fs.readFileSync(at, "utf8");
  for (const secret of ["PRIVATE KEY", "b3BlbnNzaC1rZXktdjE", "jump-pw", "s3cr3t-token"])
    expect(text).not.toContain(secret);
  expect(text).toContain("6.1.0");
  expect(new Engine(host, at).readStateFile()).toEqual(file);
  fs.rmSync(`${at}.key`);
  expect(() => new Engine(host, at).readState()).toThrow(`the key file ${at}.key is missing`);
});

test("refresh reads live state: a hand edit shows, a vanished file is dropped", async () => {
  ops();
  fs.writeFileSync(path.join(dir, "a.txt"), "edited");
  fs.rmSync(path.join(dir, "c.txt"));
  const live = await engine.refresh();
  expect(ops()).toEqual(["read a", "read c"]);
  expect(live[A]).toMatchObject({ content: "edited", __provider: providers.v2 });
  expect(live[makeUrn("c")]).toBeNull();
  expect(Object.keys(engine.readState())).toEqual([A]);
  // The provider's diff now sees the drift against the desired content and updates.
  expect((await engine.deploy([file("a", "A2", providers.v3)])).updated).toEqual([A]);
  expect(read("a.txt")).toBe("A2");
});

test("without a provider diff (DIFF_UNKNOWN) the engine compares inputs itself, __provider included", async () => {
  // The host runs the NEW provider's diff; these providers have none.
  const n = file("n", "N1", providers.nodiff1);
  await engine.deploy([n]);
  expect((await engine.deploy([n])).unchanged).toEqual([makeUrn("n")]);
  expect((await engine.deploy([file("n", "N2", providers.nodiff1)])).updated).toEqual([makeUrn("n")]);
  expect(read("n.txt")).toBe("N2");
  // Only the code changed: still an update, since __provider is an input like any other.
  expect((await engine.deploy([file("n", "N2", providers.nodiff2)])).updated).toEqual([makeUrn("n")]);
});

test("destroy deletes everything in reverse order", async () => {
  await engine.deploy([file("a", "A2", providers.v1), file("b", "B1", providers.v1), file("c", "C1", providers.v1)]);
  ops();
  const s = await engine.destroy();
  expect(s.deleted).toEqual([makeUrn("c"), B, A]);
  expect(ops()).toEqual(["delete c", "delete b", "delete a"]);
  expect(engine.readState()).toEqual({});
  expect(fs.readdirSync(dir).filter((f) => f.endsWith(".txt"))).toEqual([]);
});

test("with --parallel, destroy deletes independent resources at once and a dependency after its dependents", async () => {
  const parallel = new Engine(host, statePath, 4);
  const needsA = { dependencies: [A] };
  await parallel.deploy([
    file("a", "A1", providers.v1),
    { ...file("b", "B1", providers.v1), ...needsA },
    { ...file("c", "C1", providers.v1), ...needsA },
    { ...file("d", "D1", providers.v1), dependencies: [] },
  ]);
  const deleteOnce = host.delete.bind(host);
  let inFlight = 0;
  let most = 0;
  const finished: string[] = [];
  const spy = jest.spyOn(host, "delete").mockImplementation(async (urn, ...rest) => {
    most = Math.max(most, ++inFlight);
    await new Promise((resolve) => setTimeout(resolve, 200));
    await deleteOnce(urn, ...rest);
    inFlight--;
    finished.push(urn.split("::").pop()!);
  });
  try {
    await parallel.destroy();
  } finally {
    spy.mockRestore();
  }
  // b, c and d have nothing depending on them: deleted together; a waits for b and c.
  expect(most).toBe(3);
  expect(finished[3]).toBe("a");
  expect(parallel.readState()).toEqual({});
});
