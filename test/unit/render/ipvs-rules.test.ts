import { ipvsTable } from "../../../provider/facts/ipvs-table";
import { parseIpvsSave } from "../../../provider/facts/ipvs-save";
import { renderDestinationRules, renderServiceRules, renderTimeouts } from "../../../provider/render/ipvs-rules";
import { ipvsadmFixture } from "../facts/fixtures";

const live = ipvsTable(ipvsadmFixture("ipvsadm-Sn.txt"), ipvsadmFixture("ipvsadm-Ln-exact-thresholds.txt"));

describe("ipvsadm -R fragments", () => {
  it("renders one service", () => {
    expect(renderServiceRules(live.services["tcp:[2001:db8:100::101]:443"])).toBe(
      "-A -t [2001:db8:100::101]:443 -s sh -b sh-port -p 300 -M 64\n",
    );
  });

  it("renders one real server, thresholds included", () => {
    expect(renderDestinationRules(live.destinations["tcp:203.0.113.108:80/198.51.100.131:80"])).toBe(
      "-a -t 203.0.113.108:80 -r 198.51.100.131:80 -m -w 3 -x 100 -y 10\n",
    );
    expect(renderDestinationRules(live.destinations["tcp:203.0.113.109:80/198.51.100.133:80"])).toBe(
      "-a -t 203.0.113.109:80 -r 198.51.100.133:80 -i -w 1 --tun-type gue --tun-port 6080 --tun-nocsum -x 0 -y 0\n",
    );
  });

  it("reads back to the same entries", () => {
    const text =
      Object.values(live.services).map(renderServiceRules).join("") +
      Object.values(live.destinations).map(renderDestinationRules).join("");
    expect(parseIpvsSave(text)).toEqual(live);
  });

  it("renders the timeouts file", () => {
    expect(renderTimeouts({ tcp: 900, tcpFin: 0, udp: 60 })).toBe("900 0 60\n");
  });
});
