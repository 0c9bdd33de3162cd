// Direct routing: the real servers share the director's segment, hold the VIP on lo (answering no ARP for it) and
// reply to clients themselves. The director only sees the requests.
import * as pulumi from "@pulumi/pulumi";
import { ConnectionArgs, Director, RealServer, VirtualService } from "lvs-pulumi";

// Every host's SSH connection by name, from secret config (it holds the key): see examples/README.md.
const hosts = new pulumi.Config().requireSecretObject<Record<string, ConnectionArgs>>("hosts");
const host = (name: string) => hosts.apply((all) => all[name]);

const director = new Director("dir1", { connection: host("dir1") });
const web = new VirtualService("web", {
  directors: [director],
  protocol: "tcp",
  address: "198.51.100.40",
  port: 80,
  scheduler: "wrr",
});
for (const [name, address, weight] of [
  ["rs1", "198.51.100.21", 2],
  ["rs2", "198.51.100.22", 1],
] as const) {
  // With `host`, the real server's side is built too: the VIP on lo, arp_ignore / arp_announce, rp_filter.
  new RealServer(name, { service: web, address, weight, forwarding: "dr", host: host(name) });
}

export const url = "http://198.51.100.40/";
