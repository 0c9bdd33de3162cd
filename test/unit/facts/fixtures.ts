import { readFileSync } from "fs";
import { join } from "path";

/** Real ipvsadm v1.31 output captured on Debian 12 (see test/fixtures/ipvsadm/README.md). */
export function ipvsadmFixture(name: string): string {
  return readFileSync(join(__dirname, "../../fixtures/ipvsadm", name), "utf8");
}
