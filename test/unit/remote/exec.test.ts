// Running commands (exec.ts): `run` reports, `exec` throws on failure, both through `sh -c` (and `sudo -n`), with
// every secret masked in errors and logs, and the command timeout from the settings unless the call sets its own.
import { CommandTimeoutError, RemoteCommandError } from "../../../provider/remote/errors";
import { commandError, exec, run } from "../../../provider/remote/exec";
import { setLogger } from "../../../provider/remote/log";
import { PASSWORD } from "./fake-ssh-server";
import { describeSshd, useFakeHosts, useOpenSsh, useSettings } from "./harness";

const hosts = useFakeHosts();
const spec = hosts.spec;

test("command errors mask command, output and message", () => {
  const spec = { host: "lb1", user: "ops", password: "hunter2", privateKeyPassword: "kp" };
  const err = commandError(spec, "login hunter2 kp", { stdout: "hunter2", stderr: "bad kp", code: 1 });
  expect(err).toBeInstanceOf(RemoteCommandError);
  expect(err).toMatchObject({ host: "ops@lb1:22", command: "login [secret] [secret]", stdout: "[secret]" });
  expect(err.message).toBe("command failed on ops@lb1:22 (exit code 1): login [secret] [secret]\nbad [secret]");
});

test("runs a command with a pinned host key", async () => {
  const r = await run(spec(), "echo out; echo err >&2; exit 3");
  expect(r).toEqual({ stdout: "out\n", stderr: "err\n", code: 3 });
  expect((await run(spec(), "cat", { stdin: "fed via stdin" })).stdout).toBe("fed via stdin");
});

test("failed command throws RemoteCommandError with secrets masked", async () => {
  const err = await exec(spec(), `echo ${PASSWORD}; echo token-xyz >&2; exit 7`, { secrets: ["token-xyz"] }).catch(
    (e) => e,
  );
  expect(err).toBeInstanceOf(RemoteCommandError);
  expect(err).toMatchObject({
    code: 7,
    host: `tester@127.0.0.1:${hosts.target.port}`,
    stdout: "[secret]\n",
    stderr: "[secret]\n",
  });
  expect(err.command).toBe("echo [secret]; echo [secret] >&2; exit 7");
  expect(JSON.stringify({ ...err, message: err.message })).not.toMatch(new RegExp(`${PASSWORD}|token-xyz`));
});

test("each command is logged at debug level with its connection, its secrets masked; its output is returned raw", async () => {
  const lines: string[] = [];
  setLogger({ debug: (m) => lines.push(m), info: (m) => lines.push(m), warn: (m) => lines.push(m) });
  const result = await exec(spec(), `echo ${PASSWORD} token-xyz`, { secrets: ["token-xyz"] });
  expect(result.stdout).toBe(`${PASSWORD} token-xyz\n`); // callers asked for it: only what leaves as text is masked
  expect(lines).toContain(`ssh: tester@127.0.0.1:${hosts.target.port}: echo [secret] [secret]`);
  expect(lines.join("\n")).not.toMatch(new RegExp(`${PASSWORD}|token-xyz`));
});

test("a sudo connection runs the command as `sudo -n sh -c`, a plain one as `sh -c`", async () => {
  expect((await exec(spec({ sudo: true }), "echo 'as root'")).stdout).toBe("as root\n");
  expect((await exec(spec(), "echo plain")).stdout).toBe("plain\n");
  expect(hosts.target.commands).toEqual(["sudo -n sh -c 'echo '\\''as root'\\'''", "sh -c 'echo plain'"]);
});

describe("with commandTimeoutMs 200", () => {
  useSettings({ commandTimeoutMs: 200 });

  test("a command without a timeout of its own gets the settings' one; timeoutMs 0 means no limit", async () => {
    const err = await exec(spec(), "sleep 2").catch((e) => e);
    expect(err).toBeInstanceOf(CommandTimeoutError);
    expect(err.timeoutMs).toBe(200);
    expect((await exec(spec(), "sleep 0.5; echo done", { timeoutMs: 0 })).stdout).toBe("done\n");
    expect((await exec(spec(), "sleep 0.5; echo longer", { timeoutMs: 5000 })).stdout).toBe("longer\n");
  });
});

describeSshd("real OpenSSH sshd", () => {
  const real = useOpenSsh();

  test("exec reports stdout, stderr and exit codes", async () => {
    const { sshd, conn } = real;
    expect(await run(conn(), "echo out; echo err >&2; exit 5")).toEqual({ stdout: "out\n", stderr: "err\n", code: 5 });
    expect((await exec(conn(), "printf '%s' \"$0\"")).stdout).toBe("sh"); // runs under sh -c
    expect((await run(conn(), "tr a-z A-Z", { stdin: "piped" })).stdout).toBe("PIPED");
    const err = await exec(conn(), "echo nope >&2; exit 9").catch((e) => e);
    expect(err).toBeInstanceOf(RemoteCommandError);
    expect(err).toMatchObject({ code: 9, stderr: "nope\n", host: `root@127.0.0.1:${sshd.ports[0]}` });
  });
});
