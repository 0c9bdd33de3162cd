// Test tool: what the Pulumi CLI reads from a project folder before it runs anything. Not product code.
// Mirrors pulumi/pulumi pkg/engine/project.go (getPwdMain) and the stack config file rules.
import * as fs from "fs";
import * as path from "path";
import { load } from "js-yaml";

export interface Project {
  /** The folder holding Pulumi.yaml (`--root-directory`). */
  root: string;
  name: string;
  runtime: { name: string; options: Record<string, unknown> };
  main?: string;
}

/** Reads `<root>/Pulumi.yaml`; `runtime` may be a bare name or `{name, options}` as the CLI accepts. */
export function readProject(root: string): Project {
  const file = path.join(root, "Pulumi.yaml");
  const raw = load(fs.readFileSync(file, "utf8")) as Record<string, unknown>;
  if (typeof raw.name !== "string") throw new Error(`${file}: name is required`);
  const runtime = raw.runtime as string | { name: string; options?: Record<string, unknown> };
  const { name, options } = typeof runtime === "string" ? { name: runtime, options: {} } : runtime;
  if (name !== "nodejs") throw new Error(`${file}: runtime ${name} is not nodejs`);
  return {
    root,
    name: raw.name,
    runtime: { name, options: options ?? {} },
    main: typeof raw.main === "string" ? raw.main : undefined,
  };
}

/**
 * The program's working directory and entry point, exactly as getPwdMain computes them: no `main` runs "." in the
 * root; a folder runs "." inside that folder; a file runs its base name inside its own folder.
 */
export function programLocation(project: Project): { pwd: string; entryPoint: string } {
  if (!project.main) return { pwd: project.root, entryPoint: "." };
  // filepath.Clean: resolved against the root, no trailing separator.
  const main = path.resolve(project.root, project.main);
  const info = fs.statSync(main, { throwIfNoEntry: false });
  if (!info) throw new Error(`project 'main' could not be read: ${main}`);
  return info.isDirectory()
    ? { pwd: main, entryPoint: "." }
    : { pwd: path.dirname(main), entryPoint: path.basename(main) };
}

/**
 * `Pulumi.<stack>.yaml` config as the language host receives it: full keys, strings as they are, structured values as
 * JSON. Encrypted (`secure:`) values need the CLI's secrets manager: the caller passes those in plain text instead.
 */
export function readStackConfig(root: string, stack: string): Record<string, string> {
  const file = path.join(root, `Pulumi.${stack}.yaml`);
  if (!fs.existsSync(file)) return {};
  const raw = (load(fs.readFileSync(file, "utf8")) ?? {}) as { config?: Record<string, unknown> };
  const config: Record<string, string> = {};
  for (const [key, value] of Object.entries(raw.config ?? {})) {
    if (value && typeof value === "object" && "secure" in value) {
      throw new Error(`${file}: ${key} is encrypted; pass it to the test engine as a secret config value`);
    }
    config[key] = typeof value === "string" ? value : JSON.stringify(value);
  }
  return config;
}
