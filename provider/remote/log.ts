// Pluggable logger so the resources layer can route to pulumi.log; silent by default because
// a dynamic provider's stdout/stderr is not a reliable user channel. Never pass secrets here.
export interface RemoteLogger {
  debug(message: string): void;
  info(message: string): void;
  warn(message: string): void;
}

const silent: RemoteLogger = { debug: () => {}, info: () => {}, warn: () => {} };

// Module-level (module cache), not a closure, so it survives Pulumi's function serialization.
let currentLogger: RemoteLogger = silent;

/** Install a logger; call with no argument to go back to the silent default. */
export function setLogger(logger?: RemoteLogger): void {
  currentLogger = logger ?? silent;
}

export function log(): RemoteLogger {
  return currentLogger;
}
