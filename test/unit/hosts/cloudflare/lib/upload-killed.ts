// An upload of `dist` to the local R2 at `persist` (the real uploadToR2, over the uploader Worker in workerd) that
// SIGKILLs its own process group, workerd included, at a chosen instant, as a crash or an out-of-memory kill would:
//   bodies=N  once the bucket holds N bodies (counted when a put of bodies returns; more may be in flight)
//   record    once the build's record is written: the build is complete, the switch is next
// Puts carry 20 bodies, so the instant lands between many puts. Before the kill it prints
// `killed: sent S bodies` (written synchronously, so the line survives the kill); if the upload ends first, `ended`.
import { writeSync } from "node:fs";
import { startLocalWorker } from "../../../../../scripts/hosts/cloudflare/local-worker.ts";
import { type UploadTarget, uploadToR2 } from "../../../../../scripts/hosts/cloudflare/upload-r2.ts";
import { buildOfRecordKey, OBJECTS_PREFIX } from "../../../../../scripts/hosts/cloudflare/worker/r2-layout.ts";

const [dist, persist, at] = process.argv.slice(2);
if (!dist || !persist || !at || !/^(bodies=\d+|record)$/.test(at)) {
  console.error("usage: upload-killed.ts DIST PERSIST bodies=N|record");
  process.exit(2);
}
const bodiesAt = at.startsWith("bodies=") ? Number(at.slice("bodies=".length)) : Number.POSITIVE_INFINITY;

const worker = await startLocalWorker({ distDir: dist, mode: "r2", r2Persist: persist, port: 0, uploader: true });
const real = await worker.uploadTarget();
let inBucket = (await real.list(OBJECTS_PREFIX)).length;
let sent = 0;
const kill = (): never => {
  writeSync(1, `killed: sent ${sent} bodies\n`);
  process.kill(-process.pid, "SIGKILL");
  throw new Error("unreachable");
};
if (inBucket >= bodiesAt) kill();

const target: UploadTarget = {
  ...real,
  batch: { ...real.batch, objects: 20 },
  put: async (objects) => {
    await real.put(objects);
    const bodies = objects.filter((o) => o.key.startsWith(OBJECTS_PREFIX)).length;
    sent += bodies;
    inBucket += bodies;
    if (inBucket >= bodiesAt || (at === "record" && objects.some((o) => buildOfRecordKey(o.key)))) kill();
  },
};
await uploadToR2(dist, target);
writeSync(1, "ended\n");
await worker.close();
