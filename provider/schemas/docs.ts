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
  const unions = new Map<string, JsonSchema[]>();
  const rendered = tables.map(([title, schema]) => renderTable(title, schema, unions));
  return [...rendered, ...[...unions].map(([title, alternatives]) => renderUnion(title, alternatives))].join("\n");
}

/** `readme` with the text between the markers replaced by the rendered tables. */
export function spliceInputsTable(readme: string, table: string = renderInputsTable()): string {
  const begin = readme.indexOf(INPUTS_BEGIN);
  const end = readme.indexOf(INPUTS_END);
  if (begin < 0 || end < begin) throw new Error(`README has no ${INPUTS_BEGIN} ... ${INPUTS_END} section`);
  return `${readme.slice(0, begin + INPUTS_BEGIN.length)}\n${table}\n${readme.slice(end)}`;
}

/**
 * A field that is one of several objects told apart by `type` (a health check) is rendered as "one of" the types,
 * and `unions` gets its alternatives under a title of their own (the field's name, capitalized), rendered once.
 */
function renderTable(title: string, schema: z.ZodType, unions: Map<string, JsonSchema[]>): string {
  const json = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as JsonSchema;
  const required = new Set(json.required ?? []);
  const rows = Object.entries(json.properties ?? {}).map(([name, property]) => {
    const field = property as JsonSchema;
    if (!field.description) throw new Error(`${title}.${name} has no description (add .describe() to its schema)`);
    const alternatives = typedAlternatives(field);
    let type = typeOf(field);
    if (alternatives) {
      const union = name.charAt(0).toUpperCase() + name.slice(1);
      unions.set(union, alternatives);
      type = `one of ${alternatives.map((a) => code(typeName(a))).join(" | ")} (${union} below)`;
    }
    return row([code(name), type, presence(field, required.has(name)), field.description]);
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

/** One table for every type of the union: each field with the types that take it. */
function renderUnion(title: string, alternatives: JsonSchema[]): string {
  const names = alternatives.map(typeName);
  const fields = new Map<string, { field: JsonSchema; required: boolean; types: string[] }>();
  alternatives.forEach((alternative, i) => {
    const required = new Set(alternative.required ?? []);
    for (const [name, property] of Object.entries(alternative.properties ?? {})) {
      if (name === "type") continue;
      const known = fields.get(name) ?? { field: property as JsonSchema, required: required.has(name), types: [] };
      known.types.push(names[i]);
      fields.set(name, known);
    }
  });
  const rows = [...fields].map(([name, { field, required, types }]) => {
    if (!field.description) throw new Error(`${title}.${name} has no description (add .describe() to its schema)`);
    const of = types.length === names.length ? "all" : types.map(code).join(", ");
    return row([code(name), of, typeOf(field), presence(field, required), field.description]);
  });
  return [
    `#### ${title}`,
    "",
    `One of the types ${names.map(code).join(", ")}, chosen by \`type\`; the fields each type takes:`,
    "",
    row(["input", "types", "type", "required / default", "description"]),
    row(["---", "---", "---", "---", "---"]),
    ...rows,
    "",
  ].join("\n");
}

/** The alternatives of a union whose members are objects each with a constant `type`, else undefined. */
function typedAlternatives(schema: JsonSchema): JsonSchema[] | undefined {
  const alternatives = (schema.oneOf ?? schema.anyOf) as JsonSchema[] | undefined;
  if (!alternatives || !alternatives.every((a) => typeof typeConst(a) === "string")) return undefined;
  return alternatives;
}

function typeConst(schema: JsonSchema): unknown {
  return (schema.properties?.type as JsonSchema | undefined)?.const;
}

function typeName(schema: JsonSchema): string {
  return String(typeConst(schema));
}

// A default of {} only means "the object's own fields take their defaults": the description says which.
function presence(field: JsonSchema, required: boolean): string {
  if (required) return "required";
  if (field.default !== undefined && !isEmptyObject(field.default))
    return `default ${code(showDefault(field.default))}`;
  return "optional";
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
