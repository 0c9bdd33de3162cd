// The pluggable logger (log.ts): silent until one is installed, and back to silent on request.
import { RemoteLogger, log, setLogger } from "../../../provider/remote/log";

const recorder = () => {
  const lines: string[] = [];
  const logger: RemoteLogger = {
    debug: (m) => lines.push(`debug ${m}`),
    info: (m) => lines.push(`info ${m}`),
    warn: (m) => lines.push(`warn ${m}`),
  };
  return { lines, logger };
};

afterEach(() => setLogger());

test("silent by default: nothing reaches stdout, stderr or the console", () => {
  const writes = [
    jest.spyOn(process.stdout, "write"),
    jest.spyOn(process.stderr, "write"),
    ...(["log", "debug", "info", "warn", "error"] as const).map((m) => jest.spyOn(console, m)),
  ];
  try {
    log().debug("d");
    log().info("i");
    log().warn("w");
    for (const write of writes) expect(write).not.toHaveBeenCalled();
  } finally {
    writes.forEach((w) => w.mockRestore());
  }
});

test("an installed logger gets every message at its level", () => {
  const { lines, logger } = recorder();
  setLogger(logger);
  expect(log()).toBe(logger);
  log().debug("dialing");
  log().info("retrying");
  log().warn("insecure");
  expect(lines).toEqual(["debug dialing", "info retrying", "warn insecure"]);
});

test("setLogger() goes back to silent, and a new logger replaces the old", () => {
  const first = recorder();
  const second = recorder();
  setLogger(first.logger);
  setLogger(second.logger);
  log().info("to the second");
  setLogger();
  log().warn("to nobody");
  expect(first.lines).toEqual([]);
  expect(second.lines).toEqual(["info to the second"]);
});
