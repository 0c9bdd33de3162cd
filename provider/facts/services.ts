import { quote } from "../model/shell";
import { Fact } from "./fact";

/** Whether a systemd unit is running (`systemctl is-active`). */
export function unitActiveFact(unit: string): Fact<boolean> {
  return {
    command: `systemctl is-active --quiet ${quote(unit)} && echo yes || echo no`,
    parse: (stdout) => stdout.trim() === "yes",
  };
}

/** Whether a program is on the PATH. */
export function programPresentFact(program: string): Fact<boolean> {
  return {
    command: `command -v ${quote(program)} >/dev/null && echo yes || echo no`,
    parse: (stdout) => stdout.trim() === "yes",
  };
}
