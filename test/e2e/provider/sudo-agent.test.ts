// Real hosts are rarely reached as root: the DR scenario as a non-root user with passwordless sudo, authenticated
// only by an ssh-agent (on the jump host too). The agent is ours: started here, stopped by its PID.
import { execFileSync } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { labExec, labHosts } from "../../lab/lab";
import { sudoAgentConnectionTo } from "./fixture";
import { describeScenario, drScenario } from "./scenario";

const agentDir = fs.mkdtempSync(path.join(os.tmpdir(), "lvs-agent-"));
const socket = path.join(agentDir, "agent.sock");
let agentPid: number | undefined;

beforeAll(() => {
  const out = execFileSync("ssh-agent", ["-s", "-a", socket], { encoding: "utf8" });
  agentPid = Number(/SSH_AGENT_PID=(\d+)/.exec(out)?.[1]);
  execFileSync("ssh-add", ["-q", labHosts().sudoUser.privateKeyPath], {
    env: { ...process.env, SSH_AUTH_SOCK: socket },
    stdio: "ignore",
  });
});

afterAll(() => {
  if (agentPid) process.kill(agentPid, "SIGTERM");
  fs.rmSync(agentDir, { recursive: true, force: true });
});

describeScenario({ ...drScenario("sudo-dr"), connect: (host) => sudoAgentConnectionTo(host, socket) });

test("the provider logged in as the non-root user and changed the hosts through sudo (the lock's shell)", async () => {
  const user = labHosts().sudoUser.user;
  for (const host of ["dir1", "rs1"]) {
    // (The test's own checks log in as root; the provider's logins and sudo runs are the user's.)
    expect(await labExec(host, "journalctl -q --no-pager _COMM=sshd")).toContain(`Accepted publickey for ${user}`);
    // Changes run in the host's lock shell (remote/lock.ts, lock-shell.ts), started through sudo.
    expect(await labExec(host, "journalctl -q --no-pager _COMM=sudo")).toMatch(
      new RegExp(`${user} : .*USER=root ; COMMAND=\\S*/sh -c 'exec sh'$`, "m"),
    );
  }
});
