import {
  FORWARDING_METHODS,
  flagScheduler,
  PROTOCOLS,
  SCHEDULER_FLAGS,
  SCHEDULERS,
  Scheduler,
  SchedulerFlag,
} from "../../../provider/model/vocabulary";
import { ipvsadmFixture } from "../facts/fixtures";

const known = (list: readonly string[], word: string) => list.includes(word);

test("every scheduler and flag a real ipvsadm listing shows is in the word lists, each flag with its scheduler", () => {
  // "TCP  203.0.113.103:80 sh (sh-fallback,sh-port)": scheduler, then its flags in parentheses.
  const services = ipvsadmFixture("ipvsadm-Ln-exact.txt")
    .split("\n")
    .map((line) => /^(?:TCP|UDP|SCTP) +\S+ (\S+)(?: \(([^)]*)\))?/.exec(line) ?? /^FWM +\d+ (?:IPv6 )?(\S+)/.exec(line))
    .filter((found) => found !== null);
  expect(services.length).toBeGreaterThan(5);
  const flagged = services.filter((found) => found[2] !== undefined);
  expect(flagged.length).toBeGreaterThan(0);
  for (const [, scheduler, flags] of services) {
    expect(known(SCHEDULERS, scheduler)).toBe(true);
    for (const flag of flags?.split(",") ?? []) {
      expect(known(SCHEDULER_FLAGS, flag)).toBe(true);
      expect(flagScheduler(flag as SchedulerFlag)).toBe(scheduler);
    }
  }
});

test("each flag belongs to the scheduler its name starts with, and that scheduler is known", () => {
  for (const flag of SCHEDULER_FLAGS) {
    const scheduler: Scheduler = flagScheduler(flag);
    expect(flag.startsWith(`${scheduler}-`)).toBe(true);
    expect(known(SCHEDULERS, scheduler)).toBe(true);
  }
});

test("the lists are plain arrays of distinct lower-case words (they are captured in serialized closures)", () => {
  for (const list of [SCHEDULERS, SCHEDULER_FLAGS, PROTOCOLS, FORWARDING_METHODS]) {
    expect(Array.isArray(list)).toBe(true);
    expect(JSON.parse(JSON.stringify(list))).toEqual(list);
    expect(new Set(list).size).toBe(list.length);
    for (const word of list) expect(word).toMatch(/^[a-z][a-z-]*$/);
  }
});

test("the protocols are those ipvsadm has a service option for", () => {
  // ipvsadm: -t/--tcp-service, -u/--udp-service, --sctp-service.
  expect([...PROTOCOLS].sort()).toEqual(["sctp", "tcp", "udp"]);
});
