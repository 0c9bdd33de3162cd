// What an operator reads when an operation fails: the message once, with no JavaScript stack.
// The SDK's dynamic-provider host prints `${error}: ${error.stack}` to its stderr when check, diff, read or delete
// fails (@pulumi/pulumi cmd/dynamic-provider/index.js), and the engine shows that beside the error it returns: the
// message twice, the second time with a stack trace. Our errors already name the host, the command, the exit code
// and stderr; the stack names only our own functions.
import { unreachableHost, HOSTS_DOWN_VARIABLE } from "../operations/unreachable";
import { maskSecrets } from "../remote";

/** Printed copies the host is about to write to stderr, left out once each. */
const unprinted = new Set<string>();

/** The error to hand the SDK for `error`: its message (secrets masked), what to do for an unreachable host. */
export function forOperator(error: unknown): Error {
  const message = maskSecrets(error instanceof Error ? error.message : String(error));
  const unreachable = unreachableHost(error);
  const advice = unreachable
    ? `\n  to fix: check the network path to ${unreachable.endpoint} and its sshd; a host known to be down can be ` +
      `listed in ${HOSTS_DOWN_VARIABLE} for an up that changes the others`
    : "";
  const presented = new Error(message + advice);
  presented.stack = "";
  unprinted.add(`${presented}: ${presented.stack}`);
  return presented;
}

/**
 * Leaves out of stderr the copy of an error `forOperator` made (the engine shows the error itself); everything else
 * written to stderr passes. Installed once, in the SDK's dynamic-provider host only.
 */
export function omitPrintedCopies(stream: { error: (...args: unknown[]) => void }): void {
  const write = stream.error.bind(stream);
  stream.error = (...args: unknown[]) => {
    if (args.length === 1 && typeof args[0] === "string" && unprinted.delete(args[0])) return;
    write(...args);
  };
}
