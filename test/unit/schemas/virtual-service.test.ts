import { validateInputs } from "../../../provider/schemas/validate-inputs";
import { virtualServiceInputsSchema } from "../../../provider/schemas/virtual-service";

const HOST_KEY = "SHA256:" + "A".repeat(43);
const directors = [
  { host: "lb1.example", hostKey: HOST_KEY },
  { host: "2001:db8:1::12", hostKey: HOST_KEY },
];
const service = { directors, protocol: "tcp", address: "2001:db8:1::40", port: 80 };

function reasons(raw: unknown): string[] {
  return validateInputs(virtualServiceInputsSchema(), raw).failures.map((f) => f.reason);
}

describe("VirtualService: a VIP that is a director's own address", () => {
  it("is refused, however the address is written, naming the VIP and the director", () => {
    expect(reasons(service)).toEqual([]);
    expect(reasons({ ...service, address: "2001:0db8:0001:0:0:0:0:0012" })).toEqual([
      'address: "2001:0db8:0001:0:0:0:0:0012" is the address of directors[1] (its connection.host): a VIP is taken off the directors when the service goes or the VIP moves, and the director would lose the address it is reached on; use another VIP',
    ]);
  });

  it("is refused among the VIPs a fwmark service's match selects", () => {
    const marked = {
      directors: [{ host: "198.51.100.11", hostKey: HOST_KEY }],
      fwmark: 7,
      match: { protocol: "tcp", addresses: ["198.51.100.40", "198.51.100.11"], ports: [80] },
    };
    expect(reasons(marked)).toEqual([
      expect.stringMatching(
        /^match\.addresses\.1: "198\.51\.100\.11" is the address of directors\[0\] \(its connection\.host\)/,
      ),
    ]);
    expect(reasons({ ...marked, match: { ...marked.match, addresses: ["198.51.100.40"] } })).toEqual([]);
  });
});
