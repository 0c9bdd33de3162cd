import { validateInputs } from "../../../provider/schemas/validate-inputs";
import { directorInputsSchema } from "../../../provider/schemas/director";

const director = { host: "192.0.2.10", hostKey: "SHA256:" + "A".repeat(43) };

function failuresOf(raw: unknown) {
  return validateInputs(directorInputsSchema(), raw).failures;
}

// Each row: a bad input, the property it must be reported on, and text the reason must contain.
const cases: [string, unknown, string, string][] = [
  [
    "timeout out of range",
    { connection: director, timeouts: { tcp: 0 } },
    "timeouts.tcp",
    "timeouts.tcp: 0 is out of range",
  ],
  // ipvsadm's own limits (ipvsadm.c): beyond them the apply would fail after the boot fragment was written.
  [
    "timeout beyond ipvsadm's 31 days",
    { connection: director, timeouts: { udp: 2678401 } },
    "timeouts.udp",
    "timeouts.udp: 2678401 is out of range 1..2678400",
  ],
  [
    "a connection failure, reported under connection",
    { connection: { host: "192.0.2.10" } },
    "connection.hostKey",
    "connection.hostKey: is required: pin the host key",
  ],
  ["no connection", {}, "connection", "connection: is required"],
  [
    "installPackages not a boolean",
    { connection: director, installPackages: "yes" },
    "installPackages",
    "is not a boolean",
  ],
];

describe("director inputs", () => {
  it.each(cases)("%s", (_name, raw, property, reason) => {
    expect(failuresOf(raw)).toContainEqual({ property, reason: expect.stringContaining(reason) });
  });

  it("fills director sysctl defaults", () => {
    const result = validateInputs(directorInputsSchema(), {
      connection: { host: "lb1.example.com", insecureSkipHostKeyCheck: true },
    });
    expect(result.inputs).toMatchObject({
      installPackages: false,
      sysctls: { expireNodestConn: true, expireQuiescentTemplate: true },
    });
  });

  it("keeps the default of a sysctl left out when the other is set", () => {
    const inputs = directorInputsSchema().parse({ connection: director, sysctls: { expireNodestConn: false } });
    expect(inputs.sysctls).toEqual({ expireNodestConn: false, expireQuiescentTemplate: true });
  });

  it("takes some timeouts, up to ipvsadm's limit, and leaves the others out (left unchanged on the host)", () => {
    const inputs = directorInputsSchema().parse({ connection: director, timeouts: { tcp: 900, udp: 2678400 } });
    expect(inputs.timeouts).toEqual({ tcp: 900, udp: 2678400 });
    expect(directorInputsSchema().parse({ connection: director }).timeouts).toBeUndefined();
  });

  it("is built once and shared", () => {
    expect(directorInputsSchema()).toBe(directorInputsSchema());
  });
});
