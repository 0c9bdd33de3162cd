// What reaches a director when many virtual services are written at once, counted on a stand-in director
// (stand-in-director.ts: real reads of captured output, change scripts kept and never run).
import {
  applyVirtualService,
  readVirtualService,
  removeVirtualService,
} from "../../../../provider/kinds/virtual-service/apply";
import { virtualServiceInputsSchema } from "../../../../provider/schemas/virtual-service";
import { actorOf, inOneShell, useStandInDirector } from "../../operations/stand-in-director";

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
  await Promise.all(services(20).map((inputs) => applyVirtualService(inputs, actorOf(inputs))));
  expect(director().counted("-A")).toEqual(inOneShell({ tableReads: 1, scripts: 1, steps: [20] }));
});

test("20 virtual services removed together: one SSH channel and one table read", async () => {
  await Promise.all(services(20).map((inputs) => removeVirtualService(inputs, actorOf(inputs))));
  // Nothing of ours is on this stand-in host (its scripts never ran), so there is nothing to change.
  expect(director().counted("-D")).toEqual(inOneShell({ tableReads: 1, scripts: 0, steps: [] }));
});

test("a service whose line fails the batch's ipvsadm -R fails alone: the batch runs again unmerged, the ones before it are done there, the rest run in the next batch", async () => {
  director().reset(`-t ${vip(3)}:80`);
  const results = await Promise.allSettled(services(20).map((inputs) => applyVirtualService(inputs, actorOf(inputs))));
  const failed = results.flatMap((r, i) => (r.status === "rejected" ? [{ i, message: String(r.reason) }] : []));
  expect(failed.map((f) => f.i)).toEqual([3]);
  expect(failed[0].message).toContain(`ipvsadm -A -t ${vip(3)}:80 -s wrr`);
  // Batch 1: one ipvsadm -R of 20 lines (fails); batch 2: 20 steps of their own, failing at the 4th; batch 3: 16,
  // merged again. One SSH channel for the three: the lock's shell is kept from one hold to the next.
  expect(director().counted("-A")).toEqual(inOneShell({ tableReads: 3, scripts: 3, steps: [20, 20, 16] }));
  expect(director().restores()).toEqual([1, 0, 1]);
});

describe("read of a service the kernel table does not list", () => {
  const absent = (healthCheck?: object) =>
    virtualServiceInputsSchema().parse({
      directors: [director().connection],
      protocol: "tcp",
      address: "203.0.113.250",
      port: 80,
      ...(healthCheck ? { healthCheck } : {}),
    });

  test("unchecked: gone, from the table read alone", async () => {
    expect(await readVirtualService(absent())).toEqual({
      entry: undefined,
      missingFrom: ["tester@127.0.0.1:" + director().connection.port],
    });
    expect(
      director()
        .reads()
        .some((read) => read.includes("/etc/keepalived/")),
    ).toBe(false);
  });

  test("checked: its keepalived block is looked for too (a checked service with no real server has no entry)", async () => {
    const read = await readVirtualService(absent({ type: "tcp" }));
    // This machine holds no block of ours: gone as well.
    expect(read.entry).toBeUndefined();
    expect(
      director()
        .reads()
        .some((read) => read.includes("/etc/keepalived/lvs-pulumi-checked")),
    ).toBe(true);
    expect(director().scripts()).toEqual([]);
  });
});
