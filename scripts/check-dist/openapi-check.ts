// openapi.json: no package here ships the OpenAPI 3.1 JSON Schema for offline use, so the document is checked by
// Redocly's OpenAPI 3.1 structure rules (when installed: a dev dependency), and its schemas by the 2020-12 meta-schema.
import { Ajv2020 } from "ajv/dist/2020.js";

export interface OpenApiCheck {
  problems: string[];
  /** set when a part of the check could not run */
  note?: string;
}

export async function checkOpenApi(text: string, absolutePath: string): Promise<OpenApiCheck> {
  let doc: { openapi?: unknown; components?: { schemas?: Record<string, unknown> } };
  try {
    doc = JSON.parse(text);
  } catch (e) {
    return { problems: [`invalid JSON: ${(e as Error).message.slice(0, 120)}`] };
  }
  const problems: string[] = [];
  if (typeof doc.openapi !== "string" || !/^3\.1\.\d+$/.test(doc.openapi))
    problems.push(`/openapi: must be an OpenAPI 3.1 version (3.1.x)`);
  const ajv = new Ajv2020({ strict: false });
  for (const [name, schema] of Object.entries(doc.components?.schemas ?? {})) {
    if (!ajv.validateSchema(schema as object))
      problems.push(`/components/schemas/${name}: not a valid JSON Schema: ${ajv.errorsText(ajv.errors)}`);
  }
  let redocly: typeof import("@redocly/openapi-core");
  try {
    redocly = await import("@redocly/openapi-core");
  } catch {
    return {
      problems,
      note: "openapi.json: OpenAPI structure not checked (@redocly/openapi-core is a dev dependency: npm install)",
    };
  }
  const config = await redocly.createConfig({
    extends: [],
    rules: { struct: "error", "no-unresolved-refs": "error" },
  } as never);
  for (const p of await redocly.lintFromString({ source: text, absoluteRef: absolutePath, config })) {
    problems.push(`${(p.location[0]?.pointer ?? "#").slice(1)}: ${p.message}`);
  }
  return { problems };
}
