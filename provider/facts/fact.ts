/** One remote read: the command to run (ready for `sh -c`) and a pure parser of its stdout. */
export interface Fact<T> {
  command: string;
  parse(stdout: string): T;
  /**
   * The command sets no variable and never exits, so a batch runs it in its own shell instead of a subshell: a read
   * of many files would otherwise fork once per file, tens of ms each on a slow host.
   */
  inShell?: true;
}
