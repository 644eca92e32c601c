// Validates content files against schemas/content/*.json (ajv) and then across files.
import type { ErrorObject } from "ajv";
import { describeAjvErrors } from "../schemas/describe-errors.ts";
import type { SchemaFile } from "../schemas/schema-files.ts";
import { validatorFor } from "../schemas/validators.ts";
import { type ContentError, fieldPath } from "./errors.ts";
import type { ContentFile, RawContent } from "./load.ts";
import type { CategoryContent, SiteSettings, ToolContent } from "./schema.ts";

export interface ValidContent {
  site: Required<Omit<SiteSettings, "$schema">>;
  categories: CategoryContent[];
  tools: ToolContent[];
  /** each tool's ContentFile.source, where known */
  toolSources?: ReadonlyMap<ToolContent, string>;
}

export type ValidationResult = { ok: true; content: ValidContent } | { ok: false; errors: ContentError[] };

export function validateContent(raw: Pick<RawContent, "site" | "categories" | "tools" | "errors">): ValidationResult {
  const errors = [...raw.errors];
  const check = <T>(file: ContentFile, schema: SchemaFile): T | undefined => {
    if (file.valid) return file.data as T;
    const validate = validatorFor(schema);
    if (validate(file.data)) return file.data as T;
    errors.push(...describeContentErrors(file.file, validate.errors ?? []));
    return undefined;
  };

  const site = raw.site && check<SiteSettings>(raw.site, "content/site.schema.json");
  const categories = raw.categories.map((f) => ({ f, c: check<CategoryContent>(f, "content/category.schema.json") }));
  const tools = raw.tools.map((f) => ({ f, t: check<ToolContent>(f, "content/tool.schema.json") }));

  // Cross-file rules, on the files that passed their schema.
  const categoryBySlug = new Map<string, CategoryContent>();
  for (const { f, c } of categories) {
    if (!c) continue;
    if (c.slug !== f.name)
      errors.push({ file: f.file, path: "slug", message: `"${c.slug}" must equal the file name "${f.name}"` });
    categoryBySlug.set(c.slug, c);
  }
  const toolBySlug = new Map<string, ToolContent>();
  for (const { f, t } of tools) {
    if (!t) continue;
    if (t.slug !== f.name)
      errors.push({ file: f.file, path: "slug", message: `"${t.slug}" must equal the file name "${f.name}"` });
    toolBySlug.set(t.slug, t);
    const seen = new Set<string>();
    t.categories.forEach((slug, i) => {
      const path = fieldPath(["categories", i]);
      if (seen.has(slug)) errors.push({ file: f.file, path, message: `category "${slug}" is listed twice` });
      else if (!categoryBySlug.has(slug) && categories.every((x) => x.f.name !== slug))
        errors.push({ file: f.file, path, message: `unknown category "${slug}" (no categories/${slug}.json)` });
      seen.add(slug);
    });
  }
  for (const { f, c } of categories) {
    if (!c?.topToolPick) continue;
    const pick = toolBySlug.get(c.topToolPick);
    if (!pick && tools.every((x) => x.f.name !== c.topToolPick))
      errors.push({ file: f.file, path: "topToolPick", message: `unknown tool "${c.topToolPick}"` });
    else if (pick && !pick.categories.includes(c.slug))
      errors.push({
        file: f.file,
        path: "topToolPick",
        message: `tool "${c.topToolPick}" is not in category "${c.slug}"`,
      });
  }

  if (errors.length > 0 || !site) return { ok: false, errors };
  return {
    ok: true,
    content: {
      site: {
        siteUrl: site.siteUrl,
        apiBaseUrl: site.apiBaseUrl,
        basePath: site.basePath ?? "/v1",
        cacheMaxAge: site.cacheMaxAge ?? 300,
      },
      categories: categories.map((x) => x.c!),
      tools: tools.map((x) => x.t!),
      toolSources: new Map(tools.flatMap(({ f, t }) => (f.source ? [[t!, f.source]] : []))),
    },
  };
}

/** Ajv errors → one message a content author can act on per field. */
export function describeContentErrors(file: string, ajvErrors: readonly ErrorObject[]): ContentError[] {
  return describeAjvErrors(ajvErrors, "content").map(({ segments, message }) => ({
    file,
    path: fieldPath(segments),
    message,
  }));
}
