// known_hosts parsing and host matching (known-hosts.ts), on written lines and on what ssh-keyscan prints.
import { execFileSync } from "child_process";
import { writeFileSync } from "fs";
import { join } from "path";
import { exec } from "../../../provider/remote/exec";
import {
  entriesForHost,
  entryMatchesHost,
  knownHostsName,
  parseKnownHosts,
} from "../../../provider/remote/known-hosts";
import { closeAll } from "../../../provider/remote/pool";
import { BLOB, HASHED, KEY_LINE } from "./fixtures";
import { describeSshd, useOpenSsh } from "./harness";

describe("known_hosts", () => {
  const line = KEY_LINE;

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

  test("CRLF line ends are read; lines missing a field are skipped", () => {
    const entries = parseKnownHosts(`lb1 ${line}\r\nlb2 ssh-ed25519\r\n  lb3   ${line}  \r\n`);
    expect(entries.map((e) => [e.hosts, e.keyType, e.key.equals(BLOB)])).toEqual([
      ["lb1", "ssh-ed25519", true],
      ["lb3", "ssh-ed25519", true],
    ]);
  });

  test("a negation wins wherever it stands; regex characters in a name are literal", () => {
    const [negatedFirst, dotted] = parseKnownHosts(`!bad.dc1,*.dc1 ${line}\nlb1.dc1 ${line}`);
    expect(entryMatchesHost(negatedFirst, "bad.dc1", 22)).toBe(false);
    expect(entryMatchesHost(negatedFirst, "good.dc1", 22)).toBe(true);
    expect(entryMatchesHost(dotted, "lb1.dc1", 22)).toBe(true);
    expect(entryMatchesHost(dotted, "lb1xdc1", 22)).toBe(false); // `.` is not "any character"
  });
});

describeSshd("real OpenSSH sshd", () => {
  const real = useOpenSsh();

  test("known_hosts from ssh-keyscan (plain and hashed) is accepted", async () => {
    const { sshd, conn } = real;
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
});
