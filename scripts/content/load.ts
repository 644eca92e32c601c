// Reads the content folder: site.json, categories/*.json, tools/*.json. No validation here.
import fg from "fast-glob";
import { readFile } from "node:fs/promises";
import { join, relative } from "node:path";
import type { ContentError } from "./errors.ts";

export interface ContentFile {
  /** path as the user sees it, relative to the working directory: content/tools/acme.json */
  file: string;
  /** file name without .json */
  name: string;
  data: unknown;
}

export interface RawContent {
  site: ContentFile | undefined;
  categories: ContentFile[];
  tools: ContentFile[];
  errors: ContentError[];
}

export async function loadContent(contentDir: string): Promise<RawContent> {
  const errors: ContentError[] = [];
  const shown = (absolute: string) => relative(process.cwd(), absolute) || absolute;

  async function readJson(absolute: string): Promise<ContentFile | undefined> {
    const file = shown(absolute);
    const name = absolute.slice(absolute.lastIndexOf("/") + 1).replace(/\.json$/, "");
    let text: string;
    try {
      text = await readFile(absolute, "utf8");
    } catch (e) {
      errors.push({ file, path: "", message: `cannot read: ${(e as NodeJS.ErrnoException).code ?? e}` });
      return undefined;
    }
    try {
      return { file, name, data: JSON.parse(text) };
    } catch (e) {
      errors.push({ file, path: "", message: `invalid JSON: ${withLineAndColumn(text, (e as Error).message)}` });
      return undefined;
    }
  }

  // Sorted so that error order, and everything after, never depends on the file system.
  const list = async (pattern: string) =>
    (await fg(pattern, { cwd: contentDir, absolute: true, onlyFiles: true })).sort();
  const [categoryPaths, toolPaths] = await Promise.all([list("categories/*.json"), list("tools/*.json")]);

  const site = await readJson(join(contentDir, "site.json"));
  const categories = (await Promise.all(categoryPaths.map(readJson))).filter((f) => f !== undefined);
  const tools = (await Promise.all(toolPaths.map(readJson))).filter((f) => f !== undefined);
  return { site, categories, tools, errors };
}

/** V8 reports JSON errors "at position N"; people look for line and column. */
function withLineAndColumn(text: string, message: string): string {
  const position = /at position (\d+)/.exec(message);
  if (!position) return message;
  const before = text.slice(0, Number(position[1]));
  const line = before.split("\n").length;
  const column = before.length - before.lastIndexOf("\n");
  return message.replace(/at position \d+.*$/, `at line ${line}, column ${column}`);
}
