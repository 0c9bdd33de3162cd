// One exec channel (channel.ts): opening it (and when a failed open may be retried), collecting output and status,
// and the command timeout. Against the in-process server (wedged servers) and a real sshd (real channels).
import { EventEmitter } from "events";
import type { Client, ClientChannel } from "ssh2";
import { Link, runOnLink } from "../../../provider/remote/channel";
import { connectionKey } from "../../../provider/remote/connection";
import { CommandTimeoutError } from "../../../provider/remote/errors";
import { exec, run } from "../../../provider/remote/exec";
import { closeAll, pooledConnections } from "../../../provider/remote/pool";
import { configureRemote, remoteSettings } from "../../../provider/remote/settings";
import { describeSshd, useFakeHosts, useOpenSsh } from "./harness";

const hosts = useFakeHosts({ channelOpenTimeoutMs: 500 });
const direct = hosts.spec;

test("an exec request left unanswered is not retried: the command may have started", async () => {
  const { target } = hosts;
  await exec(direct(), "true");
  target.stallExecs = 1;
  const err = await exec(direct(), "true").catch((e) => e);
  expect(err.message).toMatch(
    /^cannot open SSH channel: timed out after 500ms waiting for the command to start \(it may have started\) on tester@127\.0\.0\.1:\d+$/,
  );
  expect(target.connections).toBe(1);
  expect(pooledConnections()).toEqual([]); // the wedged connection is out of the pool
  expect((await exec(direct(), "echo ok")).stdout).toBe("ok\n");
  expect(target.connections).toBe(2);
});

test("a command running past its timeout is killed and reported; the connection stays usable", async () => {
  const started = Date.now();
  const err = await exec(direct(), "sleep 5", { timeoutMs: 200 }).catch((e) => e);
  expect(Date.now() - started).toBeLessThan(2000);
  expect(err).toBeInstanceOf(CommandTimeoutError);
  expect(err.message).toBe(`command timed out after 0.2s on ${connectionKey(direct())}: sleep 5`);
  expect((await exec(direct(), "echo ok")).stdout).toBe("ok\n");
  expect(hosts.target.connections).toBe(1);
});

test("an exit status that ssh2 emits with the exec's confirmation is kept: the command's status, not a lost link", async () => {
  // ssh2 parses the confirmation and the exit-status request of one read in one go: `exit` fires before openExec's
  // promise lets collect listen (seen ~1 in 20 execs through a jump host). A stand-in client does exactly that.
  const client = {
    exec(_command: string, callback: (err: Error | undefined, channel: ClientChannel) => void) {
      const channel = Object.assign(new EventEmitter(), { stderr: new EventEmitter(), end: () => {}, close: () => {} });
      callback(undefined, channel as unknown as ClientChannel);
      channel.emit("exit", 3);
      setTimeout(() => channel.emit("close"), 10);
    },
  };
  const link: Link = {
    client: client as unknown as Client,
    name: "stand-in",
    downReason: () => undefined,
    onDown: () => () => {},
  };
  expect(await runOnLink(link, "exit 3", undefined)).toEqual({ stdout: "", stderr: "", code: 3 });
});

describeSshd("real OpenSSH sshd", () => {
  const real = useOpenSsh();

  test("sshd answers keepalives; a command past its timeout is reported", async () => {
    const { sshd, conn } = real;
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

  test("a command killed by a signal reports no exit code and the signal's name (as ssh2 names it)", async () => {
    expect(await run(real.conn(), "echo before; kill -KILL $$")).toEqual({
      stdout: "before\n",
      stderr: "",
      code: null,
      signal: "SIGKILL",
    });
    await expect(exec(real.conn(), "kill -TERM $$")).rejects.toThrow(/ \(signal SIGTERM\): kill -TERM \$\$$/);
  });

  test("output is decoded whole: multi-byte characters split across SSH packets come through intact", async () => {
    // 150 kB of two-byte characters: many packets, and their boundaries fall inside characters.
    const { stdout, stderr } = await exec(real.conn(), "yes Ü | head -n 50000; yes é | head -n 50000 >&2");
    expect(stdout).toBe("Ü\n".repeat(50000));
    expect(stderr).toBe("é\n".repeat(50000));
  });

  test("stdin is always ended: a command reading it without input gets EOF at once", async () => {
    expect((await exec(real.conn(), "cat; echo done", { timeoutMs: 10_000 })).stdout).toBe("done\n");
    expect((await exec(real.conn(), "wc -c", { stdin: Buffer.from([0, 1, 2, 255]) })).stdout.trim()).toBe("4");
  });
});
