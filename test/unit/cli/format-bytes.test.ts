import { describe, expect, it } from "vitest";
import { formatBytes } from "../../../scripts/cli/format-bytes.ts";

describe("sizes in human units", () => {
  it.each([
    [0, "0 bytes"],
    [1, "1 byte"],
    [999, "999 bytes"],
    [1000, "1.0 kB"],
    [45_230, "45.2 kB"],
    [999_949, "999.9 kB"],
    [999_950, "1.0 MB"],
    [132_538_600, "132.5 MB"],
    [4_300_000_000, "4.3 GB"],
  ])("%d bytes print as %s", (bytes, text) => expect(formatBytes(bytes)).toBe(text));
});
