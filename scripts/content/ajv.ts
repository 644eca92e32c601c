// The validator of every generated JSON Schema in schemas/. Compiling them took every build 0.2 s, so ajv compiles
// them once per change of the schema files (or of ajv) into standalone code kept in node_modules/.cache/msapi/.
import type { Ajv2020 as Ajv, ValidateFunction } from "ajv/dist/2020.js";
import { createHash } from "node:crypto";
import { createRequire } from "node:module";
import { join } from "node:path";
import { hashOfFile, saveFileHashes } from "../cli/file-hashes.mjs";
import { CACHE_DIR, writeCacheFile } from "../cli/project-cache.mjs";
import { readSchemaFile, SCHEMA_FILE_NAMES, schemaFilePath, type SchemaFile } from "./schema-files.ts";

const require = createRequire(import.meta.url);

// verbose: errors carry the offending value, so messages can say what was found.
const OPTIONS = { allErrors: true, strict: true, verbose: true } as const;

export type Validators = Record<SchemaFile, ValidateFunction>;
let validators: Validators | undefined;

/** The validator of one schema file, read from schemas/ (the files the build promises to honour). */
export function validatorFor(file: SchemaFile): ValidateFunction {
  validators ??= loadValidators(CACHE_DIR);
  return validators[file];
}

/** Every validator: from the cached module when one matches the schema files, ajv and ajv-formats, else compiled (and cached). */
export function loadValidators(cacheDir: string): Validators {
  // The generated code calls into both packages at run time: a new version of either compiles again.
  const versions = ["ajv", "ajv-formats"].map((p) => (require(`${p}/package.json`) as { version: string }).version);
  const hash = createHash("sha1").update(JSON.stringify({ OPTIONS, versions }));
  for (const file of SCHEMA_FILE_NAMES) hash.update(file).update(hashOfFile(schemaFilePath(file)));
  saveFileHashes();
  const cached = join(cacheDir, `validators-${hash.digest("base64url").slice(0, 16)}.cjs`);
  try {
    return require(cached) as Validators;
  } catch {
    // not compiled yet for these schemas
  }
  // Loaded only here: ajv itself takes a tenth of a second to load.
  const { Ajv2020 } = require("ajv/dist/2020.js") as typeof import("ajv/dist/2020.js");
  const addFormats = require("ajv-formats") as (ajv: Ajv) => Ajv;
  const standaloneCode = require("ajv/dist/standalone/index.js").default as (ajv: Ajv, refs: Record<string, string>) => string;
  const ajv = addFormats(new Ajv2020({ ...OPTIONS, code: { source: true } }));
  for (const file of SCHEMA_FILE_NAMES) ajv.addSchema(readSchemaFile(file), file);
  try {
    writeCacheFile(cached, standaloneCode(ajv, Object.fromEntries(SCHEMA_FILE_NAMES.map((f) => [f, f]))));
  } catch {
    // an unwritable cache: the next build compiles again
  }
  return Object.fromEntries(SCHEMA_FILE_NAMES.map((f) => [f, ajv.getSchema(f)!])) as Validators;
}
