// Published limits of the hosts, in one place: the file hosts' (the build summary warns when the tree exceeds one) and
// Workers Static Assets' (which Cloudflare storage a build needs: cloudflare/plan.ts). Data, not code: add a row when a
// host's documentation names a new limit.

export interface TreeSize {
  files: number;
  bytes: number;
  /** the most files in one folder (a list's limit folder holds total+1 pages, times encodings) */
  maxFilesPerDir: number;
}

interface HostLimit {
  host: string;
  limit: string;
  exceeded: (tree: TreeSize) => boolean;
}

const GB = 1024 ** 3;

/** Workers Static Assets, per Worker version (developers.cloudflare.com/workers/static-assets/). */
export const ASSETS_LIMITS = {
  freeFiles: 20_000,
  paidFiles: 100_000,
  /** per file, both plans */
  fileBytes: 25 * 1024 * 1024,
} as const;

export const HOST_LIMITS: HostLimit[] = [
  { host: "Cloudflare Pages (Free)", limit: "20,000 files per site", exceeded: (t) => t.files > 20_000 },
  { host: "Cloudflare Pages (paid)", limit: "100,000 files per site", exceeded: (t) => t.files > 100_000 },
  {
    host: "GitLab Pages",
    limit: "200,000 files and 1 GB per site",
    exceeded: (t) => t.files > 200_000 || t.bytes > GB,
  },
  { host: "GitHub Pages", limit: "1 GB per published site", exceeded: (t) => t.bytes > GB },
  { host: "Netlify", limit: "54,000 files per folder", exceeded: (t) => t.maxFilesPerDir > 54_000 },
];

export function hostLimitWarnings(tree: TreeSize): string[] {
  return HOST_LIMITS.filter((l) => l.exceeded(tree)).map(
    (l) => `${l.host}: this build exceeds its limit of ${l.limit}`,
  );
}
