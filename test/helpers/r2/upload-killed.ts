// An upload of `dist` to the local R2 at `persist` (the real uploadToR2, over the uploader Worker in workerd) that
// SIGKILLs its own process group, workerd included, at a chosen instant, as a crash or an out-of-memory kill would:
//   bodies=N  once the bucket's packs hold N bodies (counted when a put of a pack returns; more may be in flight)
//   record    once the build's record is written: the build is complete, the switch is next
// Packs are sealed at 1 KB here (a body or two), so the instant lands between many packs. Before the kill it
// prints `killed: sent S bodies` (written synchronously, so the line survives the kill); if the upload ends first,
// `ended`.
import { writeSync } from "node:fs";
import { startLocalWorker } from "../../../scripts/hosts/cloudflare/local/workerd.ts";
import { bodiesInBucket } from "../../../scripts/hosts/cloudflare/r2/bucket.ts";
import { packIndexOf } from "../../../scripts/hosts/cloudflare/r2/packs.ts";
import type { UploadTarget } from "../../../scripts/hosts/cloudflare/r2/target.ts";
import { uploadToR2 } from "../../../scripts/hosts/cloudflare/r2/upload.ts";
import { buildOfRecordKey, PACKS_PREFIX } from "../../../scripts/hosts/cloudflare/worker/r2-layout.ts";

const [dist, persist, at] = process.argv.slice(2);
if (!dist || !persist || !at || !/^(bodies=\d+|record)$/.test(at)) {
  console.error("usage: upload-killed.ts DIST PERSIST bodies=N|record");
  process.exit(2);
}
const bodiesAt = at.startsWith("bodies=") ? Number(at.slice("bodies=".length)) : Number.POSITIVE_INFINITY;

// In a function, not at the top level: the launcher runs CommonJS bundles (bundle-cache.cjs).
async function main(dist: string, persist: string): Promise<void> {
  const worker = await startLocalWorker({ distDir: dist, mode: "r2", r2Persist: persist, port: 0, uploader: true });
  const real = await worker.uploadTarget();
  let inBucket = (await bodiesInBucket(real)).size;
  let sent = 0;
  const kill = (): never => {
    writeSync(1, `killed: sent ${sent} bodies\n`);
    process.kill(-process.pid, "SIGKILL");
    throw new Error("unreachable");
  };
  if (inBucket >= bodiesAt) kill();

  const arrived = (key: string, body: Uint8Array) => {
    if (!key.startsWith(PACKS_PREFIX)) return;
    const bodies = packIndexOf(body).length;
    sent += bodies;
    inBucket += bodies;
    if (inBucket >= bodiesAt) kill();
  };
  const target: UploadTarget = {
    ...real,
    packBytes: 1024,
    put: async (objects) => {
      await real.put(objects);
      for (const o of objects) arrived(o.key, o.body);
      if (at === "record" && objects.some((o) => buildOfRecordKey(o.key))) kill();
    },
    putParts: async (key, body) => {
      await real.putParts(key, body);
      arrived(key, body);
    },
  };
  await uploadToR2(dist, target);
  writeSync(1, "ended\n");
  await worker.close();
}

void main(dist, persist);
