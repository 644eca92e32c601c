// Reads the content folder: site.json, categories/*.json, tools/*.json. No validation here.
// Only regular files inside the folder are read (C2), as strict UTF-8 (C1); nothing of a link's target is touched.
import { closeSync, constants, fstatSync, lstatSync, openSync, readdirSync, readFileSync, type Stats } from "node:fs";
import { join, relative, resolve } from "node:path";
import { sha1, signatureOf } from "../launcher/file-hashes.cjs";
import type { ContentError, FilePlaceholder } from "./errors.ts";

export interface ContentFile {
  /** path as the user sees it, relative to the working directory: content/tools/acme.json */
  file: string;
  /** file name without .json */
  name: string;
  data: unknown;
  /** sha1 of the file's text (absent for content made in memory): with the code, what is rendered from this file alone is a function of it */
  source?: string;
  /** recalled from a previous good build: it passed its schema then, and its bytes are the same */
  valid?: true;
  /** what was read (or recalled), where its signature is settled: what is found in it once is remembered there */
  known?: KnownFile;
}

/** A file read whole and parsed, with a signature that proves it unchanged since (content-cache.ts). */
export interface KnownFile {
  signature: string;
  /** what JSON.parse made of its text (never changed by a build), or a recalled tool that reads as it */
  data: unknown;
  /** sha1 of its text (ContentFile.source) */
  hash: string;
  /** the placeholders in its strings (placeholders.ts), once looked for: a file recalled unchanged holds the same */
  placeholders?: FilePlaceholder[];
  /**
   * What a build rendered from this file alone, kept with it for the next build (render/tool-texts.ts says what, and
   * under which context); `memoRenewed`: this build set it, so the cache keeps it anew.
   */
  memo?: object;
  memoRenewed?: true;
  /** a tool's file: the content cache keeps it as parts (recalled-tool.ts), and recalls it as a RecalledTool */
  tool?: true;
}

/** absolute path → what was read */
export type KnownFiles = Map<string, KnownFile>;

export interface RawContent {
  site: ContentFile | undefined;
  categories: ContentFile[];
  tools: ContentFile[];
  errors: ContentError[];
  /** every file read or recalled whose signature is settled: what a content cache may keep */
  known: KnownFiles;
  /** how many of those were recalled rather than read */
  recalled: number;
}

export const LINK_MESSAGE =
  "is a symbolic link: only regular files inside the content folder are read (its target was not read)";
export const NOT_A_FILE_MESSAGE = "is not a regular file: only regular files inside the content folder are read";
export const NOT_UTF8_MESSAGE = "is not valid UTF-8: save content files as UTF-8";
export const UTF16_MESSAGE = "is UTF-16 text: save content files as UTF-8";

const utf8 = new TextDecoder("utf-8", { fatal: true }); // strips one leading BOM; never replaces a bad byte

/** `remembered`: files a previous good build read (content-cache.ts); one whose signature still matches is not read. */
export async function loadContent(contentDir: string, remembered: KnownFiles = new Map()): Promise<RawContent> {
  const errors: ContentError[] = [];
  const known: KnownFiles = new Map();
  let recalled = 0;
  const now = Date.now();
  // One path.relative for the folder, not one per file (a tenth of the load of a cached thousand-tool catalog).
  const root = resolve(contentDir);
  const rootShown = relative(process.cwd(), root);
  // Joined: one flat string, kept for every file (concatenated, a rope of nodes).
  const shown = (absolute: string) =>
    absolute.startsWith(`${root}/`)
      ? [rootShown ? `${rootShown}/` : "", absolute.slice(root.length + 1)].join("")
      : relative(process.cwd(), absolute) || absolute;
  const refuse = (absolute: string, stats: Stats) =>
    errors.push({
      file: shown(absolute),
      path: "",
      message: stats.isSymbolicLink() ? LINK_MESSAGE : NOT_A_FILE_MESSAGE,
    });

  /** lstat, never stat: a link is reported as itself. undefined when missing (reported by the caller, if it matters). */
  const lstatOrUndefined = (absolute: string) => {
    try {
      return lstatSync(absolute);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === "ENOENT") return undefined;
      throw e;
    }
  };

  // Synchronous: through the thread pool each small file costs five round trips between threads, many times the
  // read itself. Nothing else runs during a build.
  /** `listedAsFile`: its folder's listing said it is a regular file, so no lstat is spent on it (O_NOFOLLOW still holds). */
  function readJson(absolute: string, listedAsFile = false, tool = false): ContentFile | undefined {
    const file = shown(absolute);
    const name = absolute.slice(absolute.lastIndexOf("/") + 1).replace(/\.json$/, "");
    const before = remembered.get(absolute);
    if (before) {
      try {
        // lstat: a file swapped for a link is not a regular file, and is read (and refused) below.
        const stats = lstatSync(absolute, { bigint: true });
        if (stats.isFile() && signatureOf(stats, now) === before.signature) {
          known.set(absolute, before);
          recalled++;
          return { file, name, data: before.data, source: before.hash, valid: true, known: before };
        }
      } catch {
        // gone or unreadable: the read below says which
      }
    }
    let bytes: Buffer;
    let signature: string | undefined;
    try {
      const stats = listedAsFile ? undefined : lstatSync(absolute);
      if (stats && !stats.isFile()) return void refuse(absolute, stats);
      // O_NOFOLLOW: a file swapped for a link after the lstat is refused by the kernel (ELOOP), not followed.
      const fd = openSync(absolute, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
      try {
        const stats = fstatSync(fd, { bigint: true });
        if (!stats.isFile()) return void errors.push({ file, path: "", message: NOT_A_FILE_MESSAGE });
        // Taken before the read: a change during it gives another signature, so stale text is never kept.
        signature = signatureOf(stats, now);
        bytes = readFileSync(fd);
      } finally {
        closeSync(fd);
      }
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      errors.push({ file, path: "", message: code === "ELOOP" ? LINK_MESSAGE : `cannot read: ${code ?? e}` });
      return undefined;
    }
    const text = decodeUtf8(bytes);
    if (typeof text !== "string") return void errors.push({ file, path: "", message: text.error });
    try {
      const data = JSON.parse(text) as unknown;
      const source = sha1(text);
      const read: KnownFile | undefined = signature
        ? tool
          ? { signature, data, hash: source, tool }
          : { signature, data, hash: source }
        : undefined;
      if (read) known.set(absolute, read);
      return { file, name, data, source, known: read };
    } catch (e) {
      errors.push({ file, path: "", message: `invalid JSON: ${withLineAndColumn(text, (e as Error).message)}` });
      return undefined;
    }
  }

  /** The *.json entries of one subfolder, sorted; a linked or odd subfolder or entry is reported, never entered. */
  function list(folder: string): string[] {
    const absolute = join(root, folder);
    const stats = lstatOrUndefined(absolute);
    if (!stats) return [];
    if (!stats.isDirectory()) {
      refuse(absolute, stats);
      return [];
    }
    // Every kind of entry, links not followed (each is reported, never dropped silently); dotfiles are not content.
    const files: string[] = [];
    for (const entry of readdirSync(absolute, { withFileTypes: true })) {
      if (!entry.name.endsWith(".json") || entry.name.startsWith(".")) continue;
      const path = [absolute, "/", entry.name].join(""); // one flat string (join() leaves a rope), kept per file
      if (entry.isFile()) files.push(path);
      else
        errors.push({
          file: shown(path),
          path: "",
          message: entry.isSymbolicLink() ? LINK_MESSAGE : NOT_A_FILE_MESSAGE,
        });
    }
    // Sorted so that error order, and everything after, never depends on the file system.
    return files.sort();
  }

  const [categoryPaths, toolPaths] = [list("categories"), list("tools")];
  const site = readJson(join(root, "site.json"));
  const categories = categoryPaths.map((path) => readJson(path, true)).filter((f) => f !== undefined);
  const tools = toolPaths.map((path) => readJson(path, true, true)).filter((f) => f !== undefined);
  errors.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  return { site, categories, tools, errors, known, recalled };
}

/** Strict UTF-8 (C1): a BOM is dropped; invalid bytes or UTF-16 are an error, never U+FFFD. */
export function decodeUtf8(bytes: Uint8Array): string | { error: string } {
  const utf16Bom =
    bytes.length >= 2 && ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff));
  if (utf16Bom) return { error: UTF16_MESSAGE };
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    return { error: NOT_UTF8_MESSAGE };
  }
  // UTF-16 without a BOM decodes as "valid" UTF-8 full of NULs, which JSON text never holds unescaped.
  if (text.includes("\u0000")) return { error: UTF16_MESSAGE };
  return text;
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
