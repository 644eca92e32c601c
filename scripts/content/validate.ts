// Validates content files against schemas/content/*.json (ajv) and then across files.
import type { ErrorObject } from "ajv";
import { validatorFor } from "./ajv.ts";
import { countChars, fieldPath, quote, type ContentError } from "./errors.ts";
import type { ContentFile, RawContent } from "./load.ts";
import { RATING_VALUES } from "./rating-values.ts";
import type { CategoryContent, SiteSettings, ToolContent } from "./schema.ts";
import type { SchemaFile } from "./schema-files.ts";

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
    errors.push(...describeAjvErrors(file.file, validate.errors ?? []));
    return undefined;
  };

  const site = raw.site && check<SiteSettings>(raw.site, "content/site.schema.json");
  const categories = raw.categories.map((f) => ({ f, c: check<CategoryContent>(f, "content/category.schema.json") }));
  const tools = raw.tools.map((f) => ({ f, t: check<ToolContent>(f, "content/tool.schema.json") }));

  // Cross-file rules, on the files that passed their schema.
  const categoryBySlug = new Map<string, CategoryContent>();
  for (const { f, c } of categories) {
    if (!c) continue;
    if (c.slug !== f.name) errors.push({ file: f.file, path: "slug", message: `"${c.slug}" must equal the file name "${f.name}"` });
    categoryBySlug.set(c.slug, c);
  }
  const toolBySlug = new Map<string, ToolContent>();
  for (const { f, t } of tools) {
    if (!t) continue;
    if (t.slug !== f.name) errors.push({ file: f.file, path: "slug", message: `"${t.slug}" must equal the file name "${f.name}"` });
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
      errors.push({ file: f.file, path: "topToolPick", message: `tool "${c.topToolPick}" is not in category "${c.slug}"` });
  }

  if (errors.length > 0 || !site) return { ok: false, errors };
  return {
    ok: true,
    content: {
      site: { siteUrl: site.siteUrl, apiBaseUrl: site.apiBaseUrl, basePath: site.basePath ?? "/v1", cacheMaxAge: site.cacheMaxAge ?? 300 },
      categories: categories.map((x) => x.c!),
      tools: tools.map((x) => x.t!),
      toolSources: new Map(tools.flatMap(({ f, t }) => (f.source ? [[t!, f.source]] : []))),
    },
  };
}

const isRatingSteps = (values: unknown[]) => values.length === RATING_VALUES.length && values.every((v, i) => v === RATING_VALUES[i]);

const typeOf = (v: unknown) => (v === null ? "null" : Array.isArray(v) ? "array" : typeof v);

/** Ajv errors → one message a content author can act on per field. */
export function describeAjvErrors(file: string, ajvErrors: readonly ErrorObject[]): ContentError[] {
  const byPath = new Map<string, ErrorObject[]>();
  for (const e of ajvErrors) {
    if (e.keyword === "anyOf") continue; // its branches say what was wrong
    const list = byPath.get(e.instancePath) ?? [];
    list.push(e);
    byPath.set(e.instancePath, list);
  }
  const out: ContentError[] = [];
  for (const [instancePath, list] of byPath) {
    const segments = instancePath.split("/").slice(1).map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"));
    const path = fieldPath(segments);
    const typeErrors = list.filter((e) => e.keyword === "type");
    // A format check (date, uri) says more than the regex zod adds beside it.
    const hasFormat = list.some((e) => e.keyword === "format");
    // Out of range says more than "not one of 51 ratings"; the enum then only repeats it.
    const hasRange = list.some((e) => e.keyword === "maximum" || e.keyword === "minimum");
    const others = list.filter((e) => e.keyword !== "type" && !(hasFormat && e.keyword === "pattern") && !(e.keyword === "enum" && isRatingSteps(e.params.allowedValues as unknown[]) && (hasRange || typeof e.data !== "number")));
    // A nullable field fails both its branches; when the value has a right type, only the other errors matter.
    if (others.length === 0 && typeErrors.length > 0) {
      const expected = [...new Set(typeErrors.map((e) => String(e.params.type)))].join(" or ");
      out.push({ file, path, message: `expected ${expected}, got ${typeOf(typeErrors[0]!.data)}` });
      continue;
    }
    for (const e of others) {
      if (e.keyword === "required") {
        const field = String(e.params.missingProperty);
        out.push({ file, path: path ? `${path}.${field}` : field, message: "required field is missing" });
      } else if (e.keyword === "additionalProperties") {
        const field = String(e.params.additionalProperty);
        out.push({ file, path: path ? `${path}.${field}` : field, message: "unknown field (not allowed here)" });
      } else if (e.keyword === "enum" && isRatingSteps(e.params.allowedValues as unknown[])) {
        out.push({ file, path, message: `expected a number from 0 to 5 with at most one decimal (like 4.5), got ${quote(e.data)}` });
      } else if (e.keyword === "enum") {
        const allowed = (e.params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(", ");
        out.push({ file, path, message: `expected one of ${allowed}, got ${quote(e.data)}` });
      } else if (e.keyword === "maxLength") {
        // The value is never quoted: it is long by definition (C3), and the count says enough.
        out.push({ file, path, message: `longer than the limit of ${e.params.limit} characters (has ${countChars(String(e.data))})` });
      } else if (e.keyword === "maxItems") {
        out.push({ file, path, message: `more than the limit of ${e.params.limit} entries (has ${(e.data as unknown[]).length})` });
      } else if (e.keyword === "format") {
        out.push({ file, path, message: `expected a valid ${e.params.format}, got ${quote(e.data)}` });
      } else if (e.keyword === "pattern") {
        out.push({ file, path, message: `${quote(e.data)} does not match ${e.params.pattern}` });
      } else {
        out.push({ file, path, message: `${e.message ?? e.keyword}, got ${quote(e.data)}` });
      }
    }
  }
  return out;
}
