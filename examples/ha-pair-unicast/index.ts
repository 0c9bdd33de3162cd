// Two directors as an HA pair over unicast VRRP (for networks that drop multicast): both carry the table,
// keepalived holds the VIP on the master and moves it, with the connections synced all along, when the master fails.
import * as pulumi from "@pulumi/pulumi";
import { ConnectionArgs, Director, HAPair, RealServer, VirtualService } from "lvs-pulumi";

// Every host's SSH connection by name, from secret config (it holds the key): see examples/README.md.
const hosts = new pulumi.Config().requireSecretObject<Record<string, ConnectionArgs>>("hosts");
const host = (name: string) => hosts.apply((all) => all[name]);

const VIP = "198.51.100.49";
const dir1 = new Director("dir1", { connection: host("dir1") });
const dir2 = new Director("dir2", { connection: host("dir2") });
const web = new VirtualService("web", {
  directors: [dir1, dir2],
  protocol: "tcp",
  address: VIP,
  port: 80,
  scheduler: "rr",
  bindVip: false, // keepalived holds it
});
for (const [name, address] of [
  ["rs1", "198.51.100.21"],
  ["rs2", "198.51.100.22"],
] as const) {
  new RealServer(name, { service: web, address, forwarding: "dr", host: host(name) });
}

const pair = new HAPair(
  "edge",
  {
    // `addresses`: each member's own address for unicast adverts (the VIP is never one of them).
    primary: { director: dir1, interface: "eth0", addresses: ["198.51.100.11"] },
    backup: { director: dir2, interface: "eth0", addresses: ["198.51.100.12"] },
    virtualRouterId: 61,
    vips: [VIP],
  },
  { dependsOn: [web] }, // the VIP comes up once its service exists
);

export const master = pair.master;
export const url = `http://${VIP}/`;
