// Sizes as people read them: 812 bytes, 45.2 kB, 132.5 MB, 4.3 GB (decimal units, as the docs' tables count them).

const UNITS = ["kB", "MB", "GB", "TB"] as const;

export function formatBytes(bytes: number): string {
  if (bytes < 1000) return `${bytes} ${bytes === 1 ? "byte" : "bytes"}`;
  let value = bytes;
  let unit = 0;
  for (value /= 1000; value >= 999.95 && unit < UNITS.length - 1; unit++) value /= 1000;
  return `${value.toFixed(1)} ${UNITS[unit]}`;
}
