// A content file's `$schema` pointer: its schema in schemas/, relative to the file's folder, so that editors find it.
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import type { SchemaFile } from "../schemas/schema-files.ts";

const schemasDir = fileURLToPath(new URL("../../schemas/", import.meta.url));

export const schemaRef = (target: string, schema: SchemaFile) =>
  relative(dirname(target), join(schemasDir, schema)).split("\\").join("/");
