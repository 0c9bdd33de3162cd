// HostSession.apply against a real OpenSSH sshd: what reaches the host and what its change log keeps.
import { existsSync, readFileSync, statSync } from "fs";
import { join } from "path";
import { HostSession } from "../../../provider/operations/session";
import { planFiles } from "../../../provider/plan/files";
import { ConnectionSpec } from "../../../provider/remote/connection";
import { closeAll } from "../../../provider/remote/pool";
import { OpenSshServer, SSHD, startOpenSsh } from "../remote/openssh-server";

const describeSshd = existsSync(SSHD) ? describe : describe.skip;
jest.setTimeout(60_000);

describeSshd("HostSession.apply", () => {
  let sshd: OpenSshServer;
  const conn = (): ConnectionSpec => ({
    host: "127.0.0.1",
    port: sshd.ports[0],
    user: "root",
    privateKey: sshd.privateKey,
    hostKey: sshd.fingerprint,
  });

  beforeAll(async () => {
    sshd = await startOpenSsh();
  });
  afterAll(async () => {
    closeAll();
    await sshd?.stop();
  });

  test("a file far beyond one argument's limit (128 KiB) is written; the log keeps its digest, not its body", async () => {
    const log = join(sshd.dir, "log", "changes.log");
    const target = join(sshd.dir, "big.rules");
    const body = "-a -t 198.51.100.40:80 -r 198.51.100.21:80 -g -w 1\n".repeat(6000); // ~300 KB
    await new HostSession(conn(), log).apply(planFiles([{ path: target, content: body }], {}));
    expect(readFileSync(target, "utf8")).toBe(body);
    const logged = readFileSync(log, "utf8");
    expect(logged).not.toContain("198.51.100.21");
    expect(logged).toMatch(new RegExp(`write ${target} \\(mode 0644, ${body.length} bytes, sha256:[0-9a-f]{16}\\)`));
    expect(statSync(log).mode & 0o777).toBe(0o600);
  });
});
