// Two projects: `unit` (pure logic, in-process fakes allowed) and `e2e` (real lab hosts, real SDK host).
const tsJest = { "^.+\\.ts$": ["ts-jest", { tsconfig: "tsconfig.json" }] };
module.exports = {
  // Suites run in the order a fresh clone (CI) runs them, also where jest has a timing cache: see the sequencer.
  testSequencer: "<rootDir>/test/sequencer.js",
  projects: [
    {
      displayName: "unit",
      testEnvironment: "node",
      transform: tsJest,
      testMatch: ["<rootDir>/test/unit/**/*.test.ts"],
      setupFilesAfterEnv: ["<rootDir>/test/unit/timeout.js"],
    },
    {
      displayName: "e2e",
      testEnvironment: "node",
      transform: tsJest,
      testMatch: ["<rootDir>/test/e2e/**/*.test.ts"],
      globalSetup: "<rootDir>/test/e2e/global-setup.js",
      globalTeardown: "<rootDir>/test/e2e/global-teardown.js",
      setupFilesAfterEnv: ["<rootDir>/test/e2e/timeout.js"],
    },
  ],
};
