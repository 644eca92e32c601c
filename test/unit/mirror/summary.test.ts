// The line npm run mirror ends with: sizes in human units, whatever their size.
import { describe, expect, it } from "vitest";
import { mirrorSummary } from "../../../scripts/mirror/summary.ts";
import type { MirrorResult } from "../../../scripts/mirror/update-mirror.ts";

const result: MirrorResult = {
  changed: true,
  copy: "mirror.copies/0123456789abcdef",
  targets: 283_009,
  requests: 283_070,
  retries: 0,
  shardsFetched: 60,
  bodiesFetched: 283_009,
  indexBytes: 39_512_004,
  bodyBytes: 132_538_600,
  seconds: 61.25,
};

describe("npm run mirror's summary line", () => {
  it("says sizes in human units, counts with separators", () => {
    expect(mirrorSummary("http://localhost:3000/v1", "mirror", result)).toBe(
      "mirrored http://localhost:3000/v1 into mirror/: 283,009 bodies by address; fetched 283,009 (132.5 MB) and 60 shards " +
        "(39.5 MB of index with the root) in 283,070 requests, 61.3 s",
    );
    expect(mirrorSummary("u", "m", { ...result, bodiesFetched: 2, bodyBytes: 1_836, indexBytes: 820 })).toContain(
      "fetched 2 (1.8 kB) and 60 shards (820 bytes of index",
    );
  });
});
