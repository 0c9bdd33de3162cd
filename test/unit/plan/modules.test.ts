import { planModules } from "../../../provider/plan/modules";

test("loads only missing modules, once each", () => {
  expect(planModules(["ip_vs", "ip_vs_rr", "ip_vs_rr"], ["ip_vs"])).toEqual(["modprobe ip_vs_rr"]);
  expect(planModules(["ip_vs"], ["ip_vs"])).toEqual([]);
});
