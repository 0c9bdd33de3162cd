// The per-host lock (lock.ts): a flock on the host, held by a shell kept between holds, queued in-process, re-entrant
// within one async call chain, its shell per session, and what a lost lock stops. Against the in-process server and
// a real sshd.
import { spawnSync } from "child_process";
import { existsSync, readFileSync, readdirSync, readlinkSync } from "fs";
import { join } from "path";
import { connectionKey } from "../../../provider/remote/connection";
import { exec, run } from "../../../provider/remote/exec";
import { DEFAULT_LOCK_PATH, closeKeptShells, holdsHostLock, withHostLock } from "../../../provider/remote/lock";
import { configureRemote, remoteSettings } from "../../../provider/remote/settings";
import { describeSshd, lockFree, sleep, until, useFakeHosts, useOpenSsh, useSettings } from "./harness";

const hosts = useFakeHosts();
const spec = hosts.spec;
const unverified = (over = {}) => spec({ hostKey: undefined, insecureSkipHostKeyCheck: true, ...over });
const lockPath = () => join(hosts.dir, "lvs-pulumi.lock");
const free = () => lockFree(lockPath());
const shellsOpened = () => hosts.target.commands.filter((c) => c.endsWith("sh -c 'exec sh'"));

test("the default lock file is the one the README names", () => {
  const readme = readFileSync(join(__dirname, "../../../README.md"), "utf8");
  expect(readme).toContain(`(\`flock\` on \`${DEFAULT_LOCK_PATH}\`)`);
});

test("holdsHostLock: true in the holding call chain for its host, whatever the session; not elsewhere", async () => {
  expect(holdsHostLock(spec())).toBe(false);
  let release!: () => void;
  const held = withHostLock(
    spec(),
    async () => {
      const inside = [holdsHostLock(spec()), holdsHostLock(spec({ sudo: true })), holdsHostLock(spec({ port: 1 }))];
      await new Promise<void>((resolve) => (release = resolve));
      return inside;
    },
    { path: lockPath() },
  );
  expect(await until(() => release !== undefined)).toBe(true);
  expect(holdsHostLock(spec())).toBe(false); // this chain is not the holder, though the lock is held
  release();
  expect(await held).toEqual([true, true, false]);
});

test("holds in one process wait for each other here: bodies never overlap, and they share one lock shell", async () => {
  const hold = () =>
    withHostLock(
      spec(),
      async () => {
        const start = Date.now();
        await run(spec(), "sleep 0.2");
        return { start, end: Date.now() };
      },
      { path: lockPath() },
    );
  const spans = (await Promise.all([hold(), hold(), hold()])).sort((a, b) => a.start - b.start);
  for (let i = 1; i < spans.length; i++) expect(spans[i].start).toBeGreaterThanOrEqual(spans[i - 1].end);
  expect(shellsOpened()).toHaveLength(1);
  expect(hosts.target.connections).toBe(1);
});

test("a lock file that cannot be created fails the hold before its body runs, naming path and host", async () => {
  const path = join(hosts.dir, "no-such-dir", "lock");
  let ran = false;
  const err = await withHostLock(spec(), async () => (ran = true), { path }).catch((e: Error) => e);
  const named = `cannot lock ${path} on ${connectionKey(spec())}`;
  expect(String(err).slice(0, `Error: ${named}`.length)).toBe(`Error: ${named}`);
  expect(ran).toBe(false);
  expect(await withHostLock(spec(), async () => free(), { path: lockPath() })).toBe(false); // the host still locks
});

describe("the shell kept between holds", () => {
  test("the shell stays open for the next hold: two holds, one exec channel, the lock free between them", async () => {
    hosts.target.commands.length = 0;
    const held = () =>
      withHostLock(spec(), async () => [free(), (await run(spec(), "echo ok")).stdout], { path: lockPath() });
    expect(await held()).toEqual([false, "ok\n"]);
    expect(free()).toBe(true);
    expect(await held()).toEqual([false, "ok\n"]);
    expect(free()).toBe(true);
    expect(hosts.target.commands).toEqual(["sh -c 'exec sh'"]);
  });

  test("a kept shell whose idle time just ran out is not taken by the next hold (its channel is still closing)", async () => {
    const { keepShellMs } = remoteSettings();
    configureRemote({ keepShellMs: 0 });
    try {
      hosts.target.commands.length = 0;
      const hold = () => withHostLock(spec(), async () => (await run(spec(), "echo ok")).stdout, { path: lockPath() });
      expect(await hold()).toBe("ok\n");
      // The idle timer fires (the shell gets EOF); its channel's close comes a round trip later.
      await new Promise((resolve) => setTimeout(resolve, 0));
      expect(await hold()).toBe("ok\n");
      expect(hosts.target.commands).toEqual(["sh -c 'exec sh'", "sh -c 'exec sh'"]);
    } finally {
      configureRemote({ keepShellMs });
    }
  });

  test("closeKeptShells ends the kept shells: the next hold opens a fresh one on the same connection", async () => {
    await withHostLock(spec(), async () => {}, { path: lockPath() });
    closeKeptShells();
    await withHostLock(spec(), async () => {}, { path: lockPath() });
    expect(shellsOpened()).toHaveLength(2);
    expect(hosts.target.connections).toBe(1);
  });

  describe("with keepShellMs 100", () => {
    useSettings({ keepShellMs: 100 });

    test("a kept shell ends keepShellMs after the last hold", async () => {
      const hold = () => withHostLock(spec(), async () => {}, { path: lockPath() });
      await hold();
      await hold();
      expect(shellsOpened()).toHaveLength(1);
      await sleep(400);
      await hold();
      expect(shellsOpened()).toHaveLength(2);
    });
  });
});

describe("with maxChannelsPerConnection 1", () => {
  useSettings({ maxChannelsPerConnection: 1 });

  test("a held lock takes no slot of the channel cap: an exec of its own still runs inside the hold", async () => {
    const inside = withHostLock(spec(), async () => (await run(spec(), "cat", { stdin: "own channel" })).stdout, {
      path: lockPath(),
    });
    const stuck = new Promise((resolve) => setTimeout(() => resolve("stuck"), 3000).unref());
    expect(await Promise.race([inside, stuck])).toBe("own channel");
  });
});

describe("sessions", () => {
  test("sudo and plain connections to one user@host:port get separate sessions and lock shells", async () => {
    const { target } = hosts;
    await exec(spec({ sudo: true }), "true");
    await exec(spec(), "true");
    expect(target.connections).toBe(2);
    await withHostLock(spec({ sudo: true }), () => exec(spec({ sudo: true }), "true"), { path: lockPath() });
    await withHostLock(spec(), () => exec(spec(), "true"), { path: lockPath() });
    expect(target.commands.filter((c) => c.endsWith("sh -c 'exec sh'"))).toEqual([
      "sudo -n sh -c 'exec sh'",
      "sh -c 'exec sh'",
    ]);
  });

  test("a nested hold with other trust settings keeps the host locked and runs over its own session", async () => {
    const { target } = hosts;
    const inner = unverified({ sudo: true });
    const seen = await withHostLock(
      spec(),
      () =>
        withHostLock(inner, async () => [holdsHostLock(inner), free(), (await exec(inner, "echo inner")).stdout], {
          path: lockPath(),
          timeoutSeconds: 2,
        }),
      { path: lockPath() },
    );
    expect(seen).toEqual([true, false, "inner\n"]);
    expect(free()).toBe(true);
    expect(target.connections).toBe(2);
    // The outer hold's shell, then the inner command as an exec of its own (with its sudo), not in that shell.
    expect(target.commands).toEqual(["sh -c 'exec sh'", "sudo -n sh -c 'echo inner'"]);
  });
});

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

describeSshd("real OpenSSH sshd", () => {
  const real = useOpenSsh();

  describe("host lock", () => {
    const lockPath = () => join(real.sshd.dir, "lvs-pulumi.lock");
    const { conn } = real;
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
      const { sshd } = real;
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
      const { sshd } = real;
      const err = await withHostLock(
        conn(),
        () => withHostLock(conn({ port: sshd.ports[1] }), async () => "never", { path: lockPath(), timeoutSeconds: 1 }),
        { path: lockPath() },
      ).catch((e) => e);
      expect(err.message).toMatch(/^cannot lock .*lvs-pulumi\.lock on root@127\.0\.0\.1:\d+ \(exit 1\)/);
    });

    test("a lock lost while held fails the body: no command runs after the loss", async () => {
      const marker = join(real.sshd.dir, "after-loss");
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
