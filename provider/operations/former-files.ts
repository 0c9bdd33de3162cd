import { fileFact } from "../facts/files";
import { FormerFile, formerFileOf } from "../plan/former-files";
import { formerPath, Naming } from "../model/host-paths";
import { HostSession } from "./session";

/**
 * The file an earlier version wrote for `key` under its former name (model/host-paths.ts formerPath), when it is there and
 * `ours` finds it is this key's. Only keys whose name changed (IPv6) cost a read.
 */
export async function readFormerFile(
  session: HostSession,
  pathOf: (key: string, name?: Naming) => string,
  key: string,
  ours: (content: string) => boolean,
): Promise<FormerFile | undefined> {
  const path = formerPath(pathOf, key);
  if (path === undefined) return undefined;
  const { content } = await session.read({ content: fileFact(path) });
  return formerFileOf(path, content, ours);
}
