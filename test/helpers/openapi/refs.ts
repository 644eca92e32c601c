// Following `$ref`s inside an OpenAPI document, for tests that read what openapi.json says.

// A parsed JSON document, walked by key: `any` keeps the walking readable.
export type Json = Record<string, any>;

/** `node`, or what its `#/…` reference names in `doc`, followed until it is no reference. */
export const derefIn =
  (doc: Json) =>
  (node: Json): Json =>
    typeof node.$ref === "string"
      ? derefIn(doc)(
          node.$ref
            .slice(2)
            .split("/")
            .reduce((n: Json, k: string) => n[k], doc),
        )
      : node;
