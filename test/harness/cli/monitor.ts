// Test tool: the two gRPC services the Pulumi engine serves to a program (ResourceMonitor, Engine), on one port.
// Methods the engine has but this harness does not model answer UNIMPLEMENTED, as an older CLI would; the SDK
// tolerates that for the optional ones (root resource, shutdown signal). Not product code.
import * as grpc from "@grpc/grpc-js";
import { Empty } from "google-protobuf/google/protobuf/empty_pb";
import { Struct } from "google-protobuf/google/protobuf/struct_pb";
import * as enginerpc from "@pulumi/pulumi/proto/engine_grpc_pb";
import * as engineproto from "@pulumi/pulumi/proto/engine_pb";
import * as resrpc from "@pulumi/pulumi/proto/resource_grpc_pb";
import * as resproto from "@pulumi/pulumi/proto/resource_pb";
import { fromStruct, PropertyMap } from "../provider-host";

/** Features the engine reports to the SDK: secrets travel wrapped; resources and outputs are sent as plain values. */
const FEATURES: Record<string, boolean> = { secrets: true };

export interface Registration {
  type: string;
  name: string;
  parent: string;
  custom: boolean;
  /** Inputs in wire form (secret wrappers, the unknown sentinel). */
  inputs: PropertyMap;
  dependencies: string[];
  deleteBeforeReplace: boolean;
  additionalSecretOutputs: string[];
  /** The resource's aliases as URNs (the SDK computes them: this engine does not offer `aliasSpecs`). */
  aliases: string[];
}

export interface Registered {
  urn: string;
  id: string;
  outputs: PropertyMap;
}

export type Severity = "debug" | "info" | "warning" | "error";

/** What the engine does with the program's calls. */
export interface MonitorHandler {
  register(registration: Registration): Promise<Registered>;
  registerOutputs(urn: string, outputs: PropertyMap): void;
  log(severity: Severity, message: string, urn: string): void;
}

const SEVERITIES: Record<number, Severity> = {
  [engineproto.LogSeverity.DEBUG]: "debug",
  [engineproto.LogSeverity.INFO]: "info",
  [engineproto.LogSeverity.WARNING]: "warning",
  [engineproto.LogSeverity.ERROR]: "error",
};

type Callback<T> = (error: grpc.ServiceError | null, value?: T) => void;

function fail<T>(callback: Callback<T>, error: unknown): void {
  const message = error instanceof Error ? error.message : String(error);
  callback({ code: grpc.status.UNKNOWN, details: message, message, name: "Error", metadata: new grpc.Metadata() });
}

export class MonitorServer {
  private constructor(
    private readonly server: grpc.Server,
    /** `127.0.0.1:<port>`: both `--monitor` and `--engine`. */
    readonly address: string,
  ) {}

  static async start(handler: MonitorHandler): Promise<MonitorServer> {
    const server = new grpc.Server();
    server.addService(resrpc.ResourceMonitorService, {
      supportsFeature: (
        call: grpc.ServerUnaryCall<resproto.SupportsFeatureRequest, unknown>,
        callback: Callback<resproto.SupportsFeatureResponse>,
      ) => {
        callback(null, new resproto.SupportsFeatureResponse().setHassupport(FEATURES[call.request.getId()] === true));
      },
      registerResource: (
        call: grpc.ServerUnaryCall<resproto.RegisterResourceRequest, unknown>,
        callback: Callback<resproto.RegisterResourceResponse>,
      ) => {
        const req = call.request;
        handler
          .register({
            type: req.getType(),
            name: req.getName(),
            parent: req.getParent(),
            custom: req.getCustom(),
            inputs: fromStruct(req.getObject()),
            dependencies: req.getDependenciesList(),
            deleteBeforeReplace: req.getDeletebeforereplace(),
            additionalSecretOutputs: req.getAdditionalsecretoutputsList(),
            aliases: req.getAliasurnsList(),
          })
          .then((done) => {
            const res = new resproto.RegisterResourceResponse();
            res.setUrn(done.urn).setId(done.id);
            res.setObject(Struct.fromJavaScript(done.outputs as Parameters<typeof Struct.fromJavaScript>[0]));
            callback(null, res);
          })
          .catch((error: unknown) => fail(callback, error));
      },
      registerResourceOutputs: (
        call: grpc.ServerUnaryCall<resproto.RegisterResourceOutputsRequest, unknown>,
        callback: Callback<Empty>,
      ) => {
        handler.registerOutputs(call.request.getUrn(), fromStruct(call.request.getOutputs()));
        callback(null, new Empty());
      },
    } as unknown as grpc.UntypedServiceImplementation);
    server.addService(enginerpc.EngineService, {
      log: (call: grpc.ServerUnaryCall<engineproto.LogRequest, unknown>, callback: Callback<Empty>) => {
        const req = call.request;
        handler.log(SEVERITIES[req.getSeverity()] ?? "info", req.getMessage(), req.getUrn());
        callback(null, new Empty());
      },
    } as unknown as grpc.UntypedServiceImplementation);
    const port = await new Promise<number>((resolve, reject) =>
      server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (e, p) => (e ? reject(e) : resolve(p))),
    );
    return new MonitorServer(server, `127.0.0.1:${port}`);
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.server.tryShutdown(() => resolve()));
  }
}
