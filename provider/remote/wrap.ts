// Every command runs as `sh -c <quoted>` so the remote login shell (bash, zsh, fish...) does
// not change its meaning; sudo connections add a non-interactive `sudo -n` in front.
import { quote } from "../model/shell";

export function wrapCommand(command: string, sudo: boolean | undefined): string {
  const shell = `sh -c ${quote(command)}`;
  return sudo ? `sudo -n ${shell}` : shell;
}
