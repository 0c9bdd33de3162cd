import { Fact } from "./fact";

export function kernelReleaseFact(): Fact<string> {
  return { command: "uname -r", parse: (stdout) => stdout.trim() };
}
