// Keeps a local copy of a deployed API in step with it through its hash tree (E2, E3, format 2): the root with
// If-None-Match, then only the shards whose SHA-256 changed, the bodies whose SHA-256 changed and the pieces the copy
// does not hold, each verified, written into a staging folder that becomes the copy in one step (a link switched by
// rename). A killed or failed run leaves the previous copy whole, and the next run keeps what the staging folder
// already holds.
//
// The copy is a runs build of this project (design 48 section 7): bodies at their build paths (the route table says
// where), the shards and pieces as served, each list's run joined from its pieces with its offsets, the catalog body
// joined from its parts, and what the copy makes from this project's code (copy-build.ts). `npm run serve -- --dist
// COPY` answers from it; `npm run export -- --dist COPY` turns it into a page tree. A copy made by an earlier version
// (a file per target, list pages included) is replaced whole on its next run.
import { link, lstat, mkdir, readdir, readFile, readlink, rename, rm, symlink, writeFile } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { createResolver } from "../api/runtime/resolve-request.ts";
import { fill, layout, type RouteTable } from "../api/runtime/route-table.ts";
import { sha256Hex } from "../api/sha256-node.ts";
import { UserError } from "../cli/command.ts";
import { offsetsFile, runFile } from "../render/list-runs.ts";
import { buildSchemaMap, SCHEMA_MAP_FILE } from "../render/schema-table.ts";
import { copyIndexText, copyRouteTable, filterOfListTarget, itemLengths, madeFiles, offsetsOf } from "./copy-build.ts";
import { DEFAULT_FETCH, type FetchOptions, politeFetcher } from "./fetch-retry.ts";
import {
  type BodyEntry,
  type Hashed,
  type ListEntry,
  type Part,
  type PieceRow,
  readRoot,
  readShard,
  type Shard,
  TREE_FORMAT,
} from "./tree.ts";

/** What a copy remembers of where it came from. */
interface CopyState {
  /** the hash tree's format the copy follows; absent in a copy of an earlier version (a file per target) */
  format?: number;
  from: string;
  rootEtag: string | null;
  rootSha256: string;
  targets: number;
}

export interface MirrorResult {
  /** false: the root answered 304, nothing changed */
  changed: boolean;
  copy: string;
  /** bodies served by URL, as the tree names them (lists and pieces aside) */
  targets: number;
  lists: number;
  pieces: number;
  requests: number;
  retries: number;
  shardsFetched: number;
  bodiesFetched: number;
  piecesFetched: number;
  /** root and fetched shards */
  indexBytes: number;
  bodyBytes: number;
  pieceBytes: number;
  seconds: number;
}

const STATE_FILE = ".mirror.json";

async function readState(copy: string): Promise<CopyState | undefined> {
  try {
    return JSON.parse(await readFile(join(copy, STATE_FILE), "utf8")) as CopyState;
  } catch {
    return undefined;
  }
}

/** The copy `out` links to now, refusing an `out` that is something else than a copy made here. */
async function currentCopy(out: string): Promise<string | undefined> {
  const stat = await lstat(out).catch(() => undefined);
  if (!stat) return undefined;
  const target = stat.isSymbolicLink() ? await readlink(out) : undefined;
  const copy = target && join(dirname(out), target);
  if (!copy || !(await readState(copy)))
    throw new UserError(`--out ${out} exists and is not a copy made by npm run mirror: choose another folder`);
  return copy;
}

/** Whether a regular file is at `path`. */
const isFile = (path: string) =>
  lstat(path).then(
    (s) => s.isFile(),
    () => false,
  );

/** Writes `bytes` at `path` whole or not at all (a name is given only to complete bytes). */
async function writeWhole(path: string, bytes: Uint8Array | string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(`${path}.part`, bytes);
  await rename(`${path}.part`, path);
}

/** A piece's items without its brackets: how a run and a body made of parts join them. */
const innerOf = (piece: Buffer): Buffer => piece.subarray(1, piece.length - 1);

export async function updateMirror(
  from: string,
  out: string,
  options: { fetch?: FetchOptions; onProgress?: (done: number, total: number) => void } = {},
): Promise<MirrorResult> {
  const started = performance.now();
  const baseUrl = new URL(from.endsWith("/") ? from : `${from}/`);
  const basePath = baseUrl.pathname.replace(/\/$/, "");
  const fetcher = politeFetcher(options.fetch ?? DEFAULT_FETCH);
  const copies = `${out}.copies`;
  const current = await currentCopy(out);
  const currentState = current ? await readState(current) : undefined;
  // A copy of an earlier version (a file per target, list pages included) is replaced: nothing of it is reused.
  const previous = currentState?.format === TREE_FORMAT ? current : undefined;
  const result = {
    changed: true,
    targets: 0,
    lists: 0,
    pieces: 0,
    shardsFetched: 0,
    bodiesFetched: 0,
    piecesFetched: 0,
    indexBytes: 0,
    bodyBytes: 0,
    pieceBytes: 0,
  };
  const finish = (copy: string): MirrorResult => ({
    ...result,
    copy,
    ...fetcher.stats(),
    seconds: (performance.now() - started) / 1000,
  });

  const files = layout(basePath);
  const rootUrl = new URL(`${basePath}/sync/index.json`, baseUrl).href;
  const etag = previous && currentState?.from === baseUrl.href ? currentState.rootEtag : null;
  const answer = await fetcher.get(rootUrl, etag ? { "if-none-match": etag } : {});
  if (answer.status === 304 && previous) {
    result.changed = false;
    result.targets = currentState!.targets;
    return finish(previous);
  }
  if (answer.status !== 200)
    throw new UserError(`GET ${rootUrl} answered ${answer.status}: is ${from} this API's base address?`);
  result.indexBytes += answer.body.byteLength;
  const root = readRoot(answer.body, rootUrl);
  const rootSha = sha256Hex(answer.body);
  const staging = join(copies, `.staging-${rootSha.slice(0, 16)}`);
  await mkdir(staging, { recursive: true });

  const table = copyRouteTable(basePath, answer.headers.get("cache-control"));
  const fileOf = fileOfTarget(table);
  /** every served file the copy holds, with its size: what its build index names */
  const held = new Map<string, number>();

  /**
   * Puts one file into the staging folder: kept when it is there already (a resumed run), linked from the previous
   * copy when that holds the same bytes (`same`), else fetched from `target` and verified. Nothing is read to be
   * hashed again: a staging folder is one tree's (named by its root's hash), and a file gets its name there only once
   * its bytes were verified or linked from a copy whose tree listed the same hash.
   */
  async function place(file: string, want: Hashed, same: boolean, target: string): Promise<Buffer | undefined> {
    held.set(file, want.size);
    const path = join(staging, file);
    if (await isFile(path)) return undefined;
    await mkdir(dirname(path), { recursive: true });
    if (same && previous && (await linked(join(previous, file), path))) return undefined;
    const url = new URL(target, baseUrl).href;
    const got = await fetcher.get(url);
    if (got.status !== 200) throw new UserError(`GET ${url} answered ${got.status}; the previous copy is kept`);
    if (sha256Hex(got.body) !== want.sha256 || got.body.byteLength !== want.size)
      throw new UserError(
        `GET ${url}: the body is not the one the hash tree lists (changed since, or corrupted on the way); the previous copy is kept`,
      );
    await writeWhole(path, got.body);
    return got.body;
  }

  // The shards: those whose hash did not change are the previous copy's.
  const previousShards = previous ? await previousTree(previous, files.syncRoot, fileOf, basePath) : undefined;
  const shardFile = (name: string) => fileOf(`${basePath}/sync/${name}.json`);
  await pool(Object.entries(root.shards), 16, async ([name, want]) => {
    const target = `${basePath}/sync/${name}.json`;
    const same = previousShards?.root[name]?.sha256 === want.sha256;
    const got = await place(shardFile(name), want, same, target);
    if (got) {
      result.shardsFetched++;
      result.indexBytes += got.byteLength;
    }
  });
  const shards: Shard[] = [];
  for (const name of Object.keys(root.shards))
    shards.push(readShard(await readFile(join(staging, shardFile(name))), `the shard ${name}`));
  const bodies = new Map<string, BodyEntry>(shards.flatMap((s) => [...s.bodies]));
  const lists = new Map<string, ListEntry>(shards.flatMap((s) => [...s.lists]));
  result.targets = bodies.size;
  result.lists = lists.size;

  // The pieces the lists and the catalog body are made of: the copy's own, or fetched.
  const pieces = new Map<string, PieceRow>();
  for (const list of lists.values()) for (const row of list.pieces) pieces.set(row[0], row);
  for (const body of bodies.values())
    for (const part of body.parts ?? []) if ("pieces" in part) for (const row of part.pieces) pieces.set(row[0], row);
  result.pieces = pieces.size;
  const pieceFile = (id: string) => fill(files.syncPiece, { piece: `${id}.json` });
  let done = 0;
  const total = bodies.size + pieces.size;
  const progressed = () => {
    if (++done % 1000 === 0) options.onProgress?.(done, total);
  };
  await pool([...pieces.values()], 32, async ([id, , size]) => {
    const file = pieceFile(id);
    // A piece's name is its hash: the previous copy's file of that name holds it.
    const got = await place(file, { sha256: id, size }, true, `/${file}`);
    if (got) {
      result.piecesFetched++;
      result.pieceBytes += got.byteLength;
    }
    progressed();
  });
  const pieceBytes = (id: string) => readFile(join(staging, pieceFile(id)));

  // Bodies served by URL: fetched when their hash changed; one made of parts is joined from its pieces instead.
  await pool([...bodies], 32, async ([target, want]) => {
    const file = fileOf(target);
    const same = previousShards?.bodies.get(target) === want.sha256;
    if (want.parts) await joinParts(file, want, want.parts, same, target);
    else {
      const got = await place(file, want, same, target);
      if (got) {
        result.bodiesFetched++;
        result.bodyBytes += got.byteLength;
      }
    }
    progressed();
  });

  /** A body made of parts: the previous copy's when its hash did not change, else its parts joined and verified. */
  async function joinParts(file: string, want: Hashed, parts: Part[], same: boolean, target: string) {
    held.set(file, want.size);
    const path = join(staging, file);
    if (await isFile(path)) return;
    if (same && previous && (await linked(join(previous, file), path))) return;
    const bytes: Buffer[] = [];
    for (const part of parts) {
      if ("text" in part) bytes.push(Buffer.from(part.text));
      else
        for (const [i, [id]] of part.pieces.entries()) {
          if (i > 0) bytes.push(Buffer.from(","));
          bytes.push(innerOf(await pieceBytes(id)));
        }
    }
    const body = Buffer.concat(bytes);
    if (sha256Hex(body) !== want.sha256 || body.byteLength !== want.size)
      throw new UserError(`${target}: its parts do not make the body the hash tree lists; the previous copy is kept`);
    await writeWhole(path, body);
  }

  // Each list's run, joined from its pieces (or the previous copy's, when its hash did not change), and its offsets.
  const indexLists: Parameters<typeof copyIndexText>[1] = [];
  for (const [target, list] of lists) {
    const filter = filterOfListTarget(basePath, target, list.category);
    const run = join(staging, runFile(filter));
    const same = previousShards?.lists.get(target) === list.sha256;
    if (!(await isFile(run)) && !(same && previous && (await linked(join(previous, runFile(filter)), run)))) {
      const bytes: Buffer[] = [];
      for (const [i, [id]] of list.pieces.entries())
        bytes.push(...(i > 0 ? [Buffer.from(",")] : []), innerOf(await pieceBytes(id)));
      const joined = Buffer.concat(bytes);
      if (sha256Hex(joined) !== list.sha256 || joined.byteLength !== list.size)
        throw new UserError(`${target}: its pieces do not make the run the hash tree lists; the previous copy is kept`);
      await writeWhole(run, joined);
    }
    const lengths = itemLengths(await readFile(run), target);
    if (lengths.length !== list.total || list.pieces.reduce((n, p) => n + p[1], 0) !== list.total)
      throw new UserError(`${target}: its pieces do not hold the ${list.total} items the hash tree says`);
    await writeWhole(join(staging, offsetsFile(filter)), offsetsOf(lengths));
    indexLists.push({
      filter,
      category: list.category,
      lengths,
      pieces: list.pieces.map(([id, items]): [string, number] => [id, items]),
    });
  }

  // What the copy makes from this project's code, then its index, then the root and the state last: a staging
  // folder with its root and state is complete.
  for (const [file, body] of madeFiles(
    table,
    indexLists.map((l) => ({ filter: l.filter, category: l.category, total: l.lengths.length })),
  )) {
    await writeWhole(join(staging, file), body);
    held.set(file, Buffer.byteLength(body));
  }
  await writeWhole(join(staging, layout("/").routeTable), `${JSON.stringify(table)}\n`);
  await writeWhole(join(staging, SCHEMA_MAP_FILE), `${JSON.stringify(buildSchemaMap(table), null, 2)}\n`);
  held.set(files.syncRoot, answer.body.byteLength);
  await writeWhole(join(staging, "build-index.json"), copyIndexText(held, indexLists));
  await writeWhole(join(staging, files.syncRoot), answer.body);
  const state: CopyState = {
    format: TREE_FORMAT,
    from: baseUrl.href,
    rootEtag: answer.headers.get("etag"),
    rootSha256: rootSha,
    targets: bodies.size,
  };
  await writeFile(join(staging, STATE_FILE), `${JSON.stringify(state)}\n`);
  const copy = join(copies, rootSha.slice(0, 16));
  if (copy === previous) {
    // The same tree again (the ETag changed, not the bytes): the copy is already this one.
    await rm(staging, { recursive: true, force: true });
    await writeFile(join(copy, STATE_FILE), `${JSON.stringify(state)}\n`);
    return finish(copy);
  }
  await rm(copy, { recursive: true, force: true });
  await rename(staging, copy);
  const next = `${out}.link-${process.pid}`;
  await rm(next, { force: true });
  await symlink(join(basename(copies), basename(copy)), next);
  await rename(next, out);
  // Older copies and abandoned staging folders (of a tree that changed before they completed) go once the new copy is live.
  for (const name of await readdir(copies))
    if (name !== basename(copy)) await rm(join(copies, name), { recursive: true, force: true });
  return finish(copy);
}

/** A hard link from the previous copy (its files are never written again); false when it cannot be made. */
const linked = (from: string, to: string) =>
  rm(to, { force: true })
    .then(() => link(from, to))
    .then(
      () => true,
      () => false,
    );

/** Where the copy holds the body of each target: the file the route table answers it with. */
function fileOfTarget(table: RouteTable): (target: string) => string {
  const resolver = createResolver(table);
  return (target) => {
    const r = resolver.resolve("GET", target, () => true);
    if (r instanceof Promise || r.kind !== "file" || r.status !== 200 || r.file.includes(".."))
      throw new UserError(`the hash tree lists ${JSON.stringify(target.slice(0, 200))}, which is no body of this API`);
    return r.file;
  };
}

/** The previous copy's tree: its root's shards, and each body's and list's hash by target. */
async function previousTree(
  copy: string,
  rootFile: string,
  fileOf: (target: string) => string,
  basePath: string,
): Promise<{ root: Record<string, Hashed>; bodies: Map<string, string>; lists: Map<string, string> }> {
  const root = readRoot(await readFile(join(copy, rootFile)), "the previous copy's root").shards;
  const bodies = new Map<string, string>();
  const lists = new Map<string, string>();
  for (const name of Object.keys(root)) {
    const shard = readShard(await readFile(join(copy, fileOf(`${basePath}/sync/${name}.json`))), name);
    for (const [target, entry] of shard.bodies) bodies.set(target, entry.sha256);
    for (const [target, entry] of shard.lists) lists.set(target, entry.sha256);
  }
  return { root, bodies, lists };
}

/** Runs `work` over `items` with at most `width` at once; the first failure stops the rest and is thrown. */
async function pool<T>(items: T[], width: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  let failed = false;
  const lane = async () => {
    while (!failed && next < items.length) {
      const item = items[next++]!;
      try {
        await work(item);
      } catch (e) {
        failed = true;
        throw e;
      }
    }
  };
  const lanes = await Promise.allSettled(Array.from({ length: Math.min(width, items.length) }, lane));
  const failure = lanes.find((l) => l.status === "rejected");
  if (failure) throw (failure as PromiseRejectedResult).reason;
}
