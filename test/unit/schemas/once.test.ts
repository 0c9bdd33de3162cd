import { once } from "../../../provider/schemas/once";

test("builds on the first call, not before, and never again", () => {
  const build = jest.fn(() => ({ built: true }));
  const get = once(build);
  expect(build).not.toHaveBeenCalled();
  const first = get();
  expect(get()).toBe(first);
  expect(get()).toBe(first);
  expect(build).toHaveBeenCalledTimes(1);
});

test("each once() has its own value", () => {
  const a = once(() => ({ name: "a" }));
  const b = once(() => ({ name: "b" }));
  expect(a().name).toBe("a");
  expect(b().name).toBe("b");
});

test("a build that throws is tried again at the next call", () => {
  let calls = 0;
  const get = once(() => {
    calls += 1;
    if (calls === 1) throw new Error("first build fails");
    return calls;
  });
  expect(() => get()).toThrow("first build fails");
  expect(get()).toBe(2);
  expect(get()).toBe(2);
});
