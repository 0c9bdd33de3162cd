import { readFileSync } from "fs";
import { join } from "path";

/** Real `ip -j` and `sysctl` output of a Debian 12 host (see test/fixtures/host/README.md). */
export function hostFixture(name: string): string {
  return readFileSync(join(__dirname, "../../fixtures/host", name), "utf8");
}
