// Measuring failover under load: client requests with their times, and a watcher of who holds a VIP. Every time is
// the VM's clock (the lab hosts are namespaces of one VM), so a fault's time and the requests' times compare.
import { labExec, urlFor } from "./lab";

export interface Request {
  /** Start of the request, ms since the epoch on the VM's clock. */
  at: number;
  ok: boolean;
}

/** Output of a loop run on a lab host until stopped: each iteration prints lines (the loop sleeps `pause` between). */
export function loopUntilStopped(host: string, body: string, pause: number): { stop(): Promise<string[]> } {
  const stopFile = `/run/lvs-test-loop-${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2)}`;
  const out = labExec(
    host,
    `rm -f ${stopFile}; while [ ! -e ${stopFile} ]; do ${body}; sleep ${pause}; done; rm -f ${stopFile}`,
    3_600_000,
  );
  out.catch(() => undefined); // awaited in stop()
  return {
    async stop() {
      await labExec(host, `touch ${stopFile}`);
      return (await out).split("\n").slice(0, -1);
    },
  };
}

export interface RecordedLoad {
  /** Ends the load: every request with its time and outcome. */
  stop(): Promise<Request[]>;
}

/** How long a recorded request may take: one started this long before a fault may be cut by it. */
export const REQUEST_TIMEOUT_MS = 1000;

/** Requests from the client to the VIP back to back (1 s timeout each, 50 ms apart), each recorded with its time. */
export function recordLoad(vip: string, port: number): RecordedLoad {
  const url = urlFor(vip, port);
  const loop = loopUntilStopped(
    "client",
    `t=$(date +%s%3N); if curl -s -m ${REQUEST_TIMEOUT_MS / 1000} -o /dev/null '${url}'; then echo "$t ok"; else echo "$t failed"; fi`,
    0.05,
  );
  return {
    async stop() {
      return (await loop.stop()).map((line) => {
        const [at, outcome] = line.split(" ");
        return { at: Number(at), ok: outcome === "ok" };
      });
    },
  };
}

/** Now on the VM's clock, in ms. */
export async function labClock(): Promise<number> {
  return Number((await labExec("lab-vm", "date +%s%3N")).trim());
}

export interface Outage {
  /** Requests started after the fault that failed. */
  failed: number;
  /** Failed requests with their time after the fault, in ms. */
  failures: number[];
  /** From the fault to the first request served after the last failure (0 if none failed, undefined if none was). */
  servedAgainAfterMs: number | undefined;
  /** Requests started after the fault that were served. */
  served: number;
}

/** What the clients saw of a fault at `faultAt`, from the requests started after it. */
export function outage(requests: Request[], faultAt: number, until = Infinity): Outage {
  const after = requests.filter((r) => r.at >= faultAt && r.at < until);
  const failures = after.filter((r) => !r.ok).map((r) => r.at - faultAt);
  const lastFailure = failures.length > 0 ? failures[failures.length - 1] : undefined;
  const servedAgain = lastFailure === undefined ? undefined : after.find((r) => r.ok && r.at - faultAt > lastFailure);
  return {
    failed: failures.length,
    failures,
    servedAgainAfterMs: lastFailure === undefined ? 0 : servedAgain && servedAgain.at - faultAt,
    served: after.filter((r) => r.ok).length,
  };
}

export interface Watched {
  samples: number;
  /** Per holder set ("dir1", "dir1+dir2", "" for none): how many samples saw it. */
  seen: Record<string, number>;
}

export interface HolderWatch {
  stop(): Promise<Watched>;
}

/** The holder sets seen with more than one holder (split brain): none is the goal. */
export function moreThanOneHolder(watched: Watched): string[] {
  return Object.keys(watched.seen).filter((holders) => holders.includes("+"));
}

/** Shell that sets $h to the directors (joined by +) holding the VIP on a link that is up, seen from the VM. */
function holdersScript(vip: string, directors: string[], iface: string): string {
  const tests = directors.map(
    (d) =>
      `if ip -n ${d} -o addr show dev ${iface} | grep -q ' ${vip}/' && ` +
      `ip -n ${d} -o link show dev ${iface} | grep -q 'state UP'; then h="$h+${d}"; fi`,
  );
  return `h=; ${tests.join("; ")}; echo "\${h#+}"`;
}

/**
 * The directors holding the VIP on a link that is up: the holders a neighbour on the segment can reach (a director
 * whose cable was cut may still list the VIP, but nobody reaches it there). Read from the VM, which reaches every
 * host's namespace, also one whose link is down.
 */
export async function vipHolders(vip: string, directors: string[], iface = "eth0"): Promise<string[]> {
  const holders = (await labExec("lab-vm", holdersScript(vip, directors, iface))).trim();
  return holders === "" ? [] : holders.split("+");
}

/** Samples vipHolders every 0.2 s until stopped. */
export function watchVipHolders(vip: string, directors: string[], iface = "eth0"): HolderWatch {
  const loop = loopUntilStopped("lab-vm", holdersScript(vip, directors, iface), 0.2);
  return {
    async stop() {
      const lines = await loop.stop();
      const seen: Record<string, number> = {};
      for (const holders of lines) seen[holders] = (seen[holders] ?? 0) + 1;
      return { samples: lines.length, seen };
    },
  };
}

export interface HeldRequest {
  /** The client's port of the connection, to find it in the directors' connection tables. */
  clientPort: Promise<number>;
  /** Sends the rest of the request on the same connection; resolves with everything the connection received. */
  finish(): Promise<string>;
}

/**
 * An HTTP request split over time on one TCP connection from `client`: the request line and a header at once (the
 * third packet a director sees, the one at which IPVS syncs an established connection to the backup), the blank line
 * that ends it only at finish(). The answer then proves the connection outlived whatever happened in between.
 */
export function holdRequest(vip: string, port: number): HeldRequest {
  const id = `${process.pid}-${Date.now()}`;
  const go = `/run/lvs-test-go-${id}`;
  const portFile = `/run/lvs-test-port-${id}`;
  const answer = labExec(
    "client",
    `rm -f ${go}; { printf 'GET / HTTP/1.0\\r\\n'; sleep 0.5; printf 'X-Held: 1\\r\\n'
       while [ ! -e ${go} ]; do sleep 0.1; done; printf '\\r\\n'; sleep 3; } |
     busybox nc '${vip}' ${port} & nc_pid=$!
     for i in $(seq 1 50); do
       ss -Htn state established dst '${vip}' | awk '{print $3}' | sed 's/.*://' > ${portFile}; [ -s ${portFile} ] && break
       sleep 0.1
     done
     wait $nc_pid; rm -f ${go} ${portFile}`,
    300_000,
  );
  answer.catch(() => undefined); // awaited in finish()
  const clientPort = (async () => {
    for (let i = 0; i < 100; i++) {
      const seen = (await labExec("client", `cat ${portFile} 2>/dev/null || true`)).trim();
      if (seen !== "") return Number(seen.split("\n")[0]);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    throw new Error(`no established connection from client to ${vip}:${port}`);
  })();
  return {
    clientPort,
    async finish() {
      await labExec("client", `touch ${go}`);
      return answer;
    },
  };
}
