// js-yaml ships without types; it is a dependency of @pulumi/pulumi (which reads Pulumi.yaml files with it).
declare module "js-yaml" {
  export function load(text: string): unknown;
}
