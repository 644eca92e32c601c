// One ajv instance holding every generated JSON Schema in schemas/, compiled once.
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { SchemaFile } from "./schema.ts";

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;
const schemasDir = fileURLToPath(new URL("../../schemas/", import.meta.url));

let ajv: Ajv2020 | undefined;
const compiled = new Map<SchemaFile, ValidateFunction>();

/** The validator of one schema file, read from schemas/ (the files the build promises to honour). */
export function validatorFor(file: SchemaFile): ValidateFunction {
  let validate = compiled.get(file);
  if (!validate) {
    // verbose: errors carry the offending value, so messages can say what was found.
    ajv ??= addFormats(new Ajv2020({ allErrors: true, strict: true, verbose: true }));
    validate = ajv.compile(JSON.parse(readFileSync(schemasDir + file, "utf8")));
    compiled.set(file, validate);
  }
  return validate;
}
