// Imported content → the content folder: only files whose data changed are rewritten (each through a temporary file
// and a rename, so no reader sees half a file), files of tools and categories no longer in the CSV are removed (or,
// for the dev loop, kept: a half-saved sheet must not cost a file).
import { mkdir, rename, rm, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { UserError } from "../../cli/command.ts";
import type { SchemaFile } from "../../schemas/schema-files.ts";
import { formatContentError } from "../errors.ts";
import { type ContentFile, LINK_MESSAGE, loadContent, NOT_A_FILE_MESSAGE } from "../load.ts";
import { schemaRef } from "../schema-ref.ts";
import type { ImportedContent } from "./csv-to-content.ts";
import { type FieldChange, fieldChanges } from "./field-changes.ts";

export interface Changes {
  added: string[];
  changed: string[];
  /** no row any more: the file is removed, or kept when the import keeps removed files */
  removed: string[];
  /** each changed field of the changed files, old → new */
  fields: (FieldChange & { slug: string })[];
}

export interface ImportReport {
  tools: Changes;
  categories: Changes;
  /** whether site.json was written */
  siteChanged: boolean;
  /** site.json's changed fields */
  siteFields: FieldChange[];
}

export interface WriteOptions {
  /** report what would change and write nothing */
  dryRun: boolean;
  /** report files with no row any more, and leave them (the dev loop: `content:import` removes them) */
  keepRemoved?: boolean;
}

/** The text of a content file, as new:tool and the generator write it. */
export const contentFileText = (data: unknown) => `${JSON.stringify(data, null, 2)}\n`;

/** Same data whatever the order of keys: a file reordered by hand is not "changed". */
function sameData(a: unknown, b: unknown): boolean {
  const canonical = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(canonical)
      : v !== null && typeof v === "object"
        ? Object.fromEntries(
            Object.keys(v)
              .sort()
              .map((k) => [k, canonical((v as Record<string, unknown>)[k])]),
          )
        : v;
  return JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));
}

interface PlannedWrite {
  target: string;
  data: Record<string, unknown>;
}

/** The content folder as it is; a link or other odd entry stops the import, as it stops a build (C2). */
export async function existingContent(contentDir: string) {
  const existing = await loadContent(contentDir);
  const refused = existing.errors.filter((e) => e.message === LINK_MESSAGE || e.message === NOT_A_FILE_MESSAGE);
  if (refused.length > 0) throw new UserError(refused.map(formatContentError).join("\n"));
  return existing;
}

export async function writeImportedContent(
  contentDir: string,
  content: ImportedContent,
  existing: Awaited<ReturnType<typeof existingContent>>,
  { dryRun, keepRemoved = false }: WriteOptions,
): Promise<ImportReport> {
  const dir = resolve(contentDir);
  const writes: PlannedWrite[] = [];
  const removals: string[] = [];

  /** Keeps a file's own `$schema` pointer when it has one; a new file gets the scaffold's. */
  const plan = (
    folder: "tools" | "categories",
    schema: SchemaFile,
    items: Record<string, unknown>[],
    old: ContentFile[],
  ) => {
    const before = new Map(old.map((f) => [f.name, f]));
    const changes: Changes = { added: [], changed: [], removed: [], fields: [] };
    for (const data of items) {
      const slug = String(data.slug);
      const target = join(dir, folder, `${slug}.json`);
      const previous = before.get(slug)?.data as Record<string, unknown> | undefined;
      const $schema = typeof previous?.$schema === "string" ? previous.$schema : schemaRef(target, schema);
      const next = { $schema, ...data };
      before.delete(slug);
      if (previous === undefined) changes.added.push(slug);
      else if (sameData(previous, next)) continue;
      else {
        changes.changed.push(slug);
        changes.fields.push(...fieldChanges(previous, next).map((c) => ({ slug, ...c })));
      }
      writes.push({ target, data: next });
    }
    for (const [slug] of before) {
      changes.removed.push(slug);
      if (!keepRemoved) removals.push(join(dir, folder, `${slug}.json`));
    }
    return changes;
  };

  const tools = plan("tools", "content/tool.schema.json", content.tools, existing.tools);
  const categories = plan("categories", "content/category.schema.json", content.categories, existing.categories);
  let siteChanged = false;
  let siteFields: FieldChange[] = [];
  if (content.site) {
    const target = join(dir, "site.json");
    const previous = existing.site?.data as Record<string, unknown> | undefined;
    const $schema =
      typeof previous?.$schema === "string" ? previous.$schema : schemaRef(target, "content/site.schema.json");
    const next = { $schema, ...content.site };
    if (!previous || !sameData(previous, next)) {
      siteChanged = true;
      if (previous) siteFields = fieldChanges(previous, next);
      writes.push({ target, data: next });
    }
  }

  if (!dryRun) {
    await mkdir(join(dir, "tools"), { recursive: true });
    await mkdir(join(dir, "categories"), { recursive: true });
    for (const { target, data } of writes) {
      const temporary = join(target, "..", `.${target.slice(target.lastIndexOf("/") + 1)}.importing`);
      await writeFile(temporary, contentFileText(data));
      await rename(temporary, target);
    }
    for (const target of removals) await rm(target, { force: true });
  }
  return { tools, categories, siteChanged, siteFields };
}
