// Against a real OpenSSH sshd: exec semantics, the on-host lock, file helpers, host key pinning.
import { execFileSync, spawnSync } from "child_process";
import { existsSync, readdirSync, readlinkSync, writeFileSync } from "fs";
import { join } from "path";
import { ConnectionSpec } from "../../../provider/remote/connection";
import { CommandTimeoutError, HostKeyVerificationError, RemoteCommandError } from "../../../provider/remote/errors";
import { exec, run } from "../../../provider/remote/exec";
import { withHostLock } from "../../../provider/remote/lock";
import { closeAll } from "../../../provider/remote/pool";
import { configureRemote, remoteSettings } from "../../../provider/remote/settings";
import { OpenSshServer, SSHD, startOpenSsh } from "./openssh-server";

const describeSshd = existsSync(SSHD) ? describe : describe.skip;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** PIDs of the processes holding `path` open (the lock's holder on the "host", here this machine). */
function holdersOf(path: string): number[] {
  return readdirSync("/proc")
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        return readdirSync(`/proc/${pid}/fd`).some((fd) => readlinkSync(`/proc/${pid}/fd/${fd}`) === path);
      } catch {
        return false; // gone meanwhile, or not ours to read
      }
    })
    .map(Number);
}
// Each session start runs the login shell's rc files (root's ~/.bashrc here), which can take a second.
jest.setTimeout(60_000);

describeSshd("real OpenSSH sshd", () => {
  let sshd: OpenSshServer;
  const conn = (over: Partial<ConnectionSpec> = {}): ConnectionSpec => ({
    host: "127.0.0.1",
    port: sshd.ports[0],
    user: "root",
    privateKey: sshd.privateKey,
    hostKey: sshd.fingerprint,
    dialErrorLimit: 2,
    perDialTimeout: 10,
    ...over,
  });

  beforeAll(async () => {
    sshd = await startOpenSsh();
  });

  afterAll(async () => {
    closeAll();
    await sshd?.stop();
  });

  test("exec reports stdout, stderr and exit codes", async () => {
    expect(await run(conn(), "echo out; echo err >&2; exit 5")).toEqual({ stdout: "out\n", stderr: "err\n", code: 5 });
    expect((await exec(conn(), "printf '%s' \"$0\"")).stdout).toBe("sh"); // runs under sh -c
    expect((await run(conn(), "tr a-z A-Z", { stdin: "piped" })).stdout).toBe("PIPED");
    const err = await exec(conn(), "echo nope >&2; exit 9").catch((e) => e);
    expect(err).toBeInstanceOf(RemoteCommandError);
    expect(err).toMatchObject({ code: 9, stderr: "nope\n", host: `root@127.0.0.1:${sshd.ports[0]}` });
  });

  test("pinned key is accepted; a wrong pinned key is refused with both fingerprints", async () => {
    const wrong = "SHA256:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";
    const err = await run(conn({ port: sshd.ports[1], hostKey: wrong }), "true").catch((e) => e);
    expect(err).toBeInstanceOf(HostKeyVerificationError);
    expect(err.message).toContain(wrong);
    expect(err.message).toContain(sshd.fingerprint);
  });

  test("known_hosts from ssh-keyscan (plain and hashed) is accepted", async () => {
    for (const hashed of [false, true]) {
      const keys = execFileSync("ssh-keyscan", [...(hashed ? ["-H"] : []), "-p", `${sshd.ports[1]}`, "127.0.0.1"], {
        stdio: ["ignore", "pipe", "ignore"],
      });
      const path = join(sshd.dir, `known_hosts_${hashed}`);
      writeFileSync(path, keys);
      closeAll();
      const spec = conn({ port: sshd.ports[1], hostKey: undefined, knownHostsPath: path });
      expect((await exec(spec, "echo known")).stdout).toBe("known\n");
    }
  });

  test("sshd answers keepalives; a command past its timeout is reported", async () => {
    const saved = { ...remoteSettings() };
    configureRemote({ keepaliveIntervalMs: 100, keepaliveCountMax: 2 });
    try {
      closeAll();
      // Many keepalive rounds while the command runs: a live server never trips them.
      expect((await exec(conn(), "sleep 1; echo alive")).stdout).toBe("alive\n");
      const err = await exec(conn(), "sleep 2", { timeoutMs: 300 }).catch((e) => e);
      expect(err).toBeInstanceOf(CommandTimeoutError);
      expect(err.message).toBe(`command timed out after 0.3s on root@127.0.0.1:${sshd.ports[0]}: sleep 2`);
      expect((await exec(conn(), "echo still usable")).stdout).toBe("still usable\n");
    } finally {
      closeAll();
      configureRemote(saved);
    }
  });

  describe("host lock", () => {
    const lockPath = () => join(sshd.dir, "lvs-pulumi.lock");
    // Two pooled connections (two ports) so only the flock on the host can serialize them.
    const section = (port: number, useLock: boolean) => async () => {
      const body = async () => {
        const start = Date.now();
        await exec(conn({ port }), "sleep 1");
        return { start, end: Date.now() };
      };
      return useLock ? withHostLock(conn({ port }), body, { path: lockPath() }) : body();
    };
    const overlaps = ([a, b]: { start: number; end: number }[]) => a.start < b.end && b.start < a.end;

    test("serializes concurrent critical sections on different connections", async () => {
      const locked = await Promise.all([section(sshd.ports[0], true)(), section(sshd.ports[1], true)()]);
      expect(overlaps(locked)).toBe(false);
      // Control: the same sections without the lock do overlap, so the check above means something.
      const free = await Promise.all([section(sshd.ports[0], false)(), section(sshd.ports[1], false)()]);
      expect(overlaps(free)).toBe(true);
    });

    test("is a real flock on the host, released afterwards, and re-entrant", async () => {
      const tryLock = () => spawnSync("flock", ["-n", lockPath(), "true"]).status;
      await withHostLock(
        conn(),
        async () => {
          expect(tryLock()).toBe(1);
          await withHostLock(conn(), async () => expect(tryLock()).toBe(1), { path: lockPath() });
        },
        { path: lockPath() },
      );
      expect(tryLock()).toBe(0);
    });

    test("times out with a clear error while another holder keeps it", async () => {
      const err = await withHostLock(
        conn(),
        () => withHostLock(conn({ port: sshd.ports[1] }), async () => "never", { path: lockPath(), timeoutSeconds: 1 }),
        { path: lockPath() },
      ).catch((e) => e);
      expect(err.message).toMatch(/^cannot lock .*lvs-pulumi\.lock on root@127\.0\.0\.1:\d+ \(exit 1\)/);
    });

    test("a lock lost while held fails the body: no command runs after the loss", async () => {
      const marker = join(sshd.dir, "after-loss");
      const outcome = await withHostLock(
        conn(),
        async () => {
          // The holder on the host dies (OOM killer, an admin's kill): the flock is gone, our connection is not.
          for (const pid of holdersOf(lockPath())) process.kill(pid, "SIGKILL");
          while (spawnSync("flock", ["-n", lockPath(), "true"]).status !== 0) await sleep(50);
          await sleep(500);
          await exec(conn(), `touch ${marker}`);
          return "finished";
        },
        { path: lockPath() },
      ).catch((e: Error) => e);
      expect(outcome).toBeInstanceOf(Error);
      expect((outcome as Error).message).toMatch(/^lost the host lock .*lvs-pulumi\.lock on root@127\.0\.0\.1:\d+/);
      expect(existsSync(marker)).toBe(false);
    });

    test("releases the lock when the body throws", async () => {
      await expect(
        withHostLock(conn(), async () => Promise.reject(new Error("boom")), { path: lockPath() }),
      ).rejects.toThrow("boom");
      expect(spawnSync("flock", ["-n", lockPath(), "true"]).status).toBe(0);
    });
  });
});
