// The connection pool (pool.ts): one connection per session key, shared and re-dialed once down, closed when idle
// (but not under an open channel), a wedged channel open retried once on a fresh connection, and the channel cap.
// Against in-process ssh2 servers with the idle and channel-open timers shrunk.
import { randomBytes } from "crypto";
import { readFileSync } from "fs";
import { join } from "path";
import { connectionKey } from "../../../provider/remote/connection";
import { HostKeyVerificationError } from "../../../provider/remote/errors";
import { exec, run } from "../../../provider/remote/exec";
import { withHostLock } from "../../../provider/remote/lock";
import { closeAll, pooledConnections } from "../../../provider/remote/pool";
import { configureRemote, remoteSettings } from "../../../provider/remote/settings";
import { sleep, until, useFakeHosts, useSettings } from "./harness";

const IDLE_MS = 300;

const hosts = useFakeHosts({
  backoffInitialMs: 20,
  backoffMaxMs: 100,
  idleTimeoutMs: IDLE_MS,
  keepShellMs: IDLE_MS,
  channelOpenTimeoutMs: 500,
});
const spec = hosts.spec;
const viaJump = () => spec({ proxy: hosts.proxy() });

test("operations share one connection, and reconnect after it drops", async () => {
  await exec(spec(), "true");
  await Promise.all([exec(spec(), "sleep 0.1"), exec(spec(), "sleep 0.1"), exec(spec(), "true")]);
  expect(hosts.target.connections).toBe(1);
  expect(pooledConnections()).toEqual([`tester@127.0.0.1:${hosts.target.port}`]);

  hosts.target.dropAll();
  await new Promise((r) => setTimeout(r, 50));
  expect((await exec(spec(), "echo again")).stdout).toBe("again\n");
  expect(hosts.target.connections).toBe(2);
});

test("a connection that skips the host key check does not carry one that pins it", async () => {
  await exec(spec({ hostKey: undefined, insecureSkipHostKeyCheck: true }), "true");
  const wrong = `SHA256:${randomBytes(32).toString("base64").replace(/=+$/, "")}`;
  const err = await run(spec({ hostKey: wrong, dialErrorLimit: 1 }), "true").catch((e: unknown) => e);
  expect(err).toBeInstanceOf(HostKeyVerificationError);
  await exec(spec(), "true");
  expect(hosts.target.connections).toBe(3);
});

test("closeAll closes every pooled connection and the jump connections under them", async () => {
  await Promise.all([exec(spec(), "true"), exec(viaJump(), "true")]);
  expect(pooledConnections().sort()).toEqual([connectionKey(spec()), connectionKey(viaJump())].sort());
  closeAll();
  expect(pooledConnections()).toEqual([]);
  expect(await until(() => hosts.target.open === 0 && hosts.jump.open === 0)).toBe(true);
  await exec(spec(), "true");
  expect(hosts.target.connections).toBe(3);
});

describe("idle connections", () => {
  test("idle connections close after the idle timeout", async () => {
    const { idleTimeoutMs } = remoteSettings();
    configureRemote({ idleTimeoutMs: 50 });
    try {
      await exec(spec(), "true");
      await new Promise((r) => setTimeout(r, 150));
      expect(pooledConnections()).toEqual([]);
    } finally {
      configureRemote({ idleTimeoutMs });
    }
  });

  test("an idle connection is closed together with its jump connection, and the next exec re-dials", async () => {
    const { target, jump } = hosts;
    await exec(viaJump(), "true");
    expect(target.open).toBe(1);
    expect(jump.open).toBe(1);
    await sleep(IDLE_MS + 100);
    expect(pooledConnections()).toEqual([]);
    expect(await until(() => target.open === 0 && jump.open === 0)).toBe(true);

    expect((await exec(viaJump(), "echo back")).stdout).toBe("back\n");
    expect(jump.connections).toBe(2);
    expect(target.connections).toBe(2);
  });

  test("the idle timer leaves a connection alone while a lock channel is held on it", async () => {
    const { target, jump } = hosts;
    const path = join(hosts.dir, "lock");
    await withHostLock(
      viaJump(),
      async () => {
        await sleep(IDLE_MS * 3);
        expect(pooledConnections()).toEqual([connectionKey(viaJump())]);
        expect((await exec(viaJump(), "echo inside")).stdout).toBe("inside\n");
        await sleep(IDLE_MS * 2);
        expect(pooledConnections()).toEqual([connectionKey(viaJump())]);
      },
      { path },
    );
    expect(target.connections).toBe(1);
    expect(jump.connections).toBe(1);
    // Released: once its shell is no longer kept for the next hold, it idles out like any other.
    expect(await until(() => target.open === 0 && jump.open === 0)).toBe(true);
  });
});

test("a channel that cannot be opened in time is retried once on a fresh connection", async () => {
  const { target } = hosts;
  await exec(spec(), "true");
  target.stallSessions = 1;
  expect((await exec(spec(), "echo second")).stdout).toBe("second\n");
  expect(target.connections).toBe(2);
  expect(await until(() => target.open === 1)).toBe(true); // the wedged connection was closed

  target.stallSessions = 2; // the retry stalls too: give up with a clear error
  const err = await exec(spec(), "true").catch((e) => e);
  expect(err.message).toMatch(
    /^cannot open SSH channel: timed out after 500ms opening a channel on tester@127\.0\.0\.1:\d+$/,
  );
});

describe("with maxChannelsPerConnection 2", () => {
  useSettings({ maxChannelsPerConnection: 2 });

  test("no more commands run at once on a connection than the cap, and all share it", async () => {
    const trace = join(hosts.dir, "concurrency");
    const command = `echo + >> '${trace}'; sleep 0.3; echo - >> '${trace}'`;
    await Promise.all(Array.from({ length: 5 }, () => exec(spec(), command)));
    let running = 0;
    let most = 0;
    for (const step of readFileSync(trace, "utf8").trim().split("\n")) {
      running += step === "+" ? 1 : -1;
      most = Math.max(most, running);
    }
    expect(most).toBe(2);
    expect(hosts.target.connections).toBe(1);
  });
});
