// Lab operations run under emulation: minutes, not milliseconds.
jest.setTimeout(600000);
