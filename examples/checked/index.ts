// A checked service: keepalived on the director checks every real server over HTTP and takes a failing one out of
// the table; with none healthy, the sorry server answers instead.
import * as pulumi from "@pulumi/pulumi";
import { ConnectionArgs, Director, RealServer, VirtualService } from "lvs-pulumi";

// Every host's SSH connection by name, from secret config (it holds the key): see examples/README.md.
const hosts = new pulumi.Config().requireSecretObject<Record<string, ConnectionArgs>>("hosts");
const host = (name: string) => hosts.apply((all) => all[name]);

const director = new Director("dir1", { connection: host("dir1") });
const VIP = "198.51.100.45";
const web = new VirtualService("web", {
  directors: [director],
  protocol: "tcp",
  address: VIP,
  port: 80,
  scheduler: "wlc",
  healthCheck: { type: "http", path: "/", status: 200, intervalSeconds: 3, connectTimeoutSeconds: 2 },
  // A dr sorry server needs the VIP on its lo, as a real server does: rs2 serves this VIP's port 8443 below.
  sorryServer: { address: "198.51.100.22", port: 80, forwarding: "dr" },
});
new RealServer("rs1", { service: web, address: "198.51.100.21", forwarding: "dr", host: host("rs1") });

const status = new VirtualService("status", {
  directors: [director],
  protocol: "tcp",
  address: VIP,
  port: 8443,
  scheduler: "rr",
});
new RealServer("status-rs2", { service: status, address: "198.51.100.22", forwarding: "dr", host: host("rs2") });

export const url = `http://${VIP}/`;
