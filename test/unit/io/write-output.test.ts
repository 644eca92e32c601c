import { lstat, mkdir, readdir, readFile, readlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type SiteOutput, writeOutput } from "../../../scripts/io/write-output.ts";
import { listRunFiles } from "../../../scripts/render/list-runs.ts";
import { cutPieces, LIST_PIECES, piecesOf } from "../../../scripts/render/pieces.ts";
import { tempDir } from "../../helpers/fs/dirs.ts";
import { hashTree } from "../../helpers/fs/tree.ts";

const site = (
  files: SiteOutput["files"],
  items = ['{"a":1}', '{"b":2}'],
  groups: SiteOutput["groups"] = [],
): SiteOutput => ({
  // the list's run and offsets (runs/), as every build writes them
  files: [...files, ...listRunFiles([{ filter: "all", category: null, items }], () => items.join("\n"))],
  groups,
  lists: [{ filter: "all", category: null, items }],
  pageTemplate: "pages/{filter}/{limit}/{offset}.json",
  bodyDir: "pages/",
  maxLimit: 2,
  hashTree: {
    basePath: "/pages",
    rootFile: "pages/sync/index.json",
    shardFile: "pages/sync/{shard}",
    pieceFile: "pages/sync/pieces/{piece}",
  },
  // one piece a list here (a list this short is never cut); no piece file: the writer's passes are what is tested
  pieces: { lists: [piecesOf(items, cutPieces(items, LIST_PIECES))], bodies: [], files: () => [] },
});
const options = { fingerprint: "test", compress: false };
/** A previous build of the old design: a real folder with a manifest, migrated into the store. */
const legacyBuild = async (dist: string) => {
  await mkdir(join(dist, "old"), { recursive: true });
  await writeFile(join(dist, "old/file.json"), "previous build");
  await writeFile(join(dist, ".build-manifest.json"), '{"format":1}');
};

describe("writeOutput: the one writer of dist/", () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let dist: string;
  beforeEach(async () => {
    dir = await tempDir();
    dist = join(dir.path, "dist");
  });
  afterEach(() => dir.remove());

  it("checks each body it writes (a failed check publishes nothing), and only those: an unchanged body was checked when written", async () => {
    const checked: string[] = [];
    const file = (path: string, body: string, valid = true) => ({
      path,
      body,
      check: () => {
        checked.push(path);
        if (!valid) throw new Error(`built ${path} breaks its schema`);
      },
    });
    await writeOutput(dist, site([file("a.json", "{}"), file("b.json", "{}")]), options);
    expect(checked.sort()).toEqual(["a.json", "b.json"]);
    checked.length = 0;
    await writeOutput(dist, site([file("a.json", "{}"), file("b.json", '{"b":1}')]), options);
    expect(checked).toEqual(["b.json"]);
    const published = await readlink(dist);
    await expect(
      writeOutput(dist, site([file("a.json", '{"a":1}', false), file("b.json", '{"b":1}')]), options),
    ).rejects.toThrow(/a\.json breaks its schema/);
    expect(await readlink(dist)).toBe(published);
    expect(await readFile(join(dist, "a.json"), "utf8")).toBe("{}");
  });

  it("keeps a keyed file whose key is the one it wrote there without rendering it; a new key renders it, and writes only new bytes", async () => {
    const rendered: string[] = [];
    // Rendered on first read, as lazyJsonFile does.
    const keyed = (path: string, key: string, text: string) => {
      let body: string | undefined;
      return {
        path,
        key,
        get body() {
          if (body === undefined) rendered.push(`${path} ${key}`);
          return (body ??= text);
        },
      };
    };
    const build = (key: string, text: string) => writeOutput(dist, site([keyed("k.json", key, text)]), options);
    // k.json, the list's run and offsets, 6 pages, and the hash tree (the list's shard and the root)
    expect(await build("k1", "one")).toMatchObject({ written: 1 + 2 + 6 + 2 });
    // Each build brings the generation before the published one up to date: a new key is rendered by two builds.
    expect(await build("k1", "one")).toMatchObject({ written: 0 });
    expect(await build("k2", "one")).toMatchObject({ written: 0 });
    expect(await build("k2", "one")).toMatchObject({ written: 0 });
    expect(await build("k3", "three")).toMatchObject({ written: 1 });
    expect(await build("k3", "three")).toMatchObject({ written: 1 });
    expect(await build("k3", "three")).toMatchObject({ written: 0 });
    expect(rendered).toEqual(["k.json k1", "k.json k2", "k.json k2", "k.json k3", "k.json k3"]);
    expect(await readFile(join(dist, "k.json"), "utf8")).toBe("three");
  });

  it("counts what it renders and hashes, each body once (no page: the hash tree names none), none for a kept body", async () => {
    const files = () => [
      { path: "a.json", body: '{"a":1}' },
      { path: "k.json", body: '{"k":1}', key: "k1" },
    ];
    const full = await writeOutput(dist, site(files()), options);
    // every file made once, and hashed once but the 6 pages
    expect(full).toMatchObject({ rendered: full.files, renderedBytes: full.bytes, hashed: full.files - 6 });
    expect(full.hashedBytes).toBeLessThan(full.bytes);
    await writeOutput(dist, site(files()), options);
    // nothing changed: the unkeyed body and the hash tree's root are made and hashed again, the keyed body, the
    // unchanged list's pages and its shard are not; the next build counts the same
    const same = await writeOutput(dist, site(files()), options);
    expect(same).toMatchObject({ written: 0, rendered: 2, hashed: 2, hashedBytes: same.renderedBytes });
    const root = await readFile(join(dist, "pages/sync/index.json"));
    expect(same.renderedBytes).toBe(7 + root.byteLength);
    const again = await writeOutput(dist, site(files()), options);
    expect(again).toMatchObject({ rendered: 2, renderedBytes: same.renderedBytes, hashedBytes: same.hashedBytes });
  });

  it("keeps a group whose key the build before wrote its files under, without making or listing them; a new key makes them", async () => {
    const made: string[] = [];
    const group = (key: string, names: string[]) => ({
      key,
      targetOf: (path: string) => `/${path.slice(0, -".json".length)}`,
      files: function* () {
        made.push(key);
        for (const name of names) yield { path: `g/${name}.json`, key, body: `${key} ${name}`, target: `/g/${name}` };
      },
    });
    const build = (key: string, names: string[]) =>
      writeOutput(dist, site([], undefined, [group(key, names)]), options);
    const files = async () => (await readdir(join(dist, "g"))).sort();
    const hashTreeFiles = async () => [...(await hashTree(dist))].filter(([path]) => path.startsWith("pages/sync/"));
    // two group files, the list's run and offsets, 6 pages, the hash tree (the list's shard, the one of other bodies
    // and the root)
    expect(await build("g1", ["a", "b"])).toMatchObject({ written: 2 + 2 + 6 + 3 });
    expect(await readFile(join(dist, "pages/sync/catalog.json"), "utf8")).toContain('"/g/a":');
    const hashTreeAfterFirst = await hashTreeFiles();
    expect(await build("g1", ["a", "b"])).toMatchObject({ written: 0 });
    expect(await build("g1", ["a", "b"])).toMatchObject({ written: 0 });
    expect(made).toEqual(["g1"]);
    // Kept files keep their targets in the hash tree.
    expect(await hashTreeFiles()).toEqual(hashTreeAfterFirst);
    // Other inputs: other files, made, and those gone removed. Each build brings the generation before the published
    // one up to date: a new key is made by two builds.
    expect(await build("g2", ["a", "c"])).toMatchObject({ deleted: 1 });
    expect(await files()).toEqual(["a.json", "c.json"]);
    expect(await readFile(join(dist, "g/c.json"), "utf8")).toBe("g2 c");
    expect(await build("g2", ["a", "c"])).toMatchObject({ deleted: 1 });
    expect(await build("g2", ["a", "c"])).toMatchObject({ written: 0, deleted: 0 });
    expect(made).toEqual(["g1", "g2", "g2"]);
    expect(await files()).toEqual(["a.json", "c.json"]);
  });

  it("checks the lists whose pages it writes, naming the items that changed or are new; an unchanged list is not checked again", async () => {
    const calls: [number, "all" | number[]][] = [];
    const withChecks = (items: string[]) => ({
      ...site([], items),
      checkList: (list: number, changed: "all" | number[]) => void calls.push([list, changed]),
    });
    await writeOutput(dist, withChecks(['{"a":1}', '{"b":2}']), options);
    // A build brings the generation before the published one up to date: the same change once more, then nothing.
    await writeOutput(dist, withChecks(['{"a":1}', '{"b":3}']), options);
    await writeOutput(dist, withChecks(['{"a":1}', '{"b":3}']), options);
    await writeOutput(dist, withChecks(['{"a":1}', '{"b":3}']), options);
    // Longer by one: the list is written whole, and only the item no list of the build before held is checked.
    await writeOutput(dist, withChecks(['{"a":1}', '{"c":4}', '{"b":3}']), options);
    await writeOutput(dist, withChecks(['{"a":1}', '{"c":4}', '{"b":3}']), options);
    expect(calls).toEqual([
      [0, "all"],
      [0, [1]],
      [0, [1]],
      [0, [1]],
      [0, [1]],
    ]);
  });

  it("a full build replaces the previous tree whole: old files are gone, every page is there", async () => {
    await legacyBuild(dist);
    const summary = await writeOutput(dist, site([{ path: "a/b.json", body: "{}" }]), options);
    // a/b.json, the list's run and offsets, 6 pages, and the hash tree (the list's shard and the root)
    expect(summary).toMatchObject({ mode: "full", files: 1 + 2 + 2 * 3 + 2, written: 1 + 2 + 2 * 3 + 2, deleted: 0 });
    const tree = await hashTree(dist);
    expect([...tree.keys()].filter((p) => !p.startsWith("."))).toEqual([
      "a/b.json",
      "build-index.json",
      "pages/all/1/0.json",
      "pages/all/1/1.json",
      "pages/all/1/2.json",
      "pages/all/2/0.json",
      "pages/all/2/1.json",
      "pages/all/2/2.json",
      "pages/sync/index.json",
      "pages/sync/list.json",
      "runs/all.offsets",
      "runs/all.run",
    ]);
    expect((await lstat(dist)).isSymbolicLink()).toBe(true);
    expect(await readlink(dist)).toBe("dist.builds/g000001");
    expect((await readdir(dir.path)).sort()).toEqual(["dist", "dist.builds"]); // nothing else beside it
    // the legacy tree is kept as the previous generation, removed by the next build
    expect((await readdir(join(dir.path, "dist.builds"))).sort()).toEqual([".msapi-builds", "g000001", "g000002"]);
    await writeOutput(dist, site([{ path: "a/b.json", body: "{}" }]), options);
    // and what this build changed against the build it replaced, for the next one (io/tree-report.ts)
    expect((await readdir(join(dir.path, "dist.builds"))).sort()).toEqual([
      ".build-changes.json",
      ".msapi-builds",
      "g000001",
      "g000003",
    ]);
  });

  it("a page is its items between the envelope, with meta for its slice", async () => {
    await writeOutput(dist, site([]), options);
    expect(await readFile(join(dist, "pages/all/2/1.json"), "utf8")).toBe(
      '{"data":[{"b":2}],"meta":{"total":2,"limit":2,"offset":1,"category":null}}',
    );
    expect(await readFile(join(dist, "pages/all/1/2.json"), "utf8")).toBe(
      '{"data":[],"meta":{"total":2,"limit":1,"offset":2,"category":null}}',
    );
  });

  it("a failure while writing leaves the previous tree byte-identical and no temporary folder", async () => {
    await writeOutput(dist, site([{ path: "old/file.json", body: "previous build" }]), options);
    const before = await hashTree(dist);
    const twice = site([
      { path: "x.json", body: "1" },
      { path: "x.json", body: "2" },
    ]);
    await expect(writeOutput(dist, twice, options)).rejects.toThrow("two outputs write x.json");
    expect(await hashTree(dist)).toEqual(before);
    expect((await readdir(dir.path)).sort()).toEqual(["dist", "dist.builds"]);
    expect((await readdir(join(dir.path, "dist.builds"))).sort()).toEqual([".msapi-builds", "g000001"]);
  });
});
