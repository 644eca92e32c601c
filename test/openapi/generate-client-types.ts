// Rewrites test/openapi/client/api.ts from a fresh build of the tiny fixture (after a change to the description).
import { writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { fixture } from "../helpers/dirs.ts";
import { buildSite } from "./support/built-site.ts";
import { generateClientTypes } from "./support/client-types.ts";

const site = await buildSite(fixture("tiny"));
try {
  const target = fileURLToPath(new URL("./client/api.ts", import.meta.url));
  await writeFile(target, await generateClientTypes(site.openapiPath));
  console.log(`wrote ${target}`);
} finally {
  await site.remove();
}
