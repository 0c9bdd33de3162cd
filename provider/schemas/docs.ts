// The README's "Resource inputs" tables, rendered from the input schemas (their JSON Schema and .describe() texts),
// so the documentation cannot drift from what check() accepts. `npm run docs` writes them into README.md.
import { z } from "zod";
import { connectionSchema } from "./connection";
import { directorInputsSchema } from "./director";
import { haPairInputsSchema } from "./ha-pair";
import { realServerInputsSchema } from "./real-server";
import { virtualServiceInputsSchema } from "./virtual-service";

type JsonSchema = z.core.JSONSchema.BaseSchema;

export const INPUTS_BEGIN = "<!-- inputs:begin -->";
export const INPUTS_END = "<!-- inputs:end -->";

/** One Markdown table per resource, and one for connections; ends with a newline. */
export function renderInputsTable(): string {
  const tables: [string, z.ZodType][] = [
    ["Director", directorInputsSchema()],
    ["VirtualService", virtualServiceInputsSchema()],
    ["RealServer", realServerInputsSchema()],
    ["HAPair", haPairInputsSchema()],
    ["Connection", connectionSchema()],
  ];
  return tables.map(([title, schema]) => renderTable(title, schema)).join("\n");
}

/** `readme` with the text between the markers replaced by the rendered tables. */
export function spliceInputsTable(readme: string, table: string = renderInputsTable()): string {
  const begin = readme.indexOf(INPUTS_BEGIN);
  const end = readme.indexOf(INPUTS_END);
  if (begin < 0 || end < begin) throw new Error(`README has no ${INPUTS_BEGIN} ... ${INPUTS_END} section`);
  return `${readme.slice(0, begin + INPUTS_BEGIN.length)}\n${table}\n${readme.slice(end)}`;
}

function renderTable(title: string, schema: z.ZodType): string {
  const json = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as JsonSchema;
  const required = new Set(json.required ?? []);
  const rows = Object.entries(json.properties ?? {}).map(([name, property]) => {
    const field = property as JsonSchema;
    if (!field.description) throw new Error(`${title}.${name} has no description (add .describe() to its schema)`);
    // A default of {} only means "the object's own fields take their defaults": the description says which.
    const presence = required.has(name)
      ? "required"
      : field.default !== undefined && !isEmptyObject(field.default)
        ? `default ${code(showDefault(field.default))}`
        : "optional";
    return row([code(name), typeOf(field), presence, field.description]);
  });
  return [
    `#### ${title}`,
    "",
    row(["input", "type", "required / default", "description"]),
    row(["---", "---", "---", "---"]),
    ...rows,
    "",
  ].join("\n");
}

function typeOf(schema: JsonSchema): string {
  if (schema.enum) return schema.enum.map((value) => code(String(value))).join(", ");
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives) return alternatives.map((s) => typeOf(s as JsonSchema)).join(" or ");
  const type = schema.type;
  if (Array.isArray(type)) return type.join(" or ");
  switch (type) {
    case "integer":
    case "number":
      return [type, range(schema)].filter(Boolean).join(" ");
    case "array": {
      const items = schema.items && !Array.isArray(schema.items) ? typeOf(schema.items as JsonSchema) : "any";
      return /\s|,/.test(items) ? `(${items})[]` : `${items}[]`;
    }
    case undefined:
      return "any";
    default:
      return type;
  }
}

function range(schema: JsonSchema): string {
  const { minimum, maximum } = schema;
  if (minimum !== undefined && maximum !== undefined) return `${minimum}..${maximum}`;
  if (minimum !== undefined) return `>= ${minimum}`;
  if (maximum !== undefined) return `<= ${maximum}`;
  return "";
}

function showDefault(value: unknown): string {
  return typeof value === "string" ? value : JSON.stringify(value);
}

function isEmptyObject(value: unknown): boolean {
  return value !== null && typeof value === "object" && !Array.isArray(value) && Object.keys(value).length === 0;
}

function code(text: string): string {
  return `\`${text}\``;
}

function row(cells: string[]): string {
  return `| ${cells.map((cell) => cell.replace(/\|/g, "\\|")).join(" | ")} |`;
}
