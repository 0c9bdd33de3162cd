// Progress and warnings of an operation reach `pulumi up` as diagnostics of the resource they are about. The engine
// hands the dynamic-provider host its address (its first argument) but the host never connects the SDK's log to it,
// so its messages would land on the plugin's stdout, unattributed. This connects the SDK's log to that address and
// runs each operation with its resource's URN (the `__urn` input) in async context, so concurrent operations in one
// provider process each log under their own resource.
import { AsyncLocalStorage } from "async_hooks";
import * as pulumi from "@pulumi/pulumi";
import type { RemoteLogger } from "../remote";

const currentUrn = new AsyncLocalStorage<string>();

/** Runs `operation` as the work of the resource `urn` (when known): its log lines are that resource's diagnostics. */
export function asResource<T>(urn: unknown, operation: () => Promise<T>): Promise<T> {
  return typeof urn === "string" && urn !== "" ? currentUrn.run(urn, operation) : operation();
}

/** Inside the SDK's dynamic-provider host (`node .../cmd/dynamic-provider <engine address>`): the engine's address. */
export function engineAddress(): string | undefined {
  const [, script, address] = process.argv;
  return script && /[\\/]cmd[\\/]dynamic-provider([\\/]index\.js)?$/.test(script) && address ? address : undefined;
}

/** The SDK reads the engine address from its environment when it first logs; set it before that happens. */
export function connectLogToEngine(): void {
  const address = engineAddress();
  if (address && !process.env.PULUMI_NODEJS_ENGINE) process.env.PULUMI_NODEJS_ENGINE = address;
}

/** What pulumi.log needs of a resource: its URN. */
function resourceRef(): pulumi.Resource | undefined {
  const urn = currentUrn.getStore();
  return urn ? ({ urn: pulumi.output(urn) } as unknown as pulumi.Resource) : undefined;
}

export const resourceLogger: RemoteLogger = {
  // Every remote command, at Pulumi's debug level: the engine shows them with `pulumi up --debug`, and keeps them
  // out of the display otherwise.
  debug: (message) => void pulumi.log.debug(message, resourceRef()),
  info: (message) => void pulumi.log.info(message, resourceRef()),
  warn: (message) => void pulumi.log.warn(message, resourceRef()),
};
