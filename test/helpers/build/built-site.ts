// A build of a catalog in a temporary folder, for the tests that need a build to work on (serve it, upload it, read
// its files) rather than test the build itself: one per test file, made before its tests and removed after them.
import { cp, realpath } from "node:fs/promises";
import { isAbsolute, join } from "node:path";
import { afterAll, beforeAll } from "vitest";
import type { BuildLayout } from "../../../scripts/api/runtime/build-index.ts";
import { type BuildResult, build } from "../../../scripts/build.ts";
import { fixture, sampleContent, tempDir } from "../fs/dirs.ts";

export interface SiteOptions {
  /** what to build: a fixture of test/fixtures by name ("tiny", the default), "sample" (content/), or a folder's path */
  content?: string;
  /** copy the content into the site's folder first (`content`), for a test that edits it and builds again */
  copyContent?: boolean;
  /** the build's --compress (precompressed siblings) */
  compress?: boolean;
  /** the build's --layout: "pages" (the default, a file per list page) or "runs" (each list once) */
  layout?: BuildLayout;
  /** the temporary folder's prefix, to tell a test's leftovers apart */
  prefix?: string;
}

export interface BuiltSite {
  /** the temporary folder holding it all; a test's own files (copies, buckets) go here too */
  dir: string;
  /** the content that was built: the fixture itself, or its copy `dir/content` with `copyContent` */
  content: string;
  /** the published output, `dir/dist`: a link to its generation, as a build publishes it */
  dist: string;
  /** the generation `dist` points at: the real folder of the build's files */
  root: string;
  /** what the build reported */
  result: BuildResult;
  /** removes `dir` and everything in it */
  remove(): Promise<void>;
}

/** The sample catalog's 23,000 files take a while to build, and to remove, on a machine busy with other tests. */
const HOOK_TIMEOUT = 300_000;

/** The folder `content` names: a fixture's name, "sample" for the sample catalog, or a path as it is. */
export function contentFolder(content = "tiny"): string {
  if (content === "sample") return sampleContent;
  return isAbsolute(content) ? content : fixture(content);
}

/** Builds the site now; the caller removes it. */
export async function buildSite(options: SiteOptions = {}): Promise<BuiltSite> {
  const dir = await tempDir(options.prefix ?? "msapi-site-");
  try {
    let content = contentFolder(options.content);
    if (options.copyContent) {
      await cp(content, join(dir.path, "content"), { recursive: true });
      content = join(dir.path, "content");
    }
    const dist = join(dir.path, "dist");
    const result = await build({
      contentDir: content,
      outDir: dist,
      compress: options.compress,
      layout: options.layout,
    });
    return { dir: dir.path, content, dist, root: await realpath(dist), result, remove: dir.remove };
  } catch (e) {
    await dir.remove();
    throw e;
  }
}

/**
 * The site of a test file (or of a describe block): built in a beforeAll hook, removed in an afterAll hook. Call it
 * before the hooks that use it (a server started on it): beforeAll hooks run in the order written, afterAll hooks in
 * the reverse. Its fields are read inside a hook or a test; read before the build, they throw.
 */
export function builtSite(options: SiteOptions = {}): BuiltSite {
  let site: BuiltSite | undefined;
  beforeAll(async () => {
    site = await buildSite(options);
  }, HOOK_TIMEOUT);
  afterAll(() => site?.remove(), HOOK_TIMEOUT);
  const built = (): BuiltSite => {
    if (!site) throw new Error("builtSite(): the site is built in a beforeAll hook; read it in a hook or a test");
    return site;
  };
  return {
    get dir() {
      return built().dir;
    },
    get content() {
      return built().content;
    },
    get dist() {
      return built().dist;
    },
    get root() {
      return built().root;
    },
    get result() {
      return built().result;
    },
    remove: () => built().remove(),
  };
}
