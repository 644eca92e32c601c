// The one builder of content files for tests: the scaffold's stubs (what `npm run new:tool` writes), with the fields
// a test sets. A field added to the content schema is added to the stub, and every test's tool has it.
import type { ToolContent } from "../../../scripts/content/schema.ts";
import { toolStub } from "../../../scripts/scaffold/stubs.ts";

/** A valid tool with every field, no `$schema`, in no category; `extra` replaces fields. */
export function toolContent(slug: string, name: string, extra: Partial<ToolContent> = {}): ToolContent {
  const { $schema: _, ...stub } = toolStub({ name, slug, schemaRef: "", categories: [] });
  return { ...stub, ...extra };
}
