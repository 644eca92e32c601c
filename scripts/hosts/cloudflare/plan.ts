// Which Cloudflare storage a build needs: Workers Static Assets (Free or Paid plan) while its published files fit
// the per-version limits (hosts/limits.ts), R2 otherwise.
import { stat } from "node:fs/promises";
import { join } from "node:path";
import { formatCount } from "../../cli/command.ts";
import { formatBytes } from "../../cli/format-bytes.ts";
import { ASSETS_LIMITS } from "../limits.ts";

export interface PublishedSize {
  files: number;
  bytes: number;
  largest: number;
}

export type CloudflarePlan = "assets-free" | "assets-paid" | "r2";

export function planFor(size: PublishedSize): CloudflarePlan {
  if (size.largest > ASSETS_LIMITS.fileBytes || size.files > ASSETS_LIMITS.paidFiles) return "r2";
  return size.files > ASSETS_LIMITS.freeFiles ? "assets-paid" : "assets-free";
}

export function describePlan(size: PublishedSize): string {
  // What Static Assets would upload: the served files and the few host files below the same roots.
  const what = `${formatCount(size.files)} files to upload as static assets (${formatBytes(size.bytes)})`;
  switch (planFor(size)) {
    case "assets-free":
      return `${what}: fits Workers Static Assets on the Free plan (${formatCount(ASSETS_LIMITS.freeFiles)} files)`;
    case "assets-paid":
      return `${what}: Workers Static Assets needs the Paid plan (over ${formatCount(ASSETS_LIMITS.freeFiles)} files); R2 works on either`;
    case "r2":
      return `${what}: past the Static Assets limits (${formatCount(ASSETS_LIMITS.paidFiles)} files, 25 MiB per file): publish to R2`;
  }
}

/** Sizes of the given files below root. */
export async function measurePublished(root: string, files: string[]): Promise<PublishedSize> {
  let bytes = 0;
  let largest = 0;
  for (let i = 0; i < files.length; i += 256) {
    const sizes = await Promise.all(files.slice(i, i + 256).map(async (f) => (await stat(join(root, f))).size));
    for (const s of sizes) {
      bytes += s;
      largest = Math.max(largest, s);
    }
  }
  return { files: files.length, bytes, largest };
}
