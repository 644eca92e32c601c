// Writes schemas/**/*.json from the zod source (npm run schemas). A test fails when they drift.
import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { generateJsonSchemas } from "./json-schemas.ts";

const schemasDir = fileURLToPath(new URL("../../schemas/", import.meta.url));
for (const [path, text] of Object.entries(generateJsonSchemas())) {
  const target = join(schemasDir, path);
  await mkdir(dirname(target), { recursive: true });
  await writeFile(target, text);
  console.log(`wrote schemas/${path}`);
}
