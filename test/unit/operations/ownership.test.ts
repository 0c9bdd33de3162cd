import { refuseForeign } from "../../../provider/operations/ownership";
import { HostSession } from "../../../provider/operations/session";

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
