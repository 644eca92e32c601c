// Every body is validated against its response schema before the build may succeed.

import type { SchemaFile } from "./schema-files.ts";
import { validatorFor } from "./validators.ts";

/** Throws when a rendered value breaks its schema: that is a bug in the build, never a content error. */
export function assertValid<T>(schema: SchemaFile, value: T, what: string): T {
  const validate = validatorFor(schema);
  if (!validate(value)) {
    throw new Error(`built ${what} breaks ${schema}: ${JSON.stringify(validate.errors?.slice(0, 3))}`);
  }
  return value;
}
