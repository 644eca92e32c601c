// Aligned plain-text tables: the first `textColumns` columns left-aligned, the (numeric) rest right-aligned.
export function textTable(header: string[], rows: string[][], textColumns = 1): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i >= textColumns ? c.padStart(widths[i]!) : c.padEnd(widths[i]!)))
      .join("  ")
      .trimEnd();
  return [line(header), widths.map((w) => "-".repeat(w)).join("  "), ...rows.map(line)].join("\n");
}

export const int = (n: number | null | undefined) =>
  n === null || n === undefined ? "n/a" : Math.round(n).toLocaleString("en-US");
export const fixed = (n: number | null | undefined, digits: number, unit = "") =>
  n === null || n === undefined ? "n/a" : `${n.toFixed(digits)}${unit}`;
export const mb = (bytes: number | null | undefined) =>
  bytes === null || bytes === undefined ? "n/a" : `${(bytes / 1e6).toFixed(1)} MB`;
export const mib = (bytes: number | null | undefined) =>
  bytes === null || bytes === undefined ? "n/a" : `${(bytes / 1024 / 1024).toFixed(0)} MiB`;
