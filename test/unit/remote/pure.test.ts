// Pure parts of the remote layer: fingerprints, known_hosts, masking, wrapping, retries.
import { connectionKey, connectionSecrets } from "../../../provider/remote/connection";
import { RemoteCommandError } from "../../../provider/remote/errors";
import { commandError } from "../../../provider/remote/exec";
import { fingerprintOf, hostKeyCheckFor, keyTypeOf } from "../../../provider/remote/host-key";
import { entriesForHost, knownHostsName, parseKnownHosts } from "../../../provider/remote/known-hosts";
import { RetriesExhausted, retry } from "../../../provider/remote/retry";
import { maskSecrets, registerSecret } from "../../../provider/remote/secrets";
import { wrapCommand } from "../../../provider/remote/wrap";

// Fixture made with `ssh-keygen -t ed25519`; fingerprint as printed by `ssh-keygen -lf`, hashed line by `ssh-keygen -H`.
const BLOB = Buffer.from("AAAAC3NzaC1lZDI1NTE5AAAAIFXMglGXEq35czHabY9U1WNfGaZYmhdhsY1fSi/JNLSL", "base64");
const FINGERPRINT = "SHA256:+T6uHLQBkE/DbfZImeUdmenNQhtLPd/LcwnluiYubR8";
const HASHED = "|1|09fl1jrHngErH6C3krVN7W0YPJQ=|CTcYqwX4ik7xBa76OX+kT+AqBv4="; // [10.0.0.5]:2222

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
});

describe("known_hosts", () => {
  const line = `ssh-ed25519 ${BLOB.toString("base64")}`;

  test("parses markers, skips comments and CA lines", () => {
    const entries = parseKnownHosts(
      `# c\n\n@cert-authority *.x ${line}\n@revoked lb1 ${line}\nlb1,lb2 ${line} comment\n`,
    );
    expect(entries.map((e) => [e.revoked, e.hosts, e.keyType])).toEqual([
      [true, "lb1", "ssh-ed25519"],
      [false, "lb1,lb2", "ssh-ed25519"],
    ]);
    expect(entries[1].key.equals(BLOB)).toBe(true);
  });

  test("host names use [host]:port for non-default ports", () => {
    expect(knownHostsName("lb1", 22)).toBe("lb1");
    expect(knownHostsName("lb1", 2222)).toBe("[lb1]:2222");
  });

  test("matches plain, port, wildcard, negated and hashed names", () => {
    const entries = parseKnownHosts(
      [`lb1,LB2 ${line}`, `[lb3]:2222 ${line}`, `*.dc1,!bad.dc1 ${line}`, `lb?.dc2 ${line}`, `${HASHED} ${line}`].join(
        "\n",
      ),
    );
    const hosts = (host: string, port = 22) => entriesForHost(entries, host, port).map((e) => e.hosts);
    expect(hosts("lb1")).toEqual(["lb1,LB2"]);
    expect(hosts("lb2")).toEqual(["lb1,LB2"]);
    expect(hosts("lb1", 2222)).toEqual([]);
    expect(hosts("lb3", 2222)).toEqual(["[lb3]:2222"]);
    expect(hosts("lb3")).toEqual([]);
    expect(hosts("x.dc1")).toEqual(["*.dc1,!bad.dc1"]);
    expect(hosts("bad.dc1")).toEqual([]);
    expect(hosts("lb7.dc2")).toEqual(["lb?.dc2"]);
    expect(hosts("lb77.dc2")).toEqual([]);
    expect(hosts("10.0.0.5", 2222)).toEqual([HASHED]);
    expect(hosts("10.0.0.5")).toEqual([]);
  });
});

describe("secret masking", () => {
  test("masks every occurrence of each secret", () => {
    expect(maskSecrets("pw=abc abcdef abc", ["abc", "abcdef"])).toBe("pw=[secret] [secret] [secret]");
    expect(maskSecrets("nothing", ["", "zzz"])).toBe("nothing");
  });

  test("only whole tokens: a secret inside an address or a longer word is left alone", () => {
    expect(maskSecrets("198.51.100.40", ["10"])).toBe("198.51.100.40");
    expect(maskSecrets("password 10 rejected for 198.51.100.40", ["10"])).toBe(
      "password [secret] rejected for 198.51.100.40",
    );
    expect(maskSecrets(`auth_pass "10", pw=10. '10'`, ["10"])).toBe(`auth_pass "[secret]", pw=[secret]. '[secret]'`);
    expect(maskSecrets("hunter2x hunter2", ["hunter2"])).toBe("hunter2x [secret]");
    // Punctuation of the secret's own joins a token only where the token goes on past it.
    expect(maskSecrets("host x.a.b and a.b.c, password a.b.", ["a.b"])).toBe(
      "host x.a.b and a.b.c, password [secret].",
    );
    expect(maskSecrets("pw=a=b", ["a=b"])).toBe("pw=[secret]");
  });

  test("a PEM private key in an error text is masked whole, whatever follows its last line", () => {
    const key = "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjE=\n-----END OPENSSH PRIVATE KEY-----\n";
    expect(maskSecrets(`cannot parse privateKey: ${key}at line 3`, [key])).toBe(
      "cannot parse privateKey: [secret]at line 3",
    );
    expect(maskSecrets(`key=${key.trim()}; retrying`, [key.trim()])).toBe("key=[secret]; retrying");
  });

  test("secrets sharing a part are masked as one", () => {
    expect(maskSecrets("said ab cd ef", ["ab cd", "cd ef"])).toBe("said [secret]");
  });

  test("registered secrets are masked everywhere", () => {
    registerSecret("vrrp-pass-123");
    expect(maskSecrets("auth_pass vrrp-pass-123")).toBe("auth_pass [secret]");
  });

  test("connection secrets include the jump chain", () => {
    const spec = { host: "a", password: "p1", proxy: { host: "b", privateKey: "KEY", privateKeyPassword: "p2" } };
    expect(connectionSecrets(spec).sort()).toEqual(["KEY", "p1", "p2"]);
    expect(connectionKey(spec)).toBe("root@a:22 via root@b:22");
  });

  test("command errors mask command, output and message", () => {
    const spec = { host: "lb1", user: "ops", password: "hunter2", privateKeyPassword: "kp" };
    const err = commandError(spec, "login hunter2 kp", { stdout: "hunter2", stderr: "bad kp", code: 1 });
    expect(err).toBeInstanceOf(RemoteCommandError);
    expect(err).toMatchObject({ host: "ops@lb1:22", command: "login [secret] [secret]", stdout: "[secret]" });
    expect(err.message).toBe("command failed on ops@lb1:22 (exit code 1): login [secret] [secret]\nbad [secret]");
  });
});

describe("command wrapping", () => {
  test("always sh -c, sudo -n when asked", () => {
    expect(wrapCommand("ipvsadm -Ln", false)).toBe("sh -c 'ipvsadm -Ln'");
    expect(wrapCommand("echo 'it''s'", true)).toBe(`sudo -n sh -c 'echo '\\''it'\\'''\\''s'\\'''`);
    expect(wrapCommand("true", undefined)).toBe("sh -c true");
  });
});

describe("retry", () => {
  const opts = { attempts: 3, initialDelayMs: 1, maxDelayMs: 2, retryable: (e: unknown) => e !== "fatal" };

  test("stops at the limit and reports the last error", async () => {
    let calls = 0;
    const err = await retry(async () => {
      calls++;
      throw new Error(`e${calls}`);
    }, opts).catch((e) => e);
    expect(err).toBeInstanceOf(RetriesExhausted);
    expect(err.attempts).toBe(3);
    expect(err.lastError.message).toBe("e3");
  });

  test("does not retry non-retryable errors, and returns the first success", async () => {
    let calls = 0;
    await expect(retry(async () => Promise.reject("fatal").finally(() => calls++), opts)).rejects.toBe("fatal");
    expect(calls).toBe(1);
    expect(await retry(async (n) => (n < 2 ? Promise.reject("flaky") : "ok"), opts)).toBe("ok");
  });
});
