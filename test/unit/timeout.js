// Unit tests share 2 cores with parallel workers; several open in-process SSH sessions (key exchange in JS), which
// took over jest's default 5 s on CI (stop 34). A hang still fails, after 30 s.
jest.setTimeout(30_000);
