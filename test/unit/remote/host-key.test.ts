// Host key verification (host-key.ts): fingerprints, pinned keys, known_hosts files and the explicit opt-out, on pure
// inputs, against the in-process server and against a real sshd.
import { createHmac, randomBytes } from "crypto";
import { writeFileSync } from "fs";
import { join } from "path";
import { HostKeyVerificationError } from "../../../provider/remote/errors";
import { exec, run } from "../../../provider/remote/exec";
import { fingerprintOf, hostKeyCheckFor, keyTypeOf } from "../../../provider/remote/host-key";
import { setLogger } from "../../../provider/remote/log";
import { closeAll } from "../../../provider/remote/pool";
import { newHostKey } from "./fake-ssh-server";
import { BLOB, FINGERPRINT, KEY_LINE } from "./fixtures";
import { describeSshd, useFakeHosts, useOpenSsh } from "./harness";

const hosts = useFakeHosts({ backoffInitialMs: 20, backoffMaxMs: 200 });
const spec = hosts.spec;
const knownHosts = (text: string) => {
  const path = join(hosts.dir, `known_hosts_${Math.random()}`);
  writeFileSync(path, text);
  return path;
};

describe("host key fingerprints", () => {
  test("match ssh-keygen -lf", () => {
    expect(fingerprintOf(BLOB)).toBe(FINGERPRINT);
    expect(keyTypeOf(BLOB)).toBe("ssh-ed25519");
  });

  test("pinned key check accepts the key and names both fingerprints on mismatch", () => {
    const spec = { host: "lb1", hostKey: FINGERPRINT };
    expect(() => hostKeyCheckFor(spec)(BLOB)).not.toThrow();
    expect(() => hostKeyCheckFor({ ...spec, hostKey: `${FINGERPRINT}=` })(BLOB)).not.toThrow(); // padding tolerated
    const other = Buffer.concat([BLOB.subarray(0, -1), Buffer.from([0])]);
    expect(() => hostKeyCheckFor(spec)(other)).toThrow(
      `host key mismatch for lb1:22: expected ${FINGERPRINT}, server presented ${fingerprintOf(other)}`,
    );
  });

  test("no verification configured is refused up front", () => {
    expect(() => hostKeyCheckFor({ host: "lb1", port: 2200 })).toThrow(/refusing to connect to lb1:2200/);
  });

  test("a pinned fingerprint pasted with surrounding whitespace still matches", () => {
    expect(() => hostKeyCheckFor({ host: "lb1", hostKey: ` ${FINGERPRINT}\n` })(BLOB)).not.toThrow();
  });
});

describe("known_hosts checks on a file", () => {
  const check = (path: string) => () => hostKeyCheckFor({ host: "lb1", knownHostsPath: path })(BLOB);

  test("a key marked @revoked is refused even where another line trusts it", () => {
    const path = knownHosts(`lb1 ${KEY_LINE}\n@revoked lb1 ${KEY_LINE}\n`);
    expect(check(path)).toThrow(
      new HostKeyVerificationError(`host key ${FINGERPRINT} of lb1:22 is marked @revoked in ${path}`),
    );
  });

  test("other keys for the host: a mismatch naming every trusted fingerprint and the file", () => {
    const [a, b] = [newHostKey(), newHostKey()];
    const path = knownHosts(`lb1 ${a.line}\nlb1,lb2 ${b.line}\n`);
    expect(check(path)).toThrow(
      `host key mismatch for lb1:22: expected ${fingerprintOf(a.blob)} or ${fingerprintOf(b.blob)} (from ${path}), ` +
        `server presented ${FINGERPRINT}`,
    );
  });

  test("an unreadable file is refused, naming it and the host", () => {
    const path = join(hosts.dir, "no-such-known-hosts");
    expect(check(path)).toThrow(HostKeyVerificationError);
    expect(check(path)).toThrow(new RegExp(`^cannot read known_hosts ${path} for lb1:22: ENOENT`));
  });
});

test("insecureSkipHostKeyCheck connects and warns once", async () => {
  const warnings: string[] = [];
  setLogger({ debug: () => {}, info: () => {}, warn: (m) => warnings.push(m) });
  const insecure = spec({ hostKey: undefined, insecureSkipHostKeyCheck: true });
  await exec(insecure, "true");
  closeAll();
  await exec(insecure, "true");
  expect(warnings.filter((w) => w.includes("host key verification disabled"))).toHaveLength(1);
});

describe("known_hosts", () => {
  const name = () => `[127.0.0.1]:${hosts.target.port}`;

  test("plain entry matches", async () => {
    const path = knownHosts(
      `# comment\nother.example ${newHostKey().line}\n${name()},10.0.0.1 ${hosts.target.publicKeyLine} c\n`,
    );
    expect((await exec(spec({ hostKey: undefined, knownHostsPath: path }), "echo ok")).stdout).toBe("ok\n");
  });

  test("hashed entry matches", async () => {
    const salt = randomBytes(20);
    const hash = createHmac("sha1", salt).update(name()).digest("base64");
    const path = knownHosts(`|1|${salt.toString("base64")}|${hash} ${hosts.target.publicKeyLine}\n`);
    expect((await exec(spec({ hostKey: undefined, knownHostsPath: path }), "echo ok")).stdout).toBe("ok\n");
  });

  test("different key for the host is a mismatch", async () => {
    const other = newHostKey();
    const path = knownHosts(`${name()} ${other.line}\n`);
    const err = await run(spec({ hostKey: undefined, knownHostsPath: path }), "true").catch((e) => e);
    expect(err).toBeInstanceOf(HostKeyVerificationError);
    expect(err.message).toContain("mismatch");
    expect(err.message).toContain(hosts.target.fingerprint);
    expect(hosts.target.connections).toBe(1);
  });

  test("host missing from the file is refused", async () => {
    const path = knownHosts(`other.example ${hosts.target.publicKeyLine}\n`);
    const err = await run(spec({ hostKey: undefined, knownHostsPath: path }), "true").catch((e) => e);
    expect(err).toBeInstanceOf(HostKeyVerificationError);
    expect(err.message).toMatch(/no entry for 127\.0\.0\.1:\d+/);
  });
});

describeSshd("real OpenSSH sshd", () => {
  const real = useOpenSsh();

  test("pinned key is accepted; a wrong pinned key is refused with both fingerprints", async () => {
    const { sshd, conn } = real;
    expect((await exec(conn({ port: sshd.ports[1] }), "echo pinned")).stdout).toBe("pinned\n");
    const wrong = "SHA256:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";
    const err = await run(conn({ port: sshd.ports[1], hostKey: wrong }), "true").catch((e) => e);
    expect(err).toBeInstanceOf(HostKeyVerificationError);
    expect(err.message).toContain(wrong);
    expect(err.message).toContain(sshd.fingerprint);
  });
});
