// fullnat: NAT plus source NAT. The director also rewrites the client's address to one of its own (snatSource), so
// replies come back to it from anywhere: no route, VIP or sysctl on the real servers, which need no `host` here.
// The cost: the real servers see the DIP, not the client.
import * as pulumi from "@pulumi/pulumi";
import { ConnectionArgs, Director, RealServer, VirtualService } from "lvs-pulumi";

// Every host's SSH connection by name, from secret config (it holds the key): see examples/README.md.
const hosts = new pulumi.Config().requireSecretObject<Record<string, ConnectionArgs>>("hosts");

const director = new Director("dir1", { connection: hosts.apply((all) => all.dir1) });
const web = new VirtualService("web", {
  directors: [director],
  protocol: "tcp",
  address: "198.51.100.43",
  port: 80,
  scheduler: "rr",
});
// trs1 is behind a router; nrs1 has no default route at all. Each gets the DIP on its own subnet as source.
new RealServer("trs1", { service: web, address: "198.51.100.141", forwarding: "fullnat", snatSource: "198.51.100.11" });
new RealServer("nrs1", { service: web, address: "198.51.100.71", forwarding: "fullnat", snatSource: "198.51.100.66" });

export const url = "http://198.51.100.43/";
