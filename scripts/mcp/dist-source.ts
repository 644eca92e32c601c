// Answers from a built dist/ exactly as the HTTP API would: the same route table, the same pure resolver, the
// resolved file's bytes. dist/ may be a symlink that each build switches to a new generation folder: it is resolved
// on every call (two syscalls), so a rebuild is seen at once and one answer never mixes two builds. Each answer names
// its generation (`build`), and the build records (the find index) are read from the generation answering now. A runs
// build's list pages are read from their runs, as the Node server reads them (io/run-pages.ts): the same bytes.
import { readFile, realpath, stat } from "node:fs/promises";
import { join } from "node:path";
import { loadRouteTable } from "../api/load-route-table.ts";
import type { BuildIndex } from "../api/runtime/build-index.ts";
import { createResolver, type Resolver } from "../api/runtime/resolve-request.ts";
import { layout, type RouteTable } from "../api/runtime/route-table.ts";
import { layoutOf, readBuildIndex } from "../io/read-build-index.ts";
import { readRunPage } from "../io/run-pages.ts";
import { type ApiAnswer, type BuildRecord, type CatalogSource, SourceUnavailable } from "./source.ts";

interface Generation {
  /** the real folder, and its device and inode: a folder replaced by a rename is another generation */
  id: string;
  root: string;
  table: RouteTable;
  resolver: Resolver;
  /** a runs build's index, which says where each list page lies in its run; none for a pages build */
  runs?: BuildIndex;
}

/** A file of a generation that a later build recycled may vanish between two steps: then look again, a few times. */
const ATTEMPTS = 3;

const isMissing = (e: unknown) => ["ENOENT", "ENOTDIR"].includes((e as NodeJS.ErrnoException).code ?? "");

/**
 * `distDir`: the build's folder (a symlink followed on every call), or a function naming the generation folder to
 * answer from now (the Node server's: the one it serves).
 */
export function createDistSource(
  distDir: string | (() => string),
): CatalogSource & { root(): Promise<string>; record: NonNullable<CatalogSource["record"]> } {
  let loaded: Generation | undefined;
  const dir = typeof distDir === "string" ? () => distDir : distDir;

  async function identify(): Promise<{ id: string; root: string }> {
    const path = dir();
    try {
      const root = await realpath(path);
      const s = await stat(root);
      return { id: `${root}\0${s.dev}:${s.ino}`, root };
    } catch (e) {
      if (isMissing(e)) throw new SourceUnavailable(`no build at ${path}: run \`npm run build\` first`);
      throw e;
    }
  }

  async function current(): Promise<Generation> {
    const { id, root } = await identify();
    if (loaded?.id === id) return loaded;
    let table: RouteTable;
    let runs: BuildIndex | undefined;
    try {
      table = await loadRouteTable(root);
      if (layoutOf(root) === "runs") runs = readBuildIndex(root, layout(table.basePath).page);
    } catch (e) {
      throw new SourceUnavailable((e as Error).message);
    }
    loaded = { id, root, table, resolver: createResolver(table), runs };
    return loaded;
  }

  /** The probe: a file's text, or null when the build has no such file (the answer sends that very text). */
  const read = (root: string, runs?: BuildIndex) => async (file: string) => {
    try {
      const page = runs?.page(file);
      if (page) {
        const bytes = await readRunPage(root, file, page, Buffer.alloc(runs!.sizeOf(file)!));
        return bytes.toString("utf8");
      }
      return await readFile(join(root, file), "utf8");
    } catch (e) {
      if (isMissing(e)) return null;
      throw e;
    }
  };

  /** One attempt in one generation; undefined when that generation changed under it. */
  async function answerIn(g: Generation, target: string): Promise<ApiAnswer | undefined> {
    const r = await g.resolver.resolve("GET", g.table.basePath + target, read(g.root, g.runs));
    if (r.kind === "file" && r.success) return { status: r.status, body: r.found, build: g.id };
    // A miss may only mean the build was replaced meanwhile (its files recycled): the newest build decides.
    if ((await identify()).id !== g.id) return undefined;
    if (r.kind === "file") return { status: r.status, body: r.found, build: g.id };
    if (r.kind === "preflight") throw new Error("a GET never resolves to a preflight");
    const { file, status } = g.table.errors[r.id];
    const body = await read(g.root)(file);
    return body === null ? undefined : { status, body, build: g.id };
  }

  return {
    remote: false,
    root: async () => (await current()).root,
    async get(target) {
      for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
        const g = await current();
        const answer = await answerIn(g, target);
        if (answer) return answer;
      }
      // Still missing in the build published now: that build is incomplete. The API answers not_found then.
      const g = await current();
      const { file, status } = g.table.errors.not_found;
      return { status, body: await readFile(join(g.root, file), "utf8"), build: g.id };
    },
    async record(name, { unless } = {}): Promise<BuildRecord | null> {
      for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
        const { id, root } = await identify();
        if (id === unless) return { build: id };
        const text = await read(root)(name);
        if (text !== null) return { build: id, text };
        // Missing: this build has none, unless it was replaced meanwhile.
        if ((await identify()).id === id) return null;
      }
      return null;
    },
  };
}
