// One ajv validator per schema file named by dist/schema-map.json, with messages in the form a CI log reads:
// `/data/3/rating: must be <= 5`.
import { Ajv2020, type ErrorObject, type ValidateFunction } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { RATING_VALUES } from "../content/schema.ts";

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

/** The repository root: schema-map.json names schemas relative to it (`schemas/responses/…`). */
export const projectRoot = fileURLToPath(new URL("../../", import.meta.url));

export type Check = (value: unknown) => string[];

export function responseValidators(root = projectRoot) {
  const ajv = addFormats(new Ajv2020({ allErrors: true, strict: true }));
  const compiled = new Map<string, Promise<Check>>();
  return (schemaPath: string): Promise<Check> => {
    let check = compiled.get(schemaPath);
    if (!check) {
      check = readFile(join(root, schemaPath), "utf8").then((text) => {
        const validate = ajv.compile(JSON.parse(text));
        return (value: unknown) => (validate(value) ? [] : describe(validate));
      });
      compiled.set(schemaPath, check);
    }
    return check;
  };
}

const isRatingSteps = (values: unknown) =>
  Array.isArray(values) && values.length === RATING_VALUES.length && values.every((v, i) => v === RATING_VALUES[i]);

/** ajv's errors as `pointer: message`, one per problem, grouped by where they are. */
function describe(validate: ValidateFunction): string[] {
  const byPath = new Map<string, ErrorObject[]>();
  for (const e of validate.errors ?? []) {
    if (e.keyword === "anyOf") continue; // its branches say what was wrong
    byPath.set(e.instancePath, [...(byPath.get(e.instancePath) ?? []), e]);
  }
  const out: string[] = [];
  for (const [pointer, errors] of byPath) {
    const types = errors.filter((e) => e.keyword === "type").map((e) => String(e.params.type));
    const ranged = errors.some((e) => e.keyword === "maximum" || e.keyword === "minimum");
    // The rating-steps enum only repeats a range or type error; a nullable's failed null branch says nothing either.
    const others = errors.filter(
      (e) => e.keyword !== "type" && !(e.keyword === "enum" && isRatingSteps(e.params.allowedValues) && (ranged || types.includes("number"))),
    );
    if (others.length === 0) out.push(line(pointer, `must be ${[...new Set(types)].join(" or ")}`));
    else for (const e of others) out.push(line(pointer, message(e)));
  }
  return out;
}

const line = (pointer: string, text: string) => (pointer ? `${pointer}: ${text}` : text);

function message(e: ErrorObject): string {
  if (e.keyword === "additionalProperties") return `must NOT have additional property "${e.params.additionalProperty}"`;
  if (e.keyword === "enum" && isRatingSteps(e.params.allowedValues)) return "must be a number from 0 to 5 with at most one decimal";
  if (e.keyword === "enum") return `must be one of ${(e.params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(", ")}`;
  return e.message ?? e.keyword;
}
