import type { z } from "zod";
import type { connectionSchema } from "../schemas/connection";
import type { InputShape } from "./args";

/**
 * How to reach a host over SSH; the same shape as @pulumi/command's remote Connection, plus sudo and host key
 * pinning. The fields and their meaning: schemas/connection.ts (the README's Connection table).
 */
export type ConnectionArgs = InputShape<z.input<ReturnType<typeof connectionSchema>>>;
