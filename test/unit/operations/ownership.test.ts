import { refuseForeign } from "../../../provider/operations/ownership";
import { HostSession } from "../../../provider/operations/session";
import { setLogger } from "../../../provider/remote";

const session = new HostSession({ host: "198.51.100.11" });
const service = { scheduler: "rr" };
const fragment = "-A -t 198.51.100.40:80 -s rr\n";

test("an entry that exists without our boot fragment is refused unless adopted; ours or a new one is not", () => {
  expect(() => refuseForeign(session, "virtual service tcp:198.51.100.40:80", service, null, undefined)).toThrow(
    "host root@198.51.100.11:22: virtual service tcp:198.51.100.40:80 already exists and was not created by lvs-pulumi; " +
      "it is left as it is (set adopt: true to take it over)",
  );
  expect(() => refuseForeign(session, "x", service, null, true)).not.toThrow();
  expect(() => refuseForeign(session, "x", service, fragment, undefined)).not.toThrow();
  expect(() => refuseForeign(session, "x", undefined, null, undefined)).not.toThrow();
});

test("an entry taken over with adopt: true is reported by host and entry", () => {
  const warnings: string[] = [];
  setLogger({ debug: () => {}, info: () => {}, warn: (message) => warnings.push(message) });
  try {
    refuseForeign(session, "virtual service tcp:198.51.100.40:80", service, null, true);
    refuseForeign(session, "virtual service tcp:198.51.100.41:80", service, fragment, true);
    refuseForeign(session, "virtual service tcp:198.51.100.42:80", undefined, null, true);
  } finally {
    setLogger();
  }
  expect(warnings).toEqual([
    "host root@198.51.100.11:22: virtual service tcp:198.51.100.40:80 existed and was not created by lvs-pulumi: " +
      "taken over (adopt: true); it is managed from now on and deleted with this resource",
  ]);
});
