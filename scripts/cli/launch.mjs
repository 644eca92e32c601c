// node scripts/cli/launch.mjs scripts/build.ts [args…]: runs a command from its cached bundle (bundle-cache.mjs).
// tsx costs about 0.3 s of start-up and a loader round trip per module: most of a one-file incremental build.
// Without a usable bundle (an unwritable node_modules, a syntax error) the command runs through tsx as before.
import { relative, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { cachedCommandBundle } from "./bundle-cache.mjs";
import { PROJECT_ROOT } from "./project-cache.mjs";

const [entry, ...args] = process.argv.slice(2);
if (!entry) {
  console.error("usage: node scripts/cli/launch.mjs <script.ts> [args…]");
  process.exit(2);
}
const source = resolve(entry);
const bundle = await cachedCommandBundle(relative(PROJECT_ROOT, source)).catch((e) => {
  console.error(`note: running ${entry} through tsx (no bundle: ${String(e?.message ?? e).split("\n")[0]})`);
  return undefined;
});
// The command sees itself as the entry point (isMain), with its own arguments.
process.argv = [process.argv[0], source, ...args];
if (bundle) await import(pathToFileURL(bundle).href);
else {
  const { register } = await import("tsx/esm/api");
  register();
  await import(pathToFileURL(source).href);
}
