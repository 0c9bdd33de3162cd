import { HostClaim, HostOriginals } from "../model/host-claim";
import { CLAIM_DIR, ORIGINALS_FILE } from "../model/host-paths";
import { hostClaimSchema, hostOriginalsSchema } from "../schemas/host-claim";
import { Fact } from "./fact";

/** Every claim on the host; claim files are single-line JSON. */
export function parseHostClaims(stdout: string): HostClaim[] {
  const schema = hostClaimSchema();
  return stdout
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => schema.parse(JSON.parse(line)));
}

export function hostClaimsFact(): Fact<HostClaim[]> {
  return { command: `cat ${CLAIM_DIR}/*.json 2>/dev/null || true`, parse: parseHostClaims };
}

/** No file yet means nothing was changed yet. */
export function parseHostOriginals(stdout: string): HostOriginals {
  if (stdout.trim() === "") return { sysctls: {}, routes: {} };
  return hostOriginalsSchema().parse(JSON.parse(stdout));
}

export function hostOriginalsFact(): Fact<HostOriginals> {
  return { command: `cat ${ORIGINALS_FILE} 2>/dev/null || true`, parse: parseHostOriginals };
}
