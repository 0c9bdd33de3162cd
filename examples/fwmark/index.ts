// A firewall-mark service: tcp/80 and tcp/8443 of one VIP marked alike on the director (iptables mangle, persisted),
// scheduled as one service. With persistence, a client's requests to either port go to the same real server.
import * as pulumi from "@pulumi/pulumi";
import { ConnectionArgs, Director, RealServer, VirtualService } from "lvs-pulumi";

// Every host's SSH connection by name, from secret config (it holds the key): see examples/README.md.
const hosts = new pulumi.Config().requireSecretObject<Record<string, ConnectionArgs>>("hosts");
const host = (name: string) => hosts.apply((all) => all[name]);

const director = new Director("dir1", { connection: host("dir1") });
const web = new VirtualService("web", {
  directors: [director],
  fwmark: 8443,
  match: { protocol: "tcp", addresses: ["198.51.100.44"], ports: [80, 8443] },
  scheduler: "wlc",
  persistence: { timeoutSeconds: 300 },
});
for (const [name, address] of [
  ["rs1", "198.51.100.21"],
  ["rs2", "198.51.100.22"],
] as const) {
  // No port: a fwmark service's real servers keep the port each packet was sent to.
  new RealServer(name, { service: web, address, forwarding: "dr", host: host(name) });
}

export const urls = ["http://198.51.100.44/", "http://198.51.100.44:8443/"];
