import type * as pulumi from "@pulumi/pulumi";

// A resource's arguments are its schema's input type (z.input: defaults optional) with every value allowed to be a
// pulumi.Input, at every level: the schema is the one place that says what a field is, and the types follow it.

type Plain = string | number | boolean | null | undefined;

/** A value of type T as a program may give it: itself, a promise or an output, its parts inputs too. */
export type InputOf<T> = pulumi.Input<InputShape<T>>;

/**
 * T's own shape with inputs for its members (object fields, array elements); unions stay unions. A union's
 * discriminant (`type`, as a health check's) stays a plain value: by it TypeScript tells the members apart, and so
 * rejects a field of another member.
 */
export type InputShape<T> = T extends Plain
  ? T
  : T extends readonly (infer Element)[]
    ? InputOf<Element>[]
    : { [Field in keyof T]: Field extends "type" ? T[Field] : InputOf<T[Field]> };
