// A Director: the IPVS host (packages, modules, sysctls, timeouts, boot replay), identified by its connection.
import { connectionKey } from "../../remote";
import { directorInputsSchema, DirectorInputs } from "../../schemas/director";
import { sameMachine } from "../../operations/directors";
import { Kind } from "../kind";
import { HOST_WHOLE, hostDrift } from "../outputs";
import { applyDirector, readLiveDirector, removeDirector } from "./apply";

export const directorKind: Kind<DirectorInputs> = {
  schema: directorInputsSchema,
  id: (inputs) => `director:${connectionKey(inputs.connection)}`,
  // Another address is an update, not a replacement: the update gives up the old host only when it is another
  // machine (a second name of the same one must not lose its setup).
  replaceOn: [],
  // `table` was an output until 0.2 (now resources/live-table.ts): named here so that old state is no input change
  // and its first refresh drops it.
  computed: ["kernelRelease", "ipvsadmVersion", "schedulers", "hostDrift", "table"],
  // What the host lacks of its claimed setup and timeouts: drift that the next apply repairs.
  expectedLive: () => HOST_WHOLE,
  async apply(inputs, actor, previous) {
    const facts = await applyDirector(inputs, actor);
    if (previous && !(await sameMachine(previous.connection, inputs.connection))) await removeDirector(previous, actor);
    return { ...facts };
  },
  async read(inputs) {
    const { drift, ...facts } = await readLiveDirector(inputs);
    return { ...facts, ...hostDrift(drift) };
  },
  remove: (inputs, actor) => removeDirector(inputs, actor),
};
