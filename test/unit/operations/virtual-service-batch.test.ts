// What reaches a director when many virtual services are written at once, counted on a stand-in director
// (stand-in-director.ts: real reads of captured output, change scripts kept and never run).
import { applyVirtualService, removeVirtualService } from "../../../provider/operations/virtual-service";
import { virtualServiceInputsSchema } from "../../../provider/schemas/virtualService";
import { useStandInDirector } from "./stand-in-director";

const director = useStandInDirector();

const vip = (i: number) => `203.0.113.${150 + i}`;

const services = (count: number) =>
  Array.from({ length: count }, (_, i) =>
    virtualServiceInputsSchema().parse({
      directors: [director().connection],
      protocol: "tcp",
      address: vip(i),
      port: 80,
      scheduler: "wrr",
      bindVip: false,
    }),
  );

test("20 virtual services created together: one SSH channel (the lock's), one table read and one script on the director", async () => {
  await Promise.all(services(20).map((inputs) => applyVirtualService(inputs)));
  expect(director().counted("-A")).toEqual({ channels: 1, locks: 1, tableReads: 1, scripts: 1, steps: [20] });
});

test("20 virtual services removed together: one SSH channel and one table read", async () => {
  await Promise.all(services(20).map((inputs) => removeVirtualService(inputs)));
  // Nothing of ours is on this stand-in host (its scripts never ran), so there is nothing to change.
  expect(director().counted("-D")).toEqual({ channels: 1, locks: 1, tableReads: 1, scripts: 0, steps: [] });
});

test("a service whose step fails fails alone: the ones before are done, the rest run in the next batch", async () => {
  director().reset(`-t ${vip(3)}:80`);
  const results = await Promise.allSettled(services(20).map((inputs) => applyVirtualService(inputs)));
  const failed = results.flatMap((r, i) => (r.status === "rejected" ? [{ i, message: String(r.reason) }] : []));
  expect(failed.map((f) => f.i)).toEqual([3]);
  expect(failed[0].message).toContain(`ipvsadm -A -t ${vip(3)}:80 -s wrr`);
  expect(director().counted("-A")).toEqual({ channels: 2, locks: 2, tableReads: 2, scripts: 2, steps: [20, 16] });
});
