// The resource classes send every input holding a key or password as a secret, so the engine stores it encrypted
// in state (inputs and the outputs of the same key), even when the program passed plain strings.
import * as pulumi from "@pulumi/pulumi";
import { Director, HAPair, RealServer, VirtualService } from "../../../provider";
import { RegisterRequest, watchRegistrations } from "../../harness/program";
import { FAKE_HOST_KEY, FAKE_KEY } from "../fixtures/lab-hosts";

/** The inputs each resource registered, by name, in wire form (secret wrappers kept). */
const sent = new Map<string, Record<string, unknown>>();

beforeAll(async () => {
  await pulumi.runtime.setMocks(
    {
      call: () => ({}),
      newResource: (args) => ({ id: `${args.name}-id`, state: args.inputs }),
    },
    "lvs-pulumi",
    "test",
  );
  watchRegistrations((req) => {
    const object = (req as RegisterRequest & { getObject(): { toJavaScript(): Record<string, unknown> } }).getObject();
    sent.set(req.getName(), object.toJavaScript());
  });
});

function isSecretWire(v: unknown): boolean {
  return (v as Record<string, unknown>)?.[pulumi.runtime.specialSigKey] === pulumi.runtime.specialSecretSig;
}

function value<T>(output: pulumi.Output<T>): Promise<T> {
  return new Promise((resolve) => output.apply(resolve));
}

// Plain strings throughout: no pulumi.secret anywhere in the program.
const connection = (host: string) => ({
  host,
  hostKey: FAKE_HOST_KEY,
  privateKey: FAKE_KEY,
  privateKeyPassword: "key-passphrase",
  proxy: { host: "127.0.0.1", port: 2222, hostKey: FAKE_HOST_KEY, password: "jump-password" },
});

test("connections, members and the VRRP password are secret inputs; absent ones stay absent", async () => {
  const dir1 = new Director("dir1", { connection: connection("198.51.100.11") });
  const dir2 = new Director("dir2", { connection: { host: "198.51.100.12", hostKey: FAKE_HOST_KEY, password: "pw" } });
  const web = new VirtualService("web", { directors: [dir1, connection("198.51.100.12")], address: "198.51.100.40" });
  const rs1 = new RealServer("rs1", { service: web, address: "198.51.100.21", host: connection("198.51.100.21") });
  const rs2 = new RealServer("rs2", { service: web, address: "198.51.100.22" });
  const pair = new HAPair("pair", {
    primary: { director: dir1, interface: "eth0" },
    backup: { director: dir2, interface: "eth0" },
    virtualRouterId: 51,
    vips: ["198.51.100.40"],
    authentication: { password: "10" },
  });
  const unauthenticated = new HAPair("open-pair", {
    primary: { director: dir1, interface: "eth0" },
    backup: { director: dir2, interface: "eth0" },
    virtualRouterId: 52,
    vips: ["198.51.100.41"],
    authentication: pulumi.output(undefined),
  });
  await Promise.all([rs1, rs2, pair, unauthenticated].map((r) => value(r.urn)));

  const secretKeys = (name: string) =>
    Object.entries(sent.get(name)!)
      .filter(([, v]) => isSecretWire(v))
      .map(([k]) => k)
      .sort();
  expect(secretKeys("dir1")).toEqual(["connection"]);
  expect(secretKeys("dir2")).toEqual(["connection"]);
  expect(secretKeys("web")).toEqual(["directors"]);
  expect(secretKeys("rs1")).toEqual(["directors", "host"]);
  expect(secretKeys("rs2")).toEqual(["directors"]);
  expect(secretKeys("pair")).toEqual(["authentication", "backup", "primary"]);
  expect(secretKeys("open-pair")).toEqual(["backup", "primary"]);
  expect(sent.get("rs2")).not.toHaveProperty("host");
  expect(sent.get("open-pair")).not.toHaveProperty("authentication");
  // Only inside the secrets: no key, passphrase or password anywhere else in what was sent.
  for (const [name, inputs] of sent) {
    const outside = Object.fromEntries(Object.entries(inputs).filter(([, v]) => !isSecretWire(v)));
    for (const secret of ["PRIVATE KEY", "not-a-real-key", "key-passphrase", "jump-password", '"pw"', '"10"']) {
      expect({ name, sent: JSON.stringify(outside).includes(secret) }).toEqual({ name, sent: false });
    }
  }
  expect((sent.get("dir1")!.connection as { value: unknown }).value).toMatchObject({ privateKey: FAKE_KEY });
  expect(await pulumi.isSecret(dir1.connection)).toBe(true);
  expect(await pulumi.isSecret(web.directors)).toBe(true);
});
