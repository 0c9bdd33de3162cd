// The per-command way, the baseline the benchmark compares against: what a user gets from @pulumi/command or an
// Ansible loop. Every command opens its own SSH connection (through the lab's jump host, dialled afresh as well),
// runs one command and closes; 8 commands at a time. Run as its own process (`tsx per-command.ts <jobs.json>`) so
// that its connections, execs and memory are counted like the provider host's (ssh-counter.js).
import * as fs from "fs";
import pLimit from "p-limit";
import { Client, ConnectConfig } from "ssh2";
import { Duplex } from "stream";
import { fingerprintOf } from "../../provider/remote";
import { LabConnection } from "../lab/lab";

export interface PerCommandJob {
  /** Commands run one after the other; each list runs with `parallel` commands at once. `stdin`: the command's input. */
  stages: { connection: LabConnection; command: string; stdin?: string }[][];
  parallel: number;
}

function connect(connection: LabConnection, sock?: Duplex): Promise<Client> {
  return new Promise((resolve, reject) => {
    const client = new Client();
    const config: ConnectConfig = {
      host: connection.host,
      port: connection.port,
      username: connection.user,
      privateKey: fs.readFileSync(connection.privateKeyPath),
      hostVerifier: (key: Buffer) => fingerprintOf(key) === connection.hostKey,
      readyTimeout: 60_000,
      ...(sock ? { sock } : {}),
    };
    client.once("ready", () => resolve(client)).once("error", reject);
    client.connect(config);
  });
}

function exec(client: Client, command: string, stdin?: string): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    client.exec(command, (err, channel) => {
      if (err) return reject(err);
      let stderr = "";
      channel.on("data", () => undefined);
      channel.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
      channel.on("close", (code: number | null) => resolve({ code, stderr }));
      channel.end(stdin);
    });
  });
}

/** One connection (and one jump connection), one command, closed; a failure names the host and the command. */
async function runOnce(connection: LabConnection, command: string, stdin?: string): Promise<void> {
  const jump = connection.proxy ? await connect(connection.proxy) : undefined;
  try {
    const sock = jump
      ? await new Promise<Duplex>((resolve, reject) =>
          jump.forwardOut("127.0.0.1", 0, connection.host, connection.port, (err, s) =>
            err ? reject(err) : resolve(s),
          ),
        )
      : undefined;
    const client = await connect(connection, sock);
    try {
      const { code, stderr } = await exec(client, command, stdin);
      if (code !== 0) throw new Error(`${connection.host}: \`${command}\` exited ${code}: ${stderr.trim()}`);
    } finally {
      client.end();
    }
  } finally {
    jump?.end();
  }
}

async function main(jobFile: string): Promise<void> {
  const job = JSON.parse(fs.readFileSync(jobFile, "utf8")) as PerCommandJob;
  const limit = pLimit(job.parallel);
  for (const stage of job.stages) {
    await Promise.all(stage.map(({ connection, command, stdin }) => limit(() => runOnce(connection, command, stdin))));
  }
}

if (require.main === module) {
  main(process.argv[2]).catch((err: Error) => {
    process.stderr.write(`${err.message}\n`);
    process.exit(1);
  });
}
