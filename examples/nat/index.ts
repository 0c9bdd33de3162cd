// NAT (masquerading): the real servers sit on a private subnet behind the director, which rewrites the VIP to each
// RIP and back. Their replies must return through the director: each gets a route via the director's DIP.
import * as pulumi from "@pulumi/pulumi";
import { ConnectionArgs, Director, RealServer, VirtualService } from "lvs-pulumi";

// Every host's SSH connection by name, from secret config (it holds the key): see examples/README.md.
const hosts = new pulumi.Config().requireSecretObject<Record<string, ConnectionArgs>>("hosts");
const host = (name: string) => hosts.apply((all) => all[name]);

const director = new Director("dir1", { connection: host("dir1") });
const web = new VirtualService("web", {
  directors: [director],
  protocol: "tcp",
  address: "198.51.100.41",
  port: 80,
  scheduler: "rr",
});
for (const [name, address] of [
  ["nrs1", "198.51.100.71"],
  ["nrs2", "198.51.100.72"],
] as const) {
  // directorAddress: the DIP on the private subnet; clientPrefix (not set) would limit the route to the clients.
  new RealServer(name, {
    service: web,
    address,
    forwarding: "nat",
    directorAddress: "198.51.100.66",
    host: host(name),
  });
}

export const url = "http://198.51.100.41/";
