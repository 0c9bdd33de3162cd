/** One remote read: the command to run (ready for `sh -c`) and a pure parser of its stdout. */
export interface Fact<T> {
  command: string;
  parse(stdout: string): T;
}
