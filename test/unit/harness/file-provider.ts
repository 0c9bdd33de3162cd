/* eslint-disable @typescript-eslint/no-require-imports */
// A trivial dynamic provider used to exercise the harness: one file per resource.
// Modules are loaded with require() inside the methods so serialization captures no live module objects.
import type * as dynamic from "@pulumi/pulumi/dynamic";

export interface FileInputs {
  dir: string;
  name: string;
  content: string;
  /** Sent secret by the tests; echoed under the same key. */
  token?: string;
  /** Make a change of `name` a delete-before-replace. */
  dbr?: boolean;
}

/** `tag` is captured by value, so different tags give different `__provider` texts. */
export function makeFileProvider(tag: string, opts: { withoutDiff?: boolean } = {}): dynamic.ResourceProvider {
  const provider: dynamic.ResourceProvider = {
    async check(_olds, news) {
      const failures = [];
      if (typeof news.name !== "string" || news.name === "") failures.push({ property: "name", reason: "required" });
      if (typeof news.dir !== "string") failures.push({ property: "dir", reason: "required" });
      return { inputs: news, failures };
    },

    async diff(_id, olds, news) {
      const replaces: string[] = [];
      if (olds.dir !== news.dir) replaces.push("dir");
      if (olds.name !== news.name) replaces.push("name");
      // __provider is deliberately ignored.
      const changes = replaces.length > 0 || olds.content !== news.content || olds.token !== news.token;
      return { changes, replaces, deleteBeforeReplace: news.dbr === true };
    },

    async create(inputs) {
      const fs: typeof import("fs") = require("fs");
      const path: typeof import("path") = require("path");
      const file = path.join(inputs.dir, inputs.name);
      if (fs.existsSync(file)) throw new Error(`${file} already exists`);
      fs.writeFileSync(file, inputs.content);
      console.log(`file-provider[${tag}] create ${inputs.name} token=${typeof inputs.token}`);
      const outs = { ...inputs, tag };
      delete outs.__provider;
      return { id: file, outs };
    },

    async read(id, props) {
      const fs: typeof import("fs") = require("fs");
      if (!fs.existsSync(id)) return { id: "", props: {} };
      return { id, props: { ...props, content: fs.readFileSync(id, "utf8") } };
    },

    async update(id, _olds, news) {
      const fs: typeof import("fs") = require("fs");
      fs.writeFileSync(id, news.content);
      console.log(`file-provider[${tag}] update ${news.name}`);
      const outs = { ...news, tag };
      delete outs.__provider;
      return { outs };
    },

    async delete(id, props) {
      const fs: typeof import("fs") = require("fs");
      fs.rmSync(id, { force: true });
      console.log(`file-provider[${tag}] delete ${props.name} (created by ${props.tag})`);
    },
  };
  if (opts.withoutDiff) delete provider.diff;
  return provider;
}
