// The package's public surface (package.json "main"): the names README.md documents for programs.
import * as fs from "fs";
import * as path from "path";
import * as lvs from "../../provider";
import type { HealthCheckArgs, RealServerArgs } from "../../provider";
import { LvsCluster } from "../../provider/cluster/cluster";
import { Director } from "../../provider/resources/director";
import { HAPair } from "../../provider/resources/ha-pair";
import { RealServer } from "../../provider/resources/real-server";
import { VirtualService } from "../../provider/resources/virtual-service";

const README = fs.readFileSync(path.join(__dirname, "../../README.md"), "utf8");

/** The names the README's programs import from "lvs-pulumi". */
function importedInReadme(): string[] {
  return [...README.matchAll(/import \{([^}]+)\} from "lvs-pulumi"/g)].flatMap((m) =>
    m[1].split(",").map((name) => name.trim()),
  );
}

test("every name the README's programs import from lvs-pulumi is exported, as the resource class itself", () => {
  const classes: Record<string, unknown> = { Director, HAPair, RealServer, VirtualService };
  const names = importedInReadme();
  expect(names.sort()).toEqual(Object.keys(classes).sort());
  for (const name of names)
    expect({ name, exported: (lvs as Record<string, unknown>)[name] }).toEqual({ name, exported: classes[name] });
});

test("LvsCluster, which the README offers for a topology in code, is exported", () => {
  expect(README).toContain("`LvsCluster` takes the same topology as an object");
  expect(lvs.LvsCluster).toBe(LvsCluster);
});

test("the argument types the README names are exported (a compile-level check)", () => {
  expect(README).toMatch(/RealServerArgs[\s\S]*HealthCheckArgs/);
  const check: HealthCheckArgs = { type: "http", path: "/healthz" };
  const args: Omit<RealServerArgs, "service"> = { address: "198.51.100.21", healthCheck: check };
  expect(args.healthCheck).toBe(check);
});
