// Keeps a local copy of a deployed API in step with it through its hash tree (E2, E3): the root with If-None-Match,
// then only the shards and bodies whose SHA-256 changed, each verified, written into a staging folder that becomes
// the copy in one step (a link switched by rename). A killed or failed run leaves the previous copy whole, and the
// next run keeps what the staging folder already holds.
import { link, lstat, mkdir, readdir, readFile, readlink, rename, rm, symlink, writeFile } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { sha256Hex } from "../api/sha256-node.ts";
import { UserError } from "../cli/command.ts";
import { DEFAULT_FETCH, type FetchOptions, politeFetcher } from "./fetch-retry.ts";

interface Hashed {
  sha256: string;
  size: number;
}
type Listing = Record<string, Hashed>;

/** What a copy remembers of where it came from. */
interface CopyState {
  from: string;
  rootEtag: string | null;
  rootSha256: string;
  targets: number;
  /** "portable": its file names are portableName's; absent in a copy made before, whose names hold the query as sent */
  names?: "portable";
}

export interface MirrorResult {
  /** false: the root answered 304, nothing changed */
  changed: boolean;
  copy: string;
  targets: number;
  requests: number;
  retries: number;
  shardsFetched: number;
  bodiesFetched: number;
  /** root and fetched shards */
  indexBytes: number;
  bodyBytes: number;
  seconds: number;
}

const STATE_FILE = ".mirror.json";

/**
 * Characters a file name cannot hold on some system a copy may be moved to: Windows refuses `<>:"\|?*` and control
 * characters (and so do zip tools and git on Windows). Each is written as `%` and two hex digits, as in a URL, and so
 * is `%` itself, so the name reads back to exactly one target.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are among those Windows refuses
const NOT_PORTABLE = /[%<>:"\\|?*\u0000-\u001f\u007f]/g;

/** `v1/software?limit=20&offset=40.json` → `v1/software%3Flimit=20&offset=40.json`; `/` stays the folder separator. */
export const portableName = (path: string): string =>
  path.replace(NOT_PORTABLE, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, "0")}`);

/** The name portableName made, read back: `%3F` → `?`. */
export const targetOfPortableName = (name: string): string =>
  name.replace(/%([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));

/** The file of a target in a copy: its path without the leading slash, `.json` added when it has none, made portable. */
export function fileOfTarget(basePath: string, target: string): string {
  const segments = target.slice(1).split("/");
  const safe =
    target.startsWith(`${basePath}/`) &&
    !/[\\\0]/.test(target) &&
    segments.every((s) => s !== "" && s !== "." && s !== "..");
  if (!safe)
    throw new UserError(
      `the hash tree lists ${JSON.stringify(target.slice(0, 200))}, which is no target below ${basePath}`,
    );
  const path = target.slice(1);
  return portableName(path.endsWith(".json") ? path : `${path}.json`);
}

/**
 * A copy made before portable names, renamed in place: each file whose name holds a character portableName writes
 * otherwise gets that name (in the live copy and in any staging folder of an unfinished run), then the copy's state
 * says so. A rename that was already done is not redone, so a run killed meanwhile is finished by the next.
 */
async function renameToPortable(copies: string, copy: string): Promise<void> {
  // A target as sent carries no control character (a URL escapes them): only these could be in a name.
  const LEGACY = /[<>:"\\|?*]/;
  const staging = (await readdir(copies)).filter((name) => name.startsWith(".staging-"));
  for (const folder of [copy, ...staging.map((name) => join(copies, name))]) {
    for (const entry of await readdir(folder, { recursive: true, withFileTypes: true })) {
      if (!entry.isFile() || !LEGACY.test(entry.name)) continue;
      await rename(join(entry.parentPath, entry.name), join(entry.parentPath, portableName(entry.name)));
    }
  }
  const state = await readState(copy);
  if (state) await writeFile(join(copy, STATE_FILE), `${JSON.stringify({ ...state, names: "portable" })}\n`);
}

function parseListing(bytes: Uint8Array, what: string): Listing {
  try {
    const body = JSON.parse(new TextDecoder().decode(bytes)) as { data?: unknown };
    if (body.data && typeof body.data === "object") return body.data as Listing;
  } catch {}
  throw new UserError(`${what} is not a hash tree listing ({ "data": { name: { sha256, size } } })`);
}

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
  const previous = await currentCopy(out);
  if (previous && (await readState(previous))?.names !== "portable") await renameToPortable(copies, previous);
  const previousState = previous ? await readState(previous) : undefined;
  const result = {
    changed: true,
    targets: 0,
    shardsFetched: 0,
    bodiesFetched: 0,
    indexBytes: 0,
    bodyBytes: 0,
  };
  const finish = (copy: string): MirrorResult => ({
    ...result,
    copy,
    ...fetcher.stats(),
    seconds: (performance.now() - started) / 1000,
  });

  const rootTarget = `${basePath}/sync/index.json`;
  const rootUrl = new URL(rootTarget, baseUrl).href;
  const etag = previousState?.from === baseUrl.href ? previousState.rootEtag : null;
  const root = await fetcher.get(rootUrl, etag ? { "if-none-match": etag } : {});
  if (root.status === 304 && previous) {
    result.changed = false;
    result.targets = previousState!.targets;
    return finish(previous);
  }
  if (root.status !== 200)
    throw new UserError(`GET ${rootUrl} answered ${root.status}: is ${from} this API's base address?`);
  result.indexBytes += root.body.byteLength;
  const rootSha = sha256Hex(root.body);
  const shards = parseListing(root.body, rootUrl);
  const staging = join(copies, `.staging-${rootSha.slice(0, 16)}`);
  await mkdir(staging, { recursive: true });

  /**
   * Puts one listed file into the staging folder: kept when it is there already (a resumed run), linked from the
   * previous copy when its hash tree lists the same hash, else fetched and verified. Nothing is read to be hashed
   * again: a staging folder is one tree's (named by its root's hash), and a file gets its name there only once its
   * bytes were verified or linked from a copy whose tree listed the same hash.
   */
  async function place(target: string, want: Hashed, before: string | undefined, kind: "shard" | "body") {
    const file = fileOfTarget(basePath, target);
    const path = join(staging, file);
    if (await isFile(path)) return;
    await mkdir(dirname(path), { recursive: true });
    if (before === want.sha256 && previous) {
      await rm(path, { force: true });
      if (
        await link(join(previous, file), path).then(
          () => true,
          () => false,
        )
      )
        return;
    }
    const url = new URL(target, baseUrl).href;
    const got = await fetcher.get(url);
    if (got.status !== 200) throw new UserError(`GET ${url} answered ${got.status}; the previous copy is kept`);
    if (sha256Hex(got.body) !== want.sha256 || got.body.byteLength !== want.size)
      throw new UserError(
        `GET ${url}: the body is not the one the hash tree lists (changed since, or corrupted on the way); the previous copy is kept`,
      );
    await writeFile(`${path}.part`, got.body);
    await rename(`${path}.part`, path);
    if (kind === "shard") {
      result.shardsFetched++;
      result.indexBytes += got.body.byteLength;
    } else {
      result.bodiesFetched++;
      result.bodyBytes += got.body.byteLength;
    }
  }

  const previousShards: Listing = previous
    ? parseListing(await readFile(join(previous, fileOfTarget(basePath, rootTarget))), "the previous copy's root")
    : {};
  const shardTarget = (name: string) => `${basePath}/sync/${name}.json`;
  await pool(Object.entries(shards), 16, ([name, want]) =>
    place(shardTarget(name), want, previousShards[name]?.sha256, "shard"),
  );

  // Every body, from the shards now staged; the previous copy's hashes from its own shards.
  const previousTargets = new Map<string, string>();
  if (previous)
    for (const name of Object.keys(previousShards)) {
      const listing = parseListing(await readFile(join(previous, fileOfTarget(basePath, shardTarget(name)))), name);
      for (const [target, hashed] of Object.entries(listing)) previousTargets.set(target, hashed.sha256);
    }
  const bodies: [string, Hashed][] = [];
  for (const name of Object.keys(shards)) {
    const listing = parseListing(await readFile(join(staging, fileOfTarget(basePath, shardTarget(name)))), name);
    bodies.push(...Object.entries(listing));
  }
  result.targets = bodies.length;
  let done = 0;
  await pool(bodies, 32, async ([target, want]) => {
    await place(target, want, previousTargets.get(target), "body");
    if (++done % 1000 === 0) options.onProgress?.(done, bodies.length);
  });

  // The root last: a staging folder with its root and state is complete.
  await writeFile(join(staging, fileOfTarget(basePath, rootTarget)), root.body);
  const state: CopyState = {
    from: baseUrl.href,
    rootEtag: root.headers.get("etag"),
    rootSha256: rootSha,
    targets: bodies.length,
    names: "portable",
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
