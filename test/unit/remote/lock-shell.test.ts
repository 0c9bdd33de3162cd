// The shell that holds a host's lock and runs its holder's commands (lock-shell.ts): exec semantics for each command
// through one channel, the lock's fd kept from commands, and how the shell ends. Directly on a dialed connection,
// and as withHostLock uses it, against the in-process server.
import { join } from "path";
import { openExec } from "../../../provider/remote/channel";
import { Dialed, dial } from "../../../provider/remote/dial";
import { CommandTimeoutError, ConnectionLostError } from "../../../provider/remote/errors";
import { run } from "../../../provider/remote/exec";
import { withHostLock } from "../../../provider/remote/lock";
import { LockShell } from "../../../provider/remote/lock-shell";
import { wrapCommand } from "../../../provider/remote/wrap";
import { lockFree, until, useFakeHosts } from "./harness";

const hosts = useFakeHosts();
const spec = hosts.spec;
const opts = { timeoutMs: 5000, display: "(test command)" };

/** A LockShell on a connection of its own, closed after `fn`. */
async function withShell<T>(fn: (shell: LockShell, link: Dialed) => Promise<T>): Promise<T> {
  const link = await dial(spec());
  try {
    return await fn(new LockShell(await openExec(link, wrapCommand("exec sh", false)), link), link);
  } finally {
    link.close();
  }
}

test("stdin goes in a here-document only when it is text ending in a newline, without NUL", () => {
  expect([undefined, "one line\n", "a\nb\n"].map((stdin) => LockShell.carries(stdin))).toEqual([true, true, true]);
  expect(["", "no newline", "nul\0\n", Buffer.from("buffer\n")].map((stdin) => LockShell.carries(stdin))).toEqual([
    false,
    false,
    false,
    false,
  ]);
});

test("commands given at once run one after another, each with exactly its own output, status and stdin", async () => {
  const results = await withShell((shell) =>
    Promise.all([
      shell.run("sleep 0.2; echo first", undefined, opts),
      shell.run("echo second >&2; exit 4", undefined, opts),
      shell.run("cat", "$HOME `id` 'quoted'\nEND\n", opts),
      shell.run("cat; echo nothing read", undefined, opts),
    ]),
  );
  expect(results).toEqual([
    { stdout: "first\n", stderr: "", code: 0 },
    { stdout: "", stderr: "second\n", code: 4 },
    { stdout: "$HOME `id` 'quoted'\nEND\n", stderr: "", code: 0 },
    { stdout: "nothing read\n", stderr: "", code: 0 },
  ]);
  expect(hosts.target.commands).toEqual(["sh -c 'exec sh'"]);
});

test("runHere runs in the shell itself, whose state lasts; a command runs in a shell of its own", async () => {
  const seen = await withShell(async (shell) => {
    await shell.runHere("kept=in-shell", opts);
    await shell.run("kept=in-command", undefined, opts);
    return (await shell.runHere('echo "$kept"', opts)).stdout;
  });
  expect(seen).toBe("in-shell\n");
});

test("the lock's fd 9 is closed for commands: what one leaves running does not hold the lock", async () => {
  const path = join(hosts.dir, "fd9.lock");
  await withShell(async (shell) => {
    await shell.runHere(`exec 9>'${path}' && flock 9`, opts);
    expect(lockFree(path)).toBe(false);
    await shell.run("sleep 1 >/dev/null 2>&1 &", undefined, opts);
    await shell.runHere("exec 9>&-", opts);
    expect(lockFree(path)).toBe(true);
  });
});

test("a command past its timeout fails, and with it the shell: what was queued behind it never runs", async () => {
  await withShell(async (shell, link) => {
    const late = shell.run("sleep 2", undefined, { timeoutMs: 200, display: "sleep 2" });
    const queued = shell.run("echo never", undefined, opts);
    await expect(late).rejects.toThrow(new CommandTimeoutError(link.name, "sleep 2", 200));
    await expect(queued).rejects.toThrow(
      `${link.name}: the host lock's shell was closed after \`sleep 2\` timed out: nothing more runs under this lock`,
    );
    expect(shell.usable).toBe(false);
    expect(hosts.target.commands).toEqual(["sh -c 'exec sh'"]);
  });
});

test("close() makes the shell unusable at once; onEnd tells its end, also to a listener that comes later", async () => {
  await withShell(async (shell, link) => {
    const ends: Error[] = [];
    const removed: Error[] = [];
    shell.onEnd((reason) => ends.push(reason));
    shell.onEnd((reason) => removed.push(reason))();
    shell.close();
    expect(shell.usable).toBe(false);
    await expect(shell.run("true", undefined, opts)).rejects.toThrow(
      `SSH connection to ${link.name} lost: the host lock's shell was closed`,
    );
    expect(await until(() => ends.length > 0)).toBe(true);
    expect(ends).toEqual([new ConnectionLostError(link.name, "the host lock's shell ended")]);
    let late: Error | undefined;
    shell.onEnd((reason) => (late = reason));
    expect(late).toBe(ends[0]);
    expect(removed).toEqual([]);
    expect(link.downReason()).toBeUndefined(); // only the shell ended, not its connection
  });
});

test("a connection that goes down fails the command running in the shell with the connection's reason", async () => {
  await withShell(async (shell, link) => {
    const running = shell.run("sleep 3", undefined, opts).catch((e: Error) => e);
    hosts.target.dropAll();
    const err = await running;
    expect(err).toBeInstanceOf(ConnectionLostError);
    expect(err).toBe(link.downReason());
    expect(shell.usable).toBe(false);
  });
});

describe("inside the host lock, commands run in the lock's shell", () => {
  const lockPath = () => join(hosts.dir, "lvs-pulumi.lock");
  const free = () => lockFree(lockPath());

  test("one exec channel for the whole hold; output, stderr, exit status and stdin exactly as an exec's", async () => {
    hosts.target.commands.length = 0;
    const results = await withHostLock(
      spec(),
      async () => [
        await run(spec(), "printf 'no newline'; printf 'err' >&2; exit 3"),
        await run(spec(), "cat", { stdin: "line 1\nline 2\n" }),
        // Output that looks like an end line, and a command that reads stdin: it gets nothing (as /dev/null).
        await run(spec(), "echo 'lvs-pulumi-end-00 0'; cat; printf 'Ü'"),
        // Input a here-document cannot carry exactly (no final newline) takes a channel of its own.
        await run(spec(), "cat", { stdin: "no newline" }),
      ],
      { path: lockPath() },
    );
    expect(results).toEqual([
      { stdout: "no newline", stderr: "err", code: 3 },
      { stdout: "line 1\nline 2\n", stderr: "", code: 0 },
      { stdout: "lvs-pulumi-end-00 0\nÜ", stderr: "", code: 0 },
      { stdout: "no newline", stderr: "", code: 0 },
    ]);
    expect(hosts.target.commands).toHaveLength(2);
    // The shell itself: the lock is taken on its stdin.
    expect(hosts.target.commands[0]).toBe("sh -c 'exec sh'");
    expect(free()).toBe(true);
  });

  test("a command past its timeout fails and ends the shell: nothing runs after it; the lock goes when the command ends", async () => {
    const outcome = await withHostLock(
      spec(),
      async () => {
        const error = await run(spec(), "sleep 2", { timeoutMs: 300 }).catch((e: Error) => e);
        expect(error).toBeInstanceOf(CommandTimeoutError);
        await run(spec(), "true");
        return "went on";
      },
      { path: lockPath() },
    ).catch((e: Error) => e);
    expect(String(outcome)).toMatch(/lost the host lock|the host lock's shell was closed after `sleep 2` timed out/);
    // The command may still be changing the host: nothing else takes the lock meanwhile.
    expect(free()).toBe(false);
    const deadline = Date.now() + 5000;
    while (!free() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(free()).toBe(true);
  });
});
