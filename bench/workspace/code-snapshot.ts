// The code a bench run builds with, copied when the run starts. An edit under scripts/ during a run (an editor's
// save, another person in the same checkout) changes the build's code fingerprint, and a rebuild after it is a full
// build of other code: the run would measure two codes at once. The copy is what the whole run measures.
import { cp, mkdir, readdir, rm, symlink } from "node:fs/promises";
import { join } from "node:path";

/** What a build reads of the project: its code and schemas, and the files its code fingerprint hashes. */
const COPIED = ["scripts", "schemas", "package.json", "package-lock.json", "tsconfig.json"];

/** Copies the project's build code from `root` into `into` (replacing what is there) and returns `into`. */
export async function snapshotCode(root: string, into: string): Promise<string> {
  await rm(into, { recursive: true, force: true });
  await mkdir(join(into, "node_modules"), { recursive: true });
  for (const name of COPIED) await cp(join(root, name), join(into, name), { recursive: true });
  // The packages linked one by one, so the copy's cache (bundles, validators, file hashes) is its own.
  for (const entry of await readdir(join(root, "node_modules")))
    if (entry !== ".cache") await symlink(join(root, "node_modules", entry), join(into, "node_modules", entry));
  return into;
}
