// A tool's output schema: its success body OR the API's error body, both exact, in one object schema.
//
// Why not the success schema alone: the SDK's server skips output validation when isError is true, but its Client
// (and the MCP spec: structured results MUST conform to the output schema) validates structuredContent whenever it
// is present, isError or not; so an error body under a success-only schema is rejected by the client.
// Why not z.union: the SDK lists and checks only object schemas (a union is dropped from tools/list, and the spec
// requires `type: "object"` at the top). So: one strict object whose properties are both bodies' (each optional),
// a JSON Schema `oneOf` that requires exactly one body's fields, and a zod check that the value parses as one of the
// two bodies (the zod schemas of the HTTP API, imported, never copied).
import * as z from "zod";
import { ErrorBody } from "../api/contract/response-schemas.ts";

type ObjectSchema = z.ZodObject<z.ZodRawShape>;

export function successOrError(success: ObjectSchema, description: string) {
  const optional = (shape: z.ZodRawShape) =>
    Object.fromEntries(Object.entries(shape).map(([k, v]) => [k, (v as z.ZodType).optional()]));
  const successKeys = Object.keys(success.shape);
  const errorKeys = Object.keys(ErrorBody.shape);
  return z
    .strictObject({ ...optional(success.shape), ...optional(ErrorBody.shape) })
    .refine((body) => success.safeParse(body).success || ErrorBody.safeParse(body).success, {
      message: `neither the success body (${successKeys.join(", ")}) nor the error body`,
    })
    .meta({ description, oneOf: [{ required: successKeys }, { required: errorKeys }] });
}
