// Writes one new content file from its stub: checks the folder, the slug and the schema first, never overwrites.
import { existsSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join, relative, resolve } from "node:path";
import { UserError } from "../cli/command.ts";
import { formatContentError } from "../content/errors.ts";
import { schemaRef } from "../content/schema-ref.ts";
import { describeContentErrors } from "../content/validate.ts";
import type { SchemaFile } from "../schemas/schema-files.ts";
import { validatorFor } from "../schemas/validators.ts";
import { isSlug, slugFromName } from "./slug.ts";
import { categoryStub, toolStub } from "./stubs.ts";

// Relative to where the user stands, unless that climbs out of it.
const shown = (path: string) => {
  const rel = relative(process.cwd(), path);
  return rel && !rel.startsWith("..") ? rel : path;
};

export interface StubRequest {
  contentDir: string;
  name: string;
  /** defaults to the slug of the name */
  slug?: string;
}

export interface CreatedStub {
  /** as the user sees it, relative to the working directory */
  path: string;
  slug: string;
}

function nameAndSlug({ name, slug }: StubRequest): { name: string; slug: string } {
  const trimmed = name.trim();
  if (!trimmed) throw new UserError("--name must not be empty", 2);
  if (slug !== undefined && !isSlug(slug))
    throw new UserError(`--slug "${slug}" is not a slug: lower-case letters and digits, words joined by "-"`, 2);
  const chosen = slug ?? slugFromName(trimmed);
  if (!chosen) throw new UserError(`no slug can be made from "${trimmed}": give one with --slug`, 2);
  return { name: trimmed, slug: chosen };
}

function contentFolder(contentDir: string): string {
  const dir = resolve(contentDir);
  if (!existsSync(join(dir, "site.json")))
    throw new UserError(`${shown(dir)} is not a content folder (it has no site.json): point --content at one`);
  return dir;
}

/** Checks the stub against its content schema (so it also keeps any length limit), then creates the file. */
async function writeStub(target: string, schema: SchemaFile, stub: object): Promise<void> {
  const validate = validatorFor(schema);
  if (!validate(stub)) {
    const [first, ...rest] = describeContentErrors(shown(target), validate.errors ?? []);
    throw new UserError(
      `${first ? formatContentError(first) : `${shown(target)}: does not match ${schema}`}${rest.length ? ` (and ${rest.length} more)` : ""}`,
    );
  }
  await mkdir(dirname(target), { recursive: true });
  try {
    // "wx": fails if the file exists, in the same step that creates it.
    await writeFile(target, `${JSON.stringify(stub, null, 2)}\n`, { flag: "wx" });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "EEXIST")
      throw new UserError(`${shown(target)} already exists: not overwritten (choose another --name or --slug)`);
    throw e;
  }
}

export async function createTool(request: StubRequest & { categories: string[] }): Promise<CreatedStub> {
  const dir = contentFolder(request.contentDir);
  const { name, slug } = nameAndSlug(request);
  for (const category of request.categories) {
    if (!isSlug(category) || !existsSync(join(dir, "categories", `${category}.json`)))
      throw new UserError(
        `no category "${category}" in ${shown(join(dir, "categories"))}/: use a slug from there, or create it with npm run new:category -- --name "…"`,
      );
  }
  const target = join(dir, "tools", `${slug}.json`);
  const schema: SchemaFile = "content/tool.schema.json";
  await writeStub(
    target,
    schema,
    toolStub({ name, slug, schemaRef: schemaRef(target, schema), categories: [...new Set(request.categories)] }),
  );
  return { path: shown(target), slug };
}

export async function createCategory(request: StubRequest): Promise<CreatedStub> {
  const dir = contentFolder(request.contentDir);
  const { name, slug } = nameAndSlug(request);
  const target = join(dir, "categories", `${slug}.json`);
  const schema: SchemaFile = "content/category.schema.json";
  await writeStub(target, schema, categoryStub({ name, slug, schemaRef: schemaRef(target, schema) }));
  return { path: shown(target), slug };
}
