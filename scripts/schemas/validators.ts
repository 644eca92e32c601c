// The validator of every generated JSON Schema in schemas/. Compiling them slowed every build, so ajv compiles
// them once per change of the schema files (or of ajv) into standalone code kept in node_modules/.cache/msapi/.

import { createHash } from "node:crypto";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Ajv2020 as Ajv, ValidateFunction } from "ajv/dist/2020.js";
import { hashOfFile, saveFileHashes } from "../launcher/file-hashes.cjs";
import { CACHE_DIR, writeCacheFile } from "../launcher/project-cache.cjs";
import { readSchemaFile, SCHEMA_FILE_NAMES, type SchemaFile, schemaFilePath } from "./schema-files.ts";

const require = createRequire(import.meta.url);

/** The formats the generated code calls (by this path: the modules live in the cache folder). */
const FORMATS_MODULE = fileURLToPath(new URL("./formats.cjs", import.meta.url));

// verbose: errors carry the offending value, so messages can say what was found.
const OPTIONS = { allErrors: true, strict: true, verbose: true } as const;

export type Validators = Record<SchemaFile, ValidateFunction>;
const loaded: Partial<Validators> = {};

/** The validator of one schema file, read from schemas/ (the files the build promises to honour). */
export function validatorFor(file: SchemaFile): ValidateFunction {
  if (!loaded[file]) {
    try {
      loaded[file] = cachedValidator(CACHE_DIR, file);
    } catch {
      Object.assign(loaded, compileAll(CACHE_DIR));
    }
  }
  return loaded[file]!;
}

/** Every validator: from the cached modules when they match the schema files, ajv and ajv-formats, else compiled (and cached). */
export function loadValidators(cacheDir: string): Validators {
  try {
    return Object.fromEntries(SCHEMA_FILE_NAMES.map((f) => [f, cachedValidator(cacheDir, f)])) as Validators;
  } catch {
    return compileAll(cacheDir);
  }
}

/** A name for this set of schema files, ajv and ajv-formats: the generated code calls into both packages at run time. */
let cacheKey: string | undefined;
function validatorsKey(): string {
  if (cacheKey) return cacheKey;
  const versions = ["ajv", "ajv-formats"].map((p) => (require(`${p}/package.json`) as { version: string }).version);
  const hash = createHash("sha1").update(JSON.stringify({ OPTIONS, versions }));
  for (const file of SCHEMA_FILE_NAMES) hash.update(file).update(hashOfFile(schemaFilePath(file)));
  hash.update(FORMATS_MODULE).update(hashOfFile(FORMATS_MODULE));
  saveFileHashes();
  return (cacheKey = hash.digest("base64url").slice(0, 16));
}

// One module per schema file: a build that checks one changed tool loads two small modules, not all twelve.
const modulePath = (cacheDir: string, file: SchemaFile) =>
  join(cacheDir, `validators-${validatorsKey()}-${file.replace(/\W+/g, "-")}.cjs`);

/** One validator from its cached module; throws when there is none yet. */
const cachedValidator = (cacheDir: string, file: SchemaFile) =>
  (require(modulePath(cacheDir, file)) as Record<string, ValidateFunction>)[file]!;

function compileAll(cacheDir: string): Validators {
  // Loaded only here: ajv itself takes a tenth of a second to load.
  const { Ajv2020 } = require("ajv/dist/2020.js") as typeof import("ajv/dist/2020.js");
  const addFormats = require("ajv-formats") as (ajv: Ajv) => Ajv;
  const standaloneCode = require("ajv/dist/standalone/index.js").default as (
    ajv: Ajv,
    refs: Record<string, string>,
  ) => string;
  const { _ } = require("ajv/dist/compile/codegen/index.js") as typeof import("ajv/dist/compile/codegen/index.js");
  // The generated code takes its formats from formats.cjs; so does this instance, for what it compiles now.
  const ajv = addFormats(
    new Ajv2020({ ...OPTIONS, code: { source: true, formats: _`require(${FORMATS_MODULE}).formats` } }),
  );
  ajv.addFormat(
    "uri",
    (require(FORMATS_MODULE) as typeof import("./formats.cjs")).formats.uri as (s: string) => boolean,
  );
  for (const file of SCHEMA_FILE_NAMES) ajv.addSchema(readSchemaFile(file), file);
  try {
    for (const file of SCHEMA_FILE_NAMES)
      writeCacheFile(modulePath(cacheDir, file), standaloneCode(ajv, { [file]: file }));
  } catch {
    // an unwritable cache: the next build compiles again
  }
  return Object.fromEntries(SCHEMA_FILE_NAMES.map((f) => [f, ajv.getSchema(f)!])) as Validators;
}
