// Uploads killed at 10 seeded instants, in workerd through Miniflare (offline), with the upload run as the real command:
// the live build never moves, and the next upload completes without re-sending what arrived. Its own file (90 s) so
// it runs beside the other R2 tests.
import { join } from "node:path";
import { expect, it } from "vitest";
import { bodiesInBucket, listBuilds, readLive } from "../../../../../scripts/hosts/cloudflare/r2/bucket.ts";
import { publicationNames, uploadToR2 } from "../../../../../scripts/hosts/cloudflare/r2/upload.ts";
import { ab, answersOf, buildsAB, killedUpload, serving, uploadCommand } from "../../../../helpers/r2/builds-ab.ts";
import { seeded } from "../../../../helpers/random/seeded.ts";

buildsAB();

it("uploads killed at 10 seeded instants leave A live; the next upload completes B without re-sending what arrived", async () => {
  const persist = join(ab.dir, "killed.r2");
  const worker = await serving(ab.distA, persist);
  try {
    // The bucket as the serving workerd's uploader Worker sees it
    const target = await worker.uploadTarget();
    const idA = (await readLive(target))!.pointer.build;
    const a = await answersOf(worker.url);
    // what each build needs in the bucket: its bodies but the list pages, and its lists' runs
    const [inA, inB] = [await publicationNames(ab.distA), await publicationNames(ab.distB)];
    const newInB = [...inB].filter((h) => !inA.has(h)).length;
    expect(newInB, "B has bodies enough to kill between many puts").toBeGreaterThan(30);
    // bodies of B in the bucket's packs (A's packs hold exactly A's bodies)
    const arrived = async () => (await bodiesInBucket(target)).size - inA.size;
    const random = seeded(20261125);
    // Two kills of the real command in its start-up and hashing; seven at seeded counts of B's new bodies, the last
    // leaving at least 15 % to send (more than the puts that can be in flight); one once B is complete, before the
    // switch.
    const kills = [
      { afterMs: 200 + Math.floor(random() * 600) },
      { afterMs: 800 + Math.floor(random() * 600) },
      ...Array.from({ length: 7 }, () => Math.floor(newInB * (0.02 + 0.83 * random())))
        .sort((x, y) => x - y)
        .map((bodies) => ({ at: `bodies=${inA.size + bodies}` })),
      { at: "record" },
    ];
    for (const [n, kill] of kills.entries()) {
      const before = await arrived();
      if ("afterMs" in kill) {
        const upload = uploadCommand(ab.distB, persist);
        await new Promise((r) => setTimeout(r, kill.afterMs));
        upload.kill();
        expect(await upload.done, `kill ${n + 1} came before the upload ended`).toBeNull();
      } else {
        const output = await killedUpload(ab.distB, persist, kill.at);
        const sent = Number(/^killed: sent (\d+) bodies$/m.exec(output)?.[1]);
        expect(sent, `kill ${n + 1} (${kill.at}): ${output}`).toBeGreaterThanOrEqual(0);
        // whatever arrived before is not sent again: the complete build's last upload sent exactly what was missing
        if (kill.at === "record") expect(sent).toBe(newInB - before);
      }
      expect((await readLive(target))!.pointer.build, `after kill ${n + 1}`).toBe(idA);
      await new Promise((r) => setTimeout(r, 1100)); // the Worker's pointer cache
      expect(await answersOf(worker.url), `answers after kill ${n + 1}`).toEqual(a);
    }
    // B is complete in the bucket (listed, not live) and every body arrived: the next upload only switches
    const listed = await listBuilds(target);
    expect(listed.map((x) => x.live)).toEqual([false, true]);
    expect(await arrived()).toBe(newInB);
    const done = await uploadToR2(ab.distB, target);
    expect(done).toMatchObject({ switched: true, sent: 0, present: inB.size, build: listed[0]!.id });
    await new Promise((r) => setTimeout(r, 1100));
    expect((await answersOf(worker.url)).every((x) => x.build === done.build)).toBe(true);
  } finally {
    await worker.close();
  }
}, 180_000);
