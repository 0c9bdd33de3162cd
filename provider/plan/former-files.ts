import { parseIpvsSave } from "../facts/ipvs-save";
import { parseSnatRules } from "../facts/snat-rules";
import { SnatRule } from "../model/snat-rule";
import { planFiles } from "./files";
import { Step } from "./step";

// Files an earlier version wrote under a former name (model/host-paths.ts formerPath). Two keys could share that name, so
// a file found there is taken for a key only when its content is that key's; someone else's is left alone.

/** Whether an `ipvsadm -R` fragment defines the service `key`. */
export function holdsService(key: string): (content: string) => boolean {
  return (content) => parsed(content)?.services[key] !== undefined;
}

/** Whether an `ipvsadm -R` fragment defines the real server `key`. */
export function holdsDestination(key: string): (content: string) => boolean {
  return (content) => parsed(content)?.destinations[key] !== undefined;
}

function parsed(content: string) {
  try {
    return parseIpvsSave(content);
  } catch {
    return undefined;
  }
}

/** Whether a SNAT fragment ("<iptables|ip6tables> <spec>") is the rule of `rule`'s real server (any DIP). */
export function holdsSnatRule(rule: SnatRule): (content: string) => boolean {
  return (content) => {
    const spec = content.trim().split(/\s+/).slice(1).join(" ");
    return parseSnatRules(`-A POSTROUTING ${spec}`).some(
      (r) => r.vip === rule.vip && r.port === rule.port && r.rip === rule.rip,
    );
  };
}

/** Whether a claim file is the claim `id`. */
export function holdsClaim(id: string): (content: string) => boolean {
  return (content) => {
    try {
      return (JSON.parse(content) as { id?: unknown }).id === id;
    } catch {
      return false;
    }
  };
}

/** A file found under a former name, with its content. */
export interface FormerFile {
  path: string;
  content: string;
}

/** The former file when it is there and `ours` says it is the key's; undefined otherwise. */
export function formerFileOf(
  path: string | undefined,
  content: string | null,
  ours: (content: string) => boolean,
): FormerFile | undefined {
  return path !== undefined && content !== null && ours(content) ? { path, content } : undefined;
}

/** Removes the former file: the file under today's name replaces it (boot must not replay an entry twice). */
export function planFormerFileRemoval(former: FormerFile | undefined): Step[] {
  return former ? planFiles([{ path: former.path, content: null }], { [former.path]: former.content }) : [];
}
