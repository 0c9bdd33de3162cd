import { readFileSync } from "fs";
import { join } from "path";
import { INPUTS_BEGIN, INPUTS_END, renderInputsTable, spliceInputsTable } from "../../../provider/schemas/docs";

function tableOf(tables: string, title: string): string {
  const start = tables.indexOf(`#### ${title}\n`);
  expect(start).toBeGreaterThanOrEqual(0);
  const next = tables.indexOf("\n#### ", start + 1);
  return tables.slice(start, next < 0 ? undefined : next);
}

function rowOf(table: string, input: string): string {
  const line = table.split("\n").find((text) => text.startsWith(`| \`${input}\` |`));
  if (line === undefined) throw new Error(`no row for ${input} in:\n${table}`);
  return line;
}

describe("README inputs tables", () => {
  it("are the ones the schemas render", () => {
    const readme = readFileSync(join(__dirname, "..", "..", "..", "README.md"), "utf8");
    expect(readme).toContain(INPUTS_BEGIN);
    expect(readme).toContain(INPUTS_END);
    if (spliceInputsTable(readme) !== readme) throw new Error("README inputs table is stale: run npm run docs");
  });

  it("render types, ranges, defaults and descriptions", () => {
    const tables = renderInputsTable();
    expect(renderInputsTable()).toBe(tables);
    for (const title of ["Director", "VirtualService", "RealServer", "Connection"]) tableOf(tables, title);

    const realServer = tableOf(tables, "RealServer");
    expect(rowOf(realServer, "weight")).toMatch(/^\| `weight` \| integer 0\.\.65535 \| default `1` \| \S/);
    expect(rowOf(realServer, "forwarding")).toContain("| `dr`, `nat`, `tun`, `fullnat` | default `dr` |");
    expect(rowOf(realServer, "address")).toContain("| string | required |");
    expect(rowOf(realServer, "host")).toContain("| object | optional |");

    const service = tableOf(tables, "VirtualService");
    expect(rowOf(service, "directors")).toContain("| object[] | required |");
    expect(rowOf(service, "scheduler")).toContain("`wlc`, `lblc`");
    expect(rowOf(service, "schedulerFlags")).toContain("| (`sh-fallback`, `sh-port`, `mh-fallback`, `mh-port`)[] |");

    // A health check: the types by name in the field's row, and each type's fields in a table of its own.
    expect(rowOf(service, "healthCheck")).toContain(
      "| one of `tcp` \\| `http` \\| `https` \\| `misc` \\| `dns` (HealthCheck below) | optional |",
    );
    expect(rowOf(realServer, "healthCheck")).toContain("one of `tcp` \\| `http`");
    const check = tableOf(tables, "HealthCheck");
    expect(check).toContain("One of the types `tcp`, `http`, `https`, `misc`, `dns`, chosen by `type`");
    expect(rowOf(check, "intervalSeconds")).toContain("| all | integer 1..3600 | default `6` |");
    expect(rowOf(check, "path")).toContain("| `http`, `https` | string | default `/` |");
    expect(rowOf(check, "command")).toContain("| `misc` | string[] | required |");
    expect(rowOf(check, "recordType")).toContain("| `dns` | `A`, `AAAA`");
    expect(tables.split("#### HealthCheck")).toHaveLength(2);

    const connection = tableOf(tables, "Connection");
    expect(rowOf(connection, "port")).toContain("| integer 1..65535 | default `22` |");
    expect(rowOf(connection, "insecureSkipHostKeyCheck")).toContain("| boolean | default `false` |");
  });

  it("splice between the markers only", () => {
    const readme = `intro\n${INPUTS_BEGIN}\nold\n${INPUTS_END}\n\nafter\n`;
    expect(spliceInputsTable(readme, "new\n")).toBe(`intro\n${INPUTS_BEGIN}\nnew\n\n${INPUTS_END}\n\nafter\n`);
    expect(() => spliceInputsTable("no markers")).toThrow(/inputs:begin/);
  });
});
