// node scripts/launcher/launch.cjs scripts/build.ts [args…]: runs a command from its cached bundle (bundle-cache.cjs).
// tsx costs start-up and a loader round trip per module: most of a one-file incremental build.
// CommonJS, as the bundles are: a process that loads no ES module never starts Node's ES module loader (its start-up
// and its reads through the thread pool would slow every cold command).
// Without a usable bundle (an unwritable node_modules, a syntax error) the command runs through tsx as before.
const { relative, resolve } = require("node:path");
const { pathToFileURL } = require("node:url");
const { commandBundleOrNote, freshCommandBundle } = require("./bundle-cache.cjs");
const { PROJECT_ROOT } = require("./project-cache.cjs");

const [entry, ...args] = process.argv.slice(2);
if (!entry) {
  console.error("usage: node scripts/launcher/launch.cjs <script.ts> [args…]");
  process.exit(2);
}
const source = resolve(entry);
const project = relative(PROJECT_ROOT, source);

/** Runs the command as its own entry point (isMain), with its own arguments. */
async function run(bundle) {
  process.argv = [process.argv[0], source, ...args];
  if (bundle) return void require(bundle);
  const { register } = await import("tsx/esm/api");
  register();
  await import(pathToFileURL(source).href);
}

// A fresh bundle is found without a promise: the command starts in this very turn of the event loop.
const fresh = freshCommandBundle(project);
if (fresh) run(fresh);
else commandBundleOrNote(project, `running ${entry}`).then(run);
