import { describe, expect, it } from "vitest";
import { isoTime } from "../../../scripts/io/iso-time.ts";

describe("isoTime writes a moment as Date's toISOString does", () => {
  const edges = [
    0,
    Date.UTC(1970, 0, 1, 23, 59, 59, 999),
    Date.UTC(1999, 11, 31, 23, 59, 59, 999),
    Date.UTC(2000, 1, 29, 12, 0, 0, 1), // a leap day of a year divisible by 400
    Date.UTC(2000, 2, 1),
    Date.UTC(2024, 1, 29),
    Date.UTC(2100, 1, 28, 23, 59, 59, 999), // 2100 is no leap year
    Date.UTC(2100, 2, 1),
    Date.UTC(9999, 11, 31, 23, 59, 59, 999),
    Date.now(),
  ];
  it.each(edges)("at %i ms", (ms) => {
    expect(isoTime(ms)).toBe(new Date(ms).toISOString());
  });

  it("at 20,000 moments spread over 1970–9999", () => {
    let seed = 7;
    const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    const end = Date.UTC(10_000, 0, 1);
    for (let i = 0; i < 20_000; i++) {
      const ms = Math.floor(random() * end);
      expect(isoTime(ms), String(ms)).toBe(new Date(ms).toISOString());
    }
  });
});
