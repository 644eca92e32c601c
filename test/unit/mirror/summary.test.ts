// The line npm run mirror ends with: sizes in human units, whatever their size.
import { describe, expect, it } from "vitest";
import { mirrorSummary } from "../../../scripts/mirror/summary.ts";
import type { MirrorResult } from "../../../scripts/mirror/update-mirror.ts";

const result: MirrorResult = {
  changed: true,
  copy: "mirror.copies/0123456789abcdef",
  targets: 17_957,
  lists: 50,
  pieces: 1_402,
  requests: 19_420,
  retries: 0,
  shardsFetched: 60,
  bodiesFetched: 17_956,
  piecesFetched: 1_402,
  indexBytes: 2_512_004,
  bodyBytes: 132_538_600,
  pieceBytes: 20_100_200,
  seconds: 61.25,
};

describe("npm run mirror's summary line", () => {
  it("says sizes in human units, counts with separators", () => {
    expect(mirrorSummary("http://localhost:3000/v1", "mirror", result)).toBe(
      "mirrored http://localhost:3000/v1 into mirror/: 17,957 bodies by address and 50 lists of 1,402 pieces; fetched " +
        "17,956 bodies (132.5 MB), 1,402 pieces (20.1 MB) and 60 shards (2.5 MB of index with the root) in 19,420 " +
        "requests, 61.3 s",
    );
    expect(mirrorSummary("u", "m", { ...result, bodiesFetched: 2, bodyBytes: 1_836, indexBytes: 820 })).toContain(
      "fetched 2 bodies (1.8 kB), 1,402 pieces (20.1 MB) and 60 shards (820 bytes of index",
    );
  });
});
