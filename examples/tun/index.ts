// IP-in-IP tunnelling: the real server may be on another, routed subnet. The director encapsulates each request;
// the real server decapsulates it on tunl0 (where it holds the VIP) and replies to the client directly.
import * as pulumi from "@pulumi/pulumi";
import { ConnectionArgs, Director, RealServer, VirtualService } from "lvs-pulumi";

// Every host's SSH connection by name, from secret config (it holds the key): see examples/README.md.
const hosts = new pulumi.Config().requireSecretObject<Record<string, ConnectionArgs>>("hosts");
const host = (name: string) => hosts.apply((all) => all[name]);

const director = new Director("dir1", { connection: host("dir1") });
const web = new VirtualService("web", {
  directors: [director],
  protocol: "tcp",
  address: "198.51.100.42",
  port: 80,
  scheduler: "rr",
});
new RealServer("trs1", { service: web, address: "198.51.100.141", forwarding: "tun", host: host("trs1") });

export const url = "http://198.51.100.42/";
