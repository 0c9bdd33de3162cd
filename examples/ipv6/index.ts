// An IPv6 service with direct routing: the same build as IPv4 (VIP on the real servers' lo, no neighbour
// advertisements for it), the real servers reached over SSH by their IPv4 address as usual.
import * as pulumi from "@pulumi/pulumi";
import { ConnectionArgs, Director, RealServer, VirtualService } from "lvs-pulumi";

// Every host's SSH connection by name, from secret config (it holds the key): see examples/README.md.
const hosts = new pulumi.Config().requireSecretObject<Record<string, ConnectionArgs>>("hosts");
const host = (name: string) => hosts.apply((all) => all[name]);

const director = new Director("dir1", { connection: host("dir1") });
const web = new VirtualService("web6", {
  directors: [director],
  protocol: "tcp",
  address: "2001:db8:1::100",
  port: 80,
  scheduler: "rr",
});
for (const [name, address] of [
  ["rs1", "2001:db8:1::21"],
  ["rs2", "2001:db8:1::22"],
] as const) {
  new RealServer(name, { service: web, address, forwarding: "dr", host: host(name) });
}

export const url = "http://[2001:db8:1::100]/";
