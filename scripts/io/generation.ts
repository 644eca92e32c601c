// A build's generation from start to publication: the output checked and locked (B1, B4), a dead build's leftovers
// thrown away, the working copy's base chosen and made, the pass that writes it run, and the finished generation
// published in one step (B2); a failed pass leaves the published tree as it was (B3).
// Synchronous file calls, as everywhere on a build's path (small-files.ts says why).
import { mkdirSync, renameSync, rmSync, unlinkSync } from "node:fs";
import { join } from "node:path";
import { acquireLock } from "./lock.ts";
import { MANIFEST_FILE, type Manifest, readFingerprint, readManifest } from "./manifest.ts";
import {
  cloneByLinks,
  inspectOutput,
  listGenerations,
  listLeftovers,
  nextGeneration,
  openStore,
  publish,
  type Store,
  Trash,
  workingName,
} from "./store.ts";

export interface GenerationOptions {
  /** changes of code or options that change output: a different fingerprint forces a full build */
  fingerprint: string;
  /** ignore any manifest and build the whole tree */
  full?: boolean;
  /** the content folder, never to be built over (default: none) */
  contentDir?: string;
  /** wait for another build of the same output (default), or refuse at once */
  wait?: boolean;
  /** one line each: waiting for another build */
  onNotice?: (line: string) => void;
  /** delete replaced folders in a process that may outlive the build (the CLI), instead of waiting for it */
  backgroundCleanup?: boolean;
  /** right after publication, still under the lock: what the build keeps in the store for the next one */
  onPublished?: (storeDir: string, generation: string) => void;
}

/** How the working copy was made: written from nothing, a recycled older generation, or a hard-link clone; and the
 *  manifest of the tree it holds, when it holds one. */
export interface Base {
  kind: "fresh" | "recycled" | "cloned";
  manifest?: Manifest;
  /** the generation the working copy was made from */
  name?: string;
  /** the generation published when the build started, when it is a build of the same code and options */
  live?: { name: string; dir: string };
}

/** Makes a working copy, lets `write` fill it, and publishes it as the next generation; returns what `write` did. */
export async function writeGeneration<Summary>(
  outDir: string,
  options: GenerationOptions,
  write: (work: string, base: Base, trash: Trash) => Promise<Summary>,
): Promise<Summary & { generation: string }> {
  const contentDir = options.contentDir ?? `${outDir}.no-content`;
  // Checked before the lock (a refused output gets no store) and again under it, where nothing changes it.
  const unlocked = await inspectOutput(outDir, contentDir);
  openStore(unlocked);
  const release = await acquireLock(unlocked.dir, {
    wait: options.wait ?? true,
    onWait: options.onNotice,
    outName: outDir,
  });
  const trash = new Trash(unlocked, options.backgroundCleanup ?? false);
  const work = join(unlocked.dir, workingName());
  try {
    const store = await inspectOutput(outDir, contentDir);
    // Under the lock, every working folder, trash folder or link in the store is a dead build's.
    for (const name of listLeftovers(store)) await trash.discard(join(store.dir, name));
    let summary: Summary;
    let generation: string;
    try {
      const base = await prepareWorkingCopy(store, work, options, trash);
      summary = await write(work, base, trash);
      generation = nextGeneration(store);
      renameSync(work, join(store.dir, generation));
    } catch (e) {
      // Nothing was published: the working copy goes, the published tree was never touched.
      rmSync(work, { recursive: true, force: true });
      throw e;
    }
    publish(store, generation);
    options.onPublished?.(store.dir, generation);
    return { ...summary, generation };
  } finally {
    await trash.empty();
    release();
  }
}

/**
 * Chooses the base and makes the working folder: the newest unpublished generation built by the same code is
 * recycled; else the published one is cloned by hard links; else (none, another fingerprint, --full) nothing.
 * Generations neither published nor recycled are thrown away: readers have had a whole build to finish on them.
 */
async function prepareWorkingCopy(store: Store, work: string, options: GenerationOptions, trash: Trash): Promise<Base> {
  const generations = listGenerations(store);
  const publishedDir = store.published && generations.includes(store.published) && join(store.dir, store.published);
  const usable = (fingerprint: string | undefined) => !options.full && fingerprint === options.fingerprint;
  const publishedUsable = publishedDir ? usable(readFingerprint(publishedDir)) : false;
  const live = publishedDir && publishedUsable ? { name: store.published!, dir: publishedDir } : undefined;
  let base: Base = { kind: "fresh" };
  for (const name of generations) {
    if (name === store.published) continue;
    const path = join(store.dir, name);
    const manifest = base.kind === "fresh" && publishedUsable ? readManifest(path) : undefined;
    if (manifest && usable(manifest.fingerprint)) {
      renameSync(path, work);
      // Without a manifest a working copy is never a base: a build killed half-way is not trusted.
      unlinkSync(join(work, MANIFEST_FILE));
      base = { kind: "recycled", manifest, name, live };
    } else await trash.discard(path);
  }
  if (base.kind === "recycled") return base;
  const published = publishedDir && publishedUsable ? readManifest(publishedDir) : undefined;
  if (publishedDir && published && usable(published.fingerprint)) {
    await cloneByLinks(publishedDir, work);
    unlinkSync(join(work, MANIFEST_FILE));
    return { kind: "cloned", manifest: published, name: store.published, live };
  }
  mkdirSync(work);
  return base;
}
