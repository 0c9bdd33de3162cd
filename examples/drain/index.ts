// Draining: a real server taken out of the program (or the whole stack destroyed) first gets weight 0, so it takes
// no new connections, and is removed once its active connections end, or after drainSeconds at the latest.
// Progress is printed every 10 s while it waits.
import * as pulumi from "@pulumi/pulumi";
import { ConnectionArgs, Director, RealServer, VirtualService } from "lvs-pulumi";

// Every host's SSH connection by name, from secret config (it holds the key): see examples/README.md.
const config = new pulumi.Config();
const hosts = config.requireSecretObject<Record<string, ConnectionArgs>>("hosts");
const host = (name: string) => hosts.apply((all) => all[name]);

const director = new Director("dir1", { connection: host("dir1") });
const web = new VirtualService("web", {
  directors: [director],
  protocol: "tcp",
  address: "198.51.100.51",
  port: 80,
  scheduler: "wlc",
});
// `pulumi config set servers rs1` (then `up`) drains rs2 and removes it; the default serves from both.
const servers = config.get("servers")?.split(",") ?? ["rs1", "rs2"];
const addresses: Record<string, string> = { rs1: "198.51.100.21", rs2: "198.51.100.22" };
for (const name of servers) {
  new RealServer(name, {
    service: web,
    address: addresses[name],
    forwarding: "dr",
    drainSeconds: 60,
    host: host(name),
  });
}

export const url = "http://198.51.100.51/";
