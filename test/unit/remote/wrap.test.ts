// Command wrapping (wrap.ts): what the remote login shell is given, whatever shell that is.
import { spawnSync } from "child_process";
import { wrapCommand } from "../../../provider/remote/wrap";

describe("command wrapping", () => {
  test("always sh -c, sudo -n when asked", () => {
    expect(wrapCommand("ipvsadm -Ln", false)).toBe("sh -c 'ipvsadm -Ln'");
    expect(wrapCommand("echo 'it''s'", true)).toBe(`sudo -n sh -c 'echo '\\''it'\\'''\\''s'\\'''`);
    expect(wrapCommand("true", undefined)).toBe("sh -c true");
  });

  // sshd hands the command to the user's login shell as `<shell> -c <command>`: bash and dash here.
  test.each(["bash", "sh"])("%s as the login shell runs exactly what sh -c runs", (login) => {
    const commands = [
      `printf '%s|' a\\ b "c d" 'e'"'"'f' "$0"`,
      'x=1; echo "${x}" $((x + 2)) *.json; echo $HOME',
      "printf 'line 1\\nline 2'; exit 3",
      `[ "$(echo x)" = x ] && echo 'back\\slash'`,
    ];
    for (const command of commands) {
      const direct = spawnSync("sh", ["-c", command], { encoding: "utf8" });
      const wrapped = spawnSync(login, ["-c", wrapCommand(command, false)], { encoding: "utf8" });
      expect({ command, stdout: wrapped.stdout, stderr: wrapped.stderr, status: wrapped.status }).toEqual({
        command,
        stdout: direct.stdout,
        stderr: direct.stderr,
        status: direct.status,
      });
    }
  });
});
