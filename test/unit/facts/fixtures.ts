import { readFileSync } from "fs";
import { join } from "path";

/** Real ipvsadm v1.31 output captured on Debian 12 (see test/fixtures/ipvsadm/README.md). */
export function ipvsadmFixture(name: string): string {
  return readFileSync(join(__dirname, "../../fixtures/ipvsadm", name), "utf8");
}

/** Real iptables v1.8.9 (nf_tables) listings captured on Debian 12 (see test/fixtures/iptables/README.md). */
export function iptablesFixture(name: string): string {
  return readFileSync(join(__dirname, "../../fixtures/iptables", name), "utf8");
}

/** Real keepalived v2.2.7 checker dumps captured on Debian 12 (see test/fixtures/keepalived/README.md). */
export function keepalivedFixture(name: string): string {
  return readFileSync(join(__dirname, "../../fixtures/keepalived", name), "utf8");
}
