// Reads that the operations on one host share. Pulumi refreshes and drains many resources at once; each asking
// its directors for the whole table would cost a read (and a lock) per resource on every director, so work grows
// with resources x table size. Callers that ask while a read of the same host is running wait together for the
// next one: every caller gets a read that started after it asked (never an older answer), and a host is read at
// most twice per burst of callers.
import { CheckedRealServer, checkerStateFact } from "../facts/checker-state";
import { ConnectionCounts } from "../facts/ipvs-list";
import { IpvsTable } from "../model/ipvs";
import { connectionCountsFact, ipvsTableFact } from "../facts/ipvs-table";
import { ConnectionSpec, holdsHostLock, sessionKey } from "../remote";
import { HostSession, withHost } from "./session";

/** One read per key at a time; callers arriving while it runs share the next one. */
export class SharedReads<T> {
  private readonly running = new Map<string, Promise<T>>();
  private readonly next = new Map<string, Promise<T>>();

  read(key: string, readOnce: () => Promise<T>): Promise<T> {
    const queued = this.next.get(key);
    if (queued) return queued;
    const running = this.running.get(key);
    if (!running) return this.start(key, readOnce);
    const next = running.then(
      () => this.start(key, readOnce),
      () => this.start(key, readOnce),
    );
    this.next.set(key, next);
    return next;
  }

  private start(key: string, readOnce: () => Promise<T>): Promise<T> {
    this.next.delete(key);
    const read = readOnce();
    this.running.set(key, read);
    const done = () => {
      if (this.running.get(key) === read) this.running.delete(key);
    };
    read.then(done, done);
    return read;
  }
}

// By sessionKey: a read is only as trusted as the session it ran over, so only callers of that session share it.
const tables = new SharedReads<IpvsTable>();
const checkers = new SharedReads<Record<string, CheckedRealServer>>();
const counts = new SharedReads<Record<string, ConnectionCounts>>();

/**
 * The director's table, shared. Read under the host lock: it is two listings, which a change between them could
 * split. A caller that already holds the lock reads on its own (a shared read would wait for the lock it holds).
 */
export function sharedIpvsTable(director: ConnectionSpec): Promise<IpvsTable> {
  const readTable = (session: HostSession) => session.read({ table: ipvsTableFact() }).then((facts) => facts.table);
  if (holdsHostLock(director)) return readTable(new HostSession(director));
  return tables.read(sessionKey(director), () => withHost(director, readTable));
}

/** Active and inactive connections per real server, shared, without the lock: one listing, and drains poll it. */
export function sharedConnectionCounts(director: ConnectionSpec): Promise<Record<string, ConnectionCounts>> {
  return counts.read(sessionKey(director), () =>
    new HostSession(director).read({ counts: connectionCountsFact() }).then((facts) => facts.counts),
  );
}

/** keepalived's checker state on a director (empty when it does not run), shared like the table. */
export function sharedCheckerState(director: ConnectionSpec): Promise<Record<string, CheckedRealServer>> {
  return checkers.read(sessionKey(director), () =>
    new HostSession(director).read({ state: checkerStateFact() }).then((facts) => facts.state),
  );
}
