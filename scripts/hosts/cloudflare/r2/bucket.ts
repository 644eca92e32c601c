// Reading a bucket's builds (the live pointer, records, shards, pack indexes), switching the live pointer in one
// conditional put and reporting what the bucket then says, the list of builds, and rollback.
import { UserError } from "../../../cli/command.ts";
import {
  BUILDS_PREFIX,
  type BuildRecord,
  buildOfRecordKey,
  buildRecordKey,
  LAYOUT_FORMAT,
  LIVE_KEY,
  type LivePointer,
  type ManifestShard,
  PACK_TRAILER,
  PACKS_PREFIX,
  type PackIndex,
  packKey,
  shardKey,
  storedId,
} from "../worker/r2-layout.ts";
import { indexLength } from "./packs.ts";
import { decodeShard } from "./shards.ts";
import { pool, type UploadTarget } from "./target.ts";

export async function readLive(target: UploadTarget): Promise<{ pointer: LivePointer; etag: string } | null> {
  const live = await target.read(LIVE_KEY);
  return live && { pointer: JSON.parse(live.text) as LivePointer, etag: live.etag };
}

/** A pointer or record this code's layout wrote (LAYOUT_FORMAT). */
export const sameLayout = (written: { format?: number }) => written.format === LAYOUT_FORMAT;

export async function readRecord(target: UploadTarget, id: string): Promise<BuildRecord | null> {
  const record = await target.read(buildRecordKey(id));
  return record && (JSON.parse(record.text) as BuildRecord);
}

export async function readShard(target: UploadTarget, name: string): Promise<ManifestShard> {
  const bytes = await target.readBytes(shardKey(name));
  if (!bytes) throw new UserError(`the bucket lacks ${shardKey(name)}, which a complete build names`);
  return decodeShard(bytes);
}

/** A pack's index, read back from its end (two ranged reads). */
export async function readPackIndex(target: UploadTarget, name: string): Promise<PackIndex | null> {
  const trailer = await target.readBytes(packKey(name), { suffix: PACK_TRAILER });
  if (!trailer) return null;
  const length = indexLength(trailer);
  const index = await target.readBytes(packKey(name), { suffix: PACK_TRAILER + length });
  return index && (JSON.parse(new TextDecoder().decode(index.subarray(0, length))) as PackIndex);
}

/** Every stored body in the bucket's packs, by storedId (each pack's index read back): for tests and the benchmark. */
export async function bodiesInBucket(target: UploadTarget): Promise<Set<string>> {
  const bodies = new Set<string>();
  await pool(await target.list(PACKS_PREFIX), 8, async ({ key }) => {
    for (const [etag, , , , coding] of (await readPackIndex(target, key.slice(PACKS_PREFIX.length))) ?? [])
      bodies.add(storedId(etag, coding));
  });
  return bodies;
}

/** Points the live pointer at a complete build, in one conditional put over the pointer read just before. */
export async function switchTo(
  target: UploadTarget,
  record: BuildRecord,
  { sameBuild = false } = {},
): Promise<{ switched: boolean; previous: string | null }> {
  const live = await readLive(target);
  const shards = record.shards.map(([first, name]) => [first, name] as [string, string]);
  // The same build in another layout (uploaded again with this code) is switched to all the same.
  if (
    live?.pointer.build === record.id &&
    live.pointer.format === record.format &&
    (!sameBuild || JSON.stringify(live.pointer.shards) === JSON.stringify(shards))
  )
    return { switched: false, previous: live.pointer.previous };
  // The format of the build it names (prune gives a kept build of an older layout a new manifest of its own format).
  const pointer: LivePointer = {
    ...(record.format === undefined ? {} : { format: record.format }),
    build: record.id,
    shards,
    // a new manifest of the same build (prune's repacking) keeps the pointer's history
    previous: live?.pointer.build === record.id ? live.pointer.previous : (live?.pointer.build ?? null),
    switchedAt: new Date().toISOString(),
  };
  let done: boolean;
  try {
    done = await target.putIf(LIVE_KEY, JSON.stringify(pointer), live?.etag ?? null);
  } catch (e) {
    done = await switchOutcome(target, pointer, e as Error);
  }
  if (!done)
    throw new UserError(
      "another upload or rollback switched the live build meanwhile: nothing was switched; run it again",
    );
  return { switched: true, previous: pointer.previous };
}

/** After a switch that failed without an answer to trust (the retries spent, the last answer lost): what the bucket
 *  says. Our pointer there: switched. Another: a one-line error saying the build is not live. Unreadable: a one-line
 *  error saying the outcome is unknown. */
async function switchOutcome(target: UploadTarget, pointer: LivePointer, error: Error): Promise<true> {
  const cause = error.message.split("\n")[0];
  let now: Awaited<ReturnType<typeof readLive>>;
  try {
    now = await readLive(target);
  } catch (e) {
    throw new UserError(
      `${cause}; live.json could not be read back either (${(e as Error).message.split("\n")[0]}): whether build ` +
        `${pointer.build} is live is unknown (--list says which build is)`,
    );
  }
  if (now?.pointer.build === pointer.build && now.pointer.switchedAt === pointer.switchedAt) return true;
  throw new UserError(
    `${cause}; live.json names ${now ? `build ${now.pointer.build}` : "no build"}: build ${pointer.build} is not live`,
  );
}

export interface BuildListing extends BuildRecord {
  live: boolean;
}

/** Every complete build in the bucket, newest first. */
export async function listBuilds(target: UploadTarget): Promise<BuildListing[]> {
  const live = await readLive(target);
  const ids = (await target.list(BUILDS_PREFIX))
    .map((o) => buildOfRecordKey(o.key))
    .filter((id): id is string => id !== null);
  const records = await Promise.all(ids.map((id) => readRecord(target, id)));
  return records
    .filter((r): r is BuildRecord => r !== null)
    .map((r) => ({ ...r, live: r.id === live?.pointer.build }))
    .sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : a.id < b.id ? -1 : 1));
}

/** Switches back to `id`, or without one to the build live before the current one. */
export async function rollback(target: UploadTarget, id?: string): Promise<{ build: string; previous: string }> {
  const live = await readLive(target);
  if (!live) throw new UserError("no build is live in this bucket: nothing to roll back");
  const to = id ?? live.pointer.previous;
  if (!to)
    throw new UserError(`build ${live.pointer.build} is the only one ever live here: name a build (--list shows them)`);
  const record = await readRecord(target, to);
  if (!record) throw new UserError(`no complete build ${to} in this bucket (--list shows them)`);
  if (to === live.pointer.build) throw new UserError(`build ${to} is live already`);
  if (!sameLayout(record))
    throw new UserError(
      `build ${to} was uploaded in an older layout of the bucket, which this Worker does not read: upload its dist/ again instead`,
    );
  await switchTo(target, record);
  return { build: to, previous: live.pointer.build };
}
