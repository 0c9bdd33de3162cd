import { kindOf } from "../../../provider/kinds/registry";
import { adoptionNotice } from "../../../provider/runtime/adoption";

const dir1 = { host: "198.51.100.11", port: 22, insecureSkipHostKeyCheck: true };
const dir2 = { host: "198.51.100.12", port: 22, insecureSkipHostKeyCheck: true };
const service = { directors: [dir1], protocol: "tcp", address: "198.51.100.40", port: 80, adopt: true };

test("a new service with adopt: true says it will take over a foreign one on its directors, if there is one", () => {
  expect(adoptionNotice(kindOf("virtualService"), {}, service)).toBe(
    "adopt: true: a virtual service tcp:198.51.100.40:80 that 198.51.100.11:22 already has without lvs-pulumi's " +
      "boot fragment will be taken over (managed from then on, and deleted with this resource). The preview reads no " +
      "host, so whether there is one is known at apply, which names each one it takes over",
  );
  const rs = { directors: [dir1, dir2], service, address: "198.51.100.21", adopt: true };
  expect(adoptionNotice(kindOf("realServer"), {}, rs)).toContain(
    "a real server tcp:198.51.100.40:80/198.51.100.21:80 that 198.51.100.11:22, 198.51.100.12:22 already has",
  );
});

test("an update says so only for the directors it adds (the entry is ours on the others)", () => {
  const grown = { ...service, directors: [dir1, dir2] };
  expect(adoptionNotice(kindOf("virtualService"), service, grown)).toContain("that 198.51.100.12:22 already has");
  expect(adoptionNotice(kindOf("virtualService"), service, { ...service, scheduler: "rr" })).toBeUndefined();
});

test("without adopt: true, or for other kinds, nothing is said", () => {
  expect(adoptionNotice(kindOf("virtualService"), {}, { ...service, adopt: undefined })).toBeUndefined();
  expect(adoptionNotice(kindOf("virtualService"), {}, { ...service, adopt: false })).toBeUndefined();
  expect(adoptionNotice(kindOf("director"), {}, { connection: dir1, adopt: true })).toBeUndefined();
});
