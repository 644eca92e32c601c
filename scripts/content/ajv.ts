// One ajv instance holding every generated JSON Schema in schemas/, compiled once.
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { readSchemaFile, type SchemaFile } from "./schema-files.ts";

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

let ajv: Ajv2020 | undefined;
const compiled = new Map<SchemaFile, ValidateFunction>();

/** The validator of one schema file, read from schemas/ (the files the build promises to honour). */
export function validatorFor(file: SchemaFile): ValidateFunction {
  let validate = compiled.get(file);
  if (!validate) {
    // verbose: errors carry the offending value, so messages can say what was found.
    ajv ??= addFormats(new Ajv2020({ allErrors: true, strict: true, verbose: true }));
    validate = ajv.compile(readSchemaFile(file));
    compiled.set(file, validate);
  }
  return validate;
}
