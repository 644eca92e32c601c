// Validates content files against schemas/content/*.json (ajv) and then across files.
import type { ErrorObject } from "ajv";
import { nearestName } from "../cli/nearest-name.ts";
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

  // Cross-file rules, on what each file holds even when it failed its schema: every error of a run in one report.
  errors.push(...crossFileErrors(raw.categories, raw.tools));
  // By file (a stable sort keeps each file's errors in the order they were found).
  errors.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));

  if (errors.length > 0 || !site) return { ok: false, errors };
  return {
    ok: true,
    content: {
      site: {
        siteUrl: site.siteUrl,
        apiBaseUrl: site.apiBaseUrl,
        basePath: site.basePath ?? "/v1",
        cacheMaxAge: site.cacheMaxAge ?? 300,
        cacheStaleWhileRevalidate: site.cacheStaleWhileRevalidate ?? 0,
      },
      categories: categories.map((x) => x.c!),
      tools: tools.map((x) => x.t!),
      toolSources: new Map(tools.flatMap(({ f, t }) => (f.source ? [[t!, f.source]] : []))),
    },
  };
}

const asObject = (data: unknown) =>
  data !== null && typeof data === "object" && !Array.isArray(data) ? (data as Record<string, unknown>) : {};
const asString = (value: unknown) => (typeof value === "string" ? value : undefined);
/** The strings of an array field with their indexes, in order (a value of the wrong type is the schema's error). */
function eachStringOf(value: unknown, visit: (text: string, index: number) => void): void {
  if (!Array.isArray(value)) return;
  for (let i = 0; i < value.length; i++) if (typeof value[i] === "string") visit(value[i] as string, i);
}

/**
 * Slugs against file names, a tool's categories (each known, none twice) and each category's top tool pick (a tool of
 * that category), read from the files as they are: a field of the wrong type is the schema's error, not one of these.
 */
function crossFileErrors(categories: ContentFile[], tools: ContentFile[]): ContentError[] {
  const errors: ContentError[] = [];
  /** A slug that is another file's name is a duplicate: both files are named, so either can be fixed. */
  const slugMatchesName = (f: ContentFile, siblings: Map<string, ContentFile>) => {
    const slug = asString(asObject(f.data).slug);
    if (slug === undefined || slug === f.name) return;
    const other = siblings.get(slug);
    errors.push({
      file: f.file,
      path: "slug",
      message: other
        ? `"${slug}" is also the slug of ${other.file}: each slug is one file's, and must equal its file name "${f.name}"`
        : `"${slug}" must equal the file name "${f.name}"`,
    });
  };
  const byName = (files: ContentFile[]) => new Map(files.map((f) => [f.name, f]));
  const [categoryFiles, toolFiles] = [byName(categories), byName(tools)];
  const categoryNames = new Set(categories.map((f) => f.name));
  for (const f of categories) slugMatchesName(f, categoryFiles);
  for (const f of tools) {
    slugMatchesName(f, toolFiles);
    const seen = new Set<string>();
    // No entry or path per category unless it is an error: a thousand tools list a few categories each.
    eachStringOf(asObject(f.data).categories, (slug, i) => {
      if (seen.has(slug))
        errors.push({
          file: f.file,
          path: fieldPath(["categories", i]),
          message: `category "${slug}" is listed twice`,
        });
      else if (!categoryNames.has(slug)) {
        const guess = nearestName(slug, categoryNames);
        errors.push({
          file: f.file,
          path: fieldPath(["categories", i]),
          message: `unknown category "${slug}"${guess ? ` (did you mean "${guess}"?)` : ": no category has this slug"}`,
        });
      }
      seen.add(slug);
    });
  }
  for (const f of categories) {
    const raw = asObject(f.data);
    const pick = asString(raw.topToolPick);
    if (pick === undefined) continue;
    const slug = asString(raw.slug) ?? f.name;
    const pickFile = toolFiles.get(pick);
    const listed = pickFile && asObject(pickFile.data).categories;
    if (!pickFile) errors.push({ file: f.file, path: "topToolPick", message: `unknown tool "${pick}"` });
    else if (!(Array.isArray(listed) && listed.includes(slug)))
      errors.push({ file: f.file, path: "topToolPick", message: `tool "${pick}" is not in category "${slug}"` });
  }
  return errors;
}

/** Ajv errors → one message a content author can act on per field; an unknown field names the one it may mean. */
export function describeContentErrors(file: string, ajvErrors: readonly ErrorObject[]): ContentError[] {
  const guesses = fieldGuesses(ajvErrors);
  return describeAjvErrors(ajvErrors, "content").map(({ segments, message }) => {
    const path = fieldPath(segments);
    const guess = guesses.get(path);
    return { file, path, message: guess ? `unknown field (did you mean "${guess}"?)` : message };
  });
}

/** For each unknown field (`pricingPlans[0].prise`), the nearest field its object has (`price`), where one is near. */
function fieldGuesses(ajvErrors: readonly ErrorObject[]): Map<string, string> {
  const guesses = new Map<string, string>();
  for (const e of ajvErrors) {
    if (e.keyword !== "additionalProperties") continue;
    const field = String(e.params.additionalProperty);
    // The validators are compiled verbose: the object's schema, and so the fields allowed there, comes with the error.
    const properties = (e.parentSchema as { properties?: Record<string, unknown> } | undefined)?.properties ?? {};
    const known = Object.keys(properties).filter((k) => k !== "$schema");
    const guess = nearestName(field, known);
    const segments = [...e.instancePath.split("/").slice(1), field];
    if (guess) guesses.set(fieldPath(segments), guess);
  }
  return guesses;
}
