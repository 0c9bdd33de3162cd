import { validateInputs } from "../../../provider/schemas/validate-inputs";
import { realServerInputsSchema } from "../../../provider/schemas/real-server";

const HOST_KEY = "SHA256:" + "A".repeat(43);
const realServer = {
  directors: [{ host: "192.0.2.10", hostKey: HOST_KEY }],
  service: { protocol: "tcp", address: "2001:db8:1::40", port: 80 },
  address: "2001:db8:1::21",
};

function reasons(raw: unknown): string[] {
  return validateInputs(realServerInputsSchema(), raw).failures.map((f) => f.reason);
}

describe("RealServer: an address that is its service's VIP", () => {
  it("is refused, however the address is written", () => {
    expect(reasons(realServer)).toEqual([]);
    expect(reasons({ ...realServer, address: "2001:0db8:1:0::40" })).toEqual([
      'address: "2001:0db8:1:0::40" is the service\'s VIP (service.address): a real server needs an address of its own, which the directors do not hold',
    ]);
  });

  it("is refused when it is one of the VIPs a fwmark service's match selects", () => {
    const service = {
      fwmark: 7,
      match: { protocol: "tcp", addresses: ["198.51.100.40", "198.51.100.41"], ports: [80] },
    };
    expect(reasons({ ...realServer, service, address: "198.51.100.21" })).toEqual([]);
    expect(reasons({ ...realServer, service, address: "198.51.100.41" })).toEqual([
      expect.stringMatching(/^address: "198\.51\.100\.41" is the service's VIP \(service\.match\.addresses\.1\)/),
    ]);
  });
});

describe("RealServer: directorAddress", () => {
  const nat = { ...realServer, forwarding: "nat", directorAddress: "2001:db8:1::66" };

  it("needs host: the route through it is set up on the real server, over its connection", () => {
    expect(reasons(nat)).toEqual([
      'directorAddress: "2001:db8:1::66" needs host: the route through it is set up on the real server, over its host connection; give host, or leave directorAddress out and route replies through the director yourself',
    ]);
    expect(reasons({ ...nat, host: { host: "2001:db8:1::21", hostKey: HOST_KEY } })).toEqual([]);
    expect(reasons({ ...nat, directorAddress: undefined })).toEqual([]);
  });

  it("names only its own rule for another forwarding method", () => {
    expect(reasons({ ...nat, forwarding: "dr" })).toEqual([
      'directorAddress: "2001:db8:1::66" is only for nat forwarding',
    ]);
  });
});
