// esbuild bundles cached in node_modules/.cache/msapi/, one per entry and options, rebuilt only when a project file
// they were built from changed (compared by content hash, remembered per file: file-hashes.cjs). Plain CommonJS:
// the launcher (launch.cjs) runs it before any TypeScript loader exists.
const { readFileSync, statSync } = require("node:fs");
const { dirname, join, relative, resolve } = require("node:path");
const { pathToFileURL } = require("node:url");
const { hashOfFile, saveFileHashes, sha1 } = require("./file-hashes.cjs");
const { CACHE_DIR, PROJECT_ROOT, writeCacheFile } = require("./project-cache.cjs");

/** Besides the sources: a new esbuild or dependency can change a bundle, and so can this file. */
const ALWAYS = ["package-lock.json", "scripts/launcher/bundle-cache.cjs"];

/** `import.meta.url` as an expression (not quoted): a module's own URL, replaced by its source file's. */
const OWN_URL = /(?<!["'`])\bimport\.meta\.url\b(?!["'`])/g;
/** `__dirname` in a CommonJS file of the project (not quoted, not a property): its own folder, replaced likewise.
 *  (Spelled `_{2}` so that this line, bundled too, does not match itself.) */
const OWN_DIR = /(?<!["'`.\w$])_{2}dirname\b(?!["'`])/g;

const hashOf = (file) => hashOfFile(resolve(PROJECT_ROOT, file));
/** A source of ours, by its path from the project root; one outside it (reached through a symbolic link, as a copy of
 *  the project may link its folders) by its absolute path; a package's file: undefined. */
const projectFile = (path) => {
  if (path.split("/").includes("node_modules")) return undefined;
  const file = relative(PROJECT_ROOT, path);
  return file.startsWith("..") ? path : file;
};

const baseOptions = (entry) => ({
  entryPoints: [join(PROJECT_ROOT, entry)],
  absWorkingDir: PROJECT_ROOT,
  bundle: true,
  format: "esm",
  write: false,
  logLevel: "silent",
  legalComments: "none",
  charset: "utf8",
});

/** Where a bundle of `entry` with `options` lives, and whether it is still what its sources would give. */
function cacheEntry(entry, options) {
  const key = sha1(JSON.stringify({ entry, options, root: PROJECT_ROOT }));
  const extension = options.format === "cjs" ? "cjs" : "mjs";
  const path = join(CACHE_DIR, `${entry.replace(/\W+/g, "-")}-${key.slice(0, 12)}.${extension}`);
  const inputsPath = `${path.slice(0, -4)}.inputs.json`;
  let fresh = false;
  try {
    const inputs = JSON.parse(readFileSync(inputsPath, "utf8"));
    // The bundle itself too: a cache folder cleaned by hand may keep one file of the pair.
    fresh = Object.entries(inputs).every(([file, hash]) => hashOf(file) === hash) && statSync(path).isFile();
    saveFileHashes();
  } catch {
    // no bundle yet, or an unreadable one
  }
  return {
    path,
    fresh,
    /** The inputs last, so a bundle is never trusted before it is complete. */
    store(text, inputs) {
      writeCacheFile(path, text);
      writeCacheFile(inputsPath, JSON.stringify(inputs));
      saveFileHashes();
    },
  };
}

/**
 * CommonJS, loaded with require: a process that loads no ES module never starts Node's ES module loader, whose
 * start-up and reads through the thread pool would slow every cold command. A command's entry therefore has no
 * top-level await (`if (isMain(import.meta.url)) void runCommand(main)`).
 */
const COMMAND_OPTIONS = { platform: "node", target: "node20", packages: "external", format: "cjs" };

/** esbuild's options for the bundle of a command's `entry` (relative to the project root), but the plugin that hashes
 *  what it reads: what test/integration/launcher/command-bundles.test.ts bundles every entry with. */
const commandBundleOptions = (entry) => ({ ...baseOptions(entry), ...COMMAND_OPTIONS });

/** The path of the bundle of `entry` cachedCommandBundle would give, when it is there and up to date; found
 *  synchronously (a thread can then be started at once, before the code that needs it yields). */
function freshCommandBundle(entry) {
  const cache = cacheEntry(entry, COMMAND_OPTIONS);
  return cache.fresh ? cache.path : undefined;
}

/**
 * The path of a bundle of `entry` (relative to the project root), for Node. Each module's `import.meta.url` stays
 * its own source file's URL, so code that finds files beside itself keeps working. Packages are not bundled.
 */
async function cachedCommandBundle(entry) {
  const cache = cacheEntry(entry, COMMAND_OPTIONS);
  if (cache.fresh) return cache.path;
  const esbuild = require("esbuild");
  const inputs = Object.fromEntries(ALWAYS.map((f) => [f, hashOf(f)]));
  const projectFiles = {
    name: "project-files",
    setup(b) {
      // Every project file is hashed exactly as esbuild reads it: an edit during bundling cannot go unnoticed.
      b.onLoad({ filter: /\.([cm]?[jt]s|json)$/ }, (args) => {
        const file = projectFile(args.path);
        if (!file) return undefined;
        const bytes = readFileSync(args.path);
        inputs[file] = sha1(bytes);
        let contents = bytes.toString("utf8").replace(OWN_URL, JSON.stringify(pathToFileURL(args.path).href));
        if (file.endsWith(".cjs")) contents = contents.replace(OWN_DIR, JSON.stringify(dirname(args.path)));
        return { contents, loader: file.endsWith(".json") ? "json" : /\.[cm]?ts$/.test(file) ? "ts" : "js" };
      });
    },
  };
  const result = await esbuild.build({ ...commandBundleOptions(entry), plugins: [projectFiles] });
  // Its service process would otherwise live as long as this one (a server's primary, say), and count in its group.
  await esbuild.stop();
  cache.store(result.outputFiles[0].text, inputs);
  return cache.path;
}

/**
 * cachedCommandBundle's path, or undefined after one line saying that `what` runs through tsx instead, and why: a
 * fallback that says nothing once cost every server process tsx's loader for two rounds.
 */
async function commandBundleOrNote(entry, what) {
  try {
    return await cachedCommandBundle(entry);
  } catch (e) {
    console.error(`note: ${what} through tsx (no bundle: ${String(e?.message ?? e).split("\n")[0]})`);
    return undefined;
  }
}

/**
 * The text of a self-contained bundle of `entry` (packages included) for `platform`, synchronously (esbuild's
 * buildSync, which takes no plugins). `alias`: packages replaced by project files (paths from the project root). An
 * input changed while esbuild ran is caught by its modification time: that bundle is used once, not cached.
 */
function cachedBundleTextSync(entry, { platform, target, alias }) {
  const options = { platform, target, ...(alias ? { alias } : {}) };
  const cache = cacheEntry(entry, options);
  if (cache.fresh) return readFileSync(cache.path, "utf8");
  const started = Date.now();
  const { buildSync } = require("esbuild");
  const result = buildSync({ ...baseOptions(entry), ...options, metafile: true });
  const text = result.outputFiles[0].text;
  const files = [
    ...ALWAYS,
    ...Object.keys(result.metafile.inputs)
      .map((p) => projectFile(join(PROJECT_ROOT, p)))
      .filter(Boolean),
  ];
  const changedMeanwhile = files.some((f) => {
    try {
      return statSync(resolve(PROJECT_ROOT, f)).mtimeMs >= started - 1;
    } catch {
      return true;
    }
  });
  if (!changedMeanwhile) cache.store(text, Object.fromEntries(files.map((f) => [f, hashOf(f)])));
  return text;
}

module.exports = {
  commandBundleOptions,
  freshCommandBundle,
  cachedCommandBundle,
  commandBundleOrNote,
  cachedBundleTextSync,
};
