/**
 * A schema built on its first use and shared after that. zod compiles a schema's parser when it first parses, so a
 * schema built per call pays construction and compile (and their garbage) on every check, diff and read: seconds of
 * CPU and hundreds of MB at a few hundred resources.
 */
export function once<T>(build: () => T): () => T {
  let built: T | undefined;
  return () => (built ??= build());
}
