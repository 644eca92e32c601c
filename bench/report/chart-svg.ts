// docs/develop/growth.svg from bench/results.json: files, bytes and build seconds against catalog size, and each host's
// requests per second. Hand-written SVG (no chart library, no network); same results → same bytes.
import type { ResultsFile } from "./results-file.ts";

export interface ChartInput {
  /** "2 × AMD EPYC, Node v20.20.2", or null */
  machine: string | null;
  /** the date of the build section, YYYY-MM-DD, or null */
  date: string | null;
  builds: { n: number; files: number; bytes: number; seconds: number; tarSeconds: number | null }[];
  serve: {
    n: number;
    connections: number;
    hosts: {
      name: string;
      kind: string;
      requestsPerSecond: number | null;
      skipped: string | null;
      wrongStatuses: number;
    }[];
  } | null;
}

/** What the chart needs from a results file: the measured builds (skipped sizes left out) and the serve run. */
export function chartInput(file: Pick<ResultsFile, "machine" | "build" | "serve">): ChartInput {
  const builds = (file.build?.results ?? [])
    .filter((b) => !b.skipped && b.files !== null && b.bytes !== null && b.seconds !== null)
    .map((b) => ({ n: b.n, files: b.files!, bytes: b.bytes!, seconds: b.seconds!, tarSeconds: b.tarSeconds }))
    .sort((a, b) => a.n - b.n);
  const serve = file.serve?.results;
  return {
    machine: file.machine ? `${file.machine.cpus} × ${file.machine.cpuModel}, Node ${file.machine.node}` : null,
    date: file.build?.generatedAt.slice(0, 10) ?? file.serve?.generatedAt.slice(0, 10) ?? null,
    builds,
    serve:
      serve && !serve.skipped
        ? {
            n: serve.n,
            connections: serve.connections,
            hosts: serve.hosts.map((h) => ({
              name: h.name,
              kind: h.kind,
              requestsPerSecond: h.skipped ? null : (h.requestsPerSecond ?? null),
              skipped: h.skipped,
              wrongStatuses: h.wrongStatuses.length,
            })),
          }
        : null,
  };
}

// ---- numbers and scales ------------------------------------------------------------------------------------------

const escapeXml = (s: string) =>
  s.replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]!);
/** Coordinates to one decimal: enough for a screen, and no float noise in the file. */
const px = (v: number) => String(Math.round(v * 10) / 10);

/** One decimal, without a trailing ".0". */
const oneDecimal = (v: number) => v.toFixed(1).replace(/\.0$/, "");
export const formatCount = (v: number) =>
  v >= 1e6
    ? `${v >= 1e7 ? Math.round(v / 1e6) : oneDecimal(v / 1e6)}M`
    : v >= 1e3
      ? `${v >= 1e5 ? Math.round(v / 1e3) : oneDecimal(v / 1e3)}k`
      : String(Math.round(v));
export const formatBytes = (v: number) =>
  v >= 1e9
    ? `${oneDecimal(v / 1e9)} GB`
    : v >= 1e6
      ? `${Math.round(v / 1e6)} MB`
      : v >= 1e3
        ? `${Math.round(v / 1e3)} kB`
        : `${Math.round(v)} B`;
export const formatSeconds = (v: number) => (v >= 10 ? `${Math.round(v)} s` : `${oneDecimal(v)} s`);
const formatRate = (v: number) => Math.round(v).toLocaleString("en-US");

interface Scale {
  at(v: number): number;
  ticks: number[];
}

/** 1, 2 or 5 times a power of ten: the step that gives about `count` ticks up to max. */
function niceStep(max: number, count: number): number {
  const raw = max / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  return [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw)!;
}

/** From 0 (a size of zero is a real point of reference) to a round number above max. */
function linearScale(max: number, from: number, to: number, count = 4): Scale {
  const step = niceStep(max || 1, count);
  const top = Math.ceil((max || 1) / step) * step;
  const ticks = Array.from({ length: Math.round(top / step) + 1 }, (_, i) => i * step);
  return { at: (v) => from + (v / top) * (to - from), ticks };
}

/** Powers of ten (and 2 and 5 between them when there are few decades), for ranges spanning more than 20×. */
function logScale(min: number, max: number, from: number, to: number): Scale {
  const lo = 10 ** Math.floor(Math.log10(min));
  const hi = 10 ** Math.ceil(Math.log10(max));
  const decades = Math.round(Math.log10(hi / lo));
  const ticks: number[] = [];
  for (let d = lo; d < hi * 1.01; d *= 10)
    for (const m of decades <= 2 ? [1, 2, 5] : [1]) if (d * m <= hi * 1.01) ticks.push(d * m);
  const span = Math.log10(hi / lo);
  return { at: (v) => from + (Math.log10(v / lo) / span) * (to - from), ticks };
}

/** Log when the catalog sizes span more than 20× (then every panel is log-log, so the panels read alike). */
const useLog = (sizes: number[]) => Math.min(...sizes) > 0 && Math.max(...sizes) / Math.min(...sizes) > 20;
const scaleFor = (log: boolean, values: number[], from: number, to: number): Scale =>
  log ? logScale(Math.min(...values), Math.max(...values), from, to) : linearScale(Math.max(...values), from, to);
const formatSize = (n: number) => Math.round(n).toLocaleString("en-US");

// ---- drawing -----------------------------------------------------------------------------------------------------

const COLOURS = {
  ink: "#333333",
  muted: "#6b6b6b",
  grid: "#e6e6ea",
  accent: "#32329f",
  floor: "#9a9aa6",
  router: "#32329f",
  static: "#5d8fd0",
  ceiling: "#b0b0b8",
  warn: "#cc3333",
};
const FONT = "system-ui, -apple-system, 'Segoe UI', Helvetica, Arial, sans-serif";

const text = (x: number, y: number, body: string, attrs = "") =>
  `<text x="${px(x)}" y="${px(y)}"${attrs ? ` ${attrs}` : ""}>${escapeXml(body)}</text>`;

interface Series {
  id: string;
  label: string;
  colour: string;
  dashed?: boolean;
  points: { x: number; y: number }[];
  /** "last": a reference line, labelled at its end only, to keep the other series' labels clear */
  labels?: "all" | "last";
}

/** One line panel: title, grid, axes with ticks, one or more series with dots and value labels. */
function linePanel(
  box: { x: number; y: number; w: number; h: number },
  title: string,
  format: (v: number) => string,
  series: Series[],
): string {
  const plot = { left: box.x + 56, right: box.x + box.w - 22, top: box.y + 52, bottom: box.y + box.h - 42 };
  const out = [`<g class="panel">`, text(box.x, box.y + 16, title, `class="panel-title"`)];
  const all = series.flatMap((s) => s.points);
  if (all.length === 0)
    return [...out, text(plot.left, (plot.top + plot.bottom) / 2, "not measured", `class="note"`), `</g>`].join("\n");
  const log = useLog(all.map((p) => p.x));
  const x = scaleFor(
    log,
    all.map((p) => p.x),
    plot.left,
    plot.right,
  );
  const y = scaleFor(
    log,
    all.map((p) => p.y),
    plot.bottom,
    plot.top,
  );
  const labelled = series.flatMap((s) => s.points.filter((_, j) => s.labels !== "last" || j === s.points.length - 1));
  // A label goes above its point unless another labelled point at that size is higher: then below, so none collide.
  const above = (p: { x: number; y: number }) => labelled.every((q) => q === p || q.x !== p.x || q.y <= p.y);
  for (const t of y.ticks) {
    out.push(
      `<line class="grid" x1="${px(plot.left)}" x2="${px(plot.right)}" y1="${px(y.at(t))}" y2="${px(y.at(t))}"/>`,
    );
    out.push(text(plot.left - 8, y.at(t) + 4, t === 0 ? "0" : format(t), `class="tick" text-anchor="end"`));
  }
  for (const t of x.ticks) {
    out.push(
      `<line class="axis" x1="${px(x.at(t))}" x2="${px(x.at(t))}" y1="${px(plot.bottom)}" y2="${px(plot.bottom + 4)}"/>`,
    );
    out.push(
      text(x.at(t), plot.bottom + 17, log ? formatCount(t) : formatSize(t), `class="tick" text-anchor="middle"`),
    );
  }
  out.push(
    `<line class="axis" x1="${px(plot.left)}" x2="${px(plot.right)}" y1="${px(plot.bottom)}" y2="${px(plot.bottom)}"/>`,
  );
  out.push(
    text(
      (plot.left + plot.right) / 2,
      plot.bottom + 34,
      `catalog size (tools${log ? ", log scale" : ""})`,
      `class="axis-label" text-anchor="middle"`,
    ),
  );
  series.forEach((s, i) => {
    // legend only when a panel has more than one series
    if (series.length > 1) {
      const ly = box.y + 36;
      const lx = plot.left + i * 112;
      out.push(
        `<line x1="${px(lx)}" x2="${px(lx + 16)}" y1="${px(ly - 4)}" y2="${px(ly - 4)}" stroke="${s.colour}" stroke-width="2"${s.dashed ? ` stroke-dasharray="4 3"` : ""}/>`,
      );
      out.push(text(lx + 21, ly, s.label, `class="legend"`));
    }
    const path = s.points.map((p, j) => `${j === 0 ? "M" : "L"}${px(x.at(p.x))} ${px(y.at(p.y))}`).join(" ");
    out.push(`<g data-series="${s.id}">`);
    out.push(
      `<path d="${path}" fill="none" stroke="${s.colour}" stroke-width="2"${s.dashed ? ` stroke-dasharray="4 3"` : ""}/>`,
    );
    for (const [j, p] of s.points.entries()) {
      const withLabel = s.labels !== "last" || j === s.points.length - 1;
      const cx = x.at(p.x);
      const cy = y.at(p.y);
      out.push(
        `<circle cx="${px(cx)}" cy="${px(cy)}" r="3.5" fill="${s.colour}"><title>${escapeXml(`${formatSize(p.x)} tools: ${format(p.y)}`)}</title></circle>`,
      );
      const anchor = j === s.points.length - 1 && s.points.length > 1 ? "end" : j === 0 ? "start" : "middle";
      const dy = above(p) ? -9 : 17;
      if (withLabel)
        out.push(
          text(
            cx + (anchor === "end" ? -4 : anchor === "start" ? 4 : 0),
            cy + dy,
            format(p.y),
            `class="value" text-anchor="${anchor}" style="fill: ${s.colour}"`,
          ),
        );
    }
    out.push(`</g>`);
  });
  out.push(`</g>`);
  return out.join("\n");
}

/** Requests per second of each host, one bar each, longest first; partial hosts and skipped ones say so. */
function servePanel(
  box: { x: number; y: number; w: number },
  serve: NonNullable<ChartInput["serve"]>,
): { svg: string; height: number } {
  const hosts = [...serve.hosts].sort(
    (a, b) => (b.requestsPerSecond ?? -1) - (a.requestsPerSecond ?? -1) || (a.name < b.name ? -1 : 1),
  );
  const row = 30;
  const labelWidth = 150;
  const top = box.y + 48;
  const barLeft = box.x + labelWidth;
  const barMax = box.w - labelWidth - 250;
  const max = Math.max(1, ...hosts.map((h) => h.requestsPerSecond ?? 0));
  const out = [
    `<g class="panel" data-series="serve">`,
    text(
      box.x,
      box.y + 16,
      `Requests per second, higher is better: each host serving the ${formatSize(serve.n)}-tool tree (${serve.connections} connections, mixed API requests)`,
      `class="panel-title"`,
    ),
  ];
  const kinds: [string, string][] = [
    ["router", "answers every API URL"],
    ["static", "plain files, no query routing"],
    ["ceiling", "one fixed body: the ceiling"],
  ];
  kinds
    .filter(([k]) => hosts.some((h) => h.kind === k))
    .forEach(([kind, label], i) => {
      const lx = box.x + i * 230;
      out.push(
        `<rect x="${px(lx)}" y="${px(box.y + 26)}" width="12" height="12" rx="2" fill="${COLOURS[kind as "router"] ?? COLOURS.ceiling}"/>`,
      );
      out.push(text(lx + 18, box.y + 36, label, `class="legend"`));
    });
  hosts.forEach((h, i) => {
    const y = top + i * row;
    out.push(`<g data-host="${escapeXml(h.name)}">`);
    out.push(text(barLeft - 10, y + 15, h.name, `class="host" text-anchor="end"`));
    if (h.requestsPerSecond === null) {
      out.push(text(barLeft, y + 15, `skipped${h.skipped ? `: ${h.skipped}` : ""}`, `class="note"`));
    } else {
      const w = Math.max(2, (h.requestsPerSecond / max) * barMax);
      const colour = COLOURS[h.kind as "router"] ?? COLOURS.ceiling;
      out.push(
        `<rect x="${px(barLeft)}" y="${px(y + 2)}" width="${px(w)}" height="20" rx="2" fill="${colour}"><title>${escapeXml(`${h.name}: ${formatRate(h.requestsPerSecond)} requests/s`)}</title></rect>`,
      );
      out.push(text(barLeft + w + 8, y + 17, `${formatRate(h.requestsPerSecond)} req/s`, `class="value"`));
      if (h.wrongStatuses > 0)
        out.push(
          text(
            barLeft + w + 100,
            y + 17,
            `partial: ${h.wrongStatuses} kind${h.wrongStatuses === 1 ? "" : "s"} of request answered wrongly`,
            `class="warn"`,
          ),
        );
    }
    out.push(`</g>`);
  });
  out.push(`</g>`);
  return { svg: out.join("\n"), height: 48 + hosts.length * row };
}

export function growthChartSvg(input: ChartInput): string {
  const width = 960;
  const margin = 24;
  const gap = 24;
  const panelW = (width - 2 * margin - 2 * gap) / 3;
  const panelTop = 84;
  const panelH = 250;
  const b = input.builds;
  const panels = [
    linePanel({ x: margin, y: panelTop, w: panelW, h: panelH }, "Files in dist/", formatCount, [
      { id: "files", label: "files", colour: COLOURS.accent, points: b.map((r) => ({ x: r.n, y: r.files })) },
    ]),
    linePanel({ x: margin + panelW + gap, y: panelTop, w: panelW, h: panelH }, "Bytes in dist/", formatBytes, [
      { id: "bytes", label: "bytes", colour: COLOURS.accent, points: b.map((r) => ({ x: r.n, y: r.bytes })) },
    ]),
    linePanel(
      { x: margin + 2 * (panelW + gap), y: panelTop, w: panelW, h: panelH },
      "Full build, seconds",
      formatSeconds,
      [
        {
          id: "build-seconds",
          label: "npm run build",
          colour: COLOURS.accent,
          points: b.map((r) => ({ x: r.n, y: r.seconds })),
        },
        {
          id: "tar-seconds",
          label: "tar -x, same tree",
          colour: COLOURS.floor,
          dashed: true,
          labels: "last",
          points: b.filter((r) => r.tarSeconds !== null).map((r) => ({ x: r.n, y: r.tarSeconds! })),
        },
      ],
    ),
  ];
  const serveTop = panelTop + panelH + 28;
  const serve = input.serve
    ? servePanel({ x: margin, y: serveTop, w: width - 2 * margin }, input.serve)
    : { svg: text(margin, serveTop + 16, "Serve: not measured", `class="note"`), height: 30 };
  const height = serveTop + serve.height + 30;
  const subtitle = [input.machine, input.date && `measured ${input.date}`, "npm run bench"].filter(Boolean).join(" · ");
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${px(height)}" viewBox="0 0 ${width} ${px(height)}" role="img" aria-labelledby="chart-title chart-desc">
<title id="chart-title">How the API grows with the catalog</title>
<desc id="chart-desc">${escapeXml(
    b.length
      ? `Files, bytes and build seconds for catalogs of ${b.map((r) => r.n).join(", ")} tools; requests per second per host.`
      : "No build was measured.",
  )}</desc>
<style>
  text { font-family: ${FONT}; fill: ${COLOURS.ink}; }
  .title { font-size: 20px; font-weight: 600; }
  .subtitle, .tick, .axis-label, .note { font-size: 12px; fill: ${COLOURS.muted}; }
  .panel-title { font-size: 14px; font-weight: 600; }
  .legend, .host { font-size: 12.5px; }
  .value { font-size: 11.5px; font-weight: 600; paint-order: stroke; stroke: #ffffff; stroke-width: 3px; stroke-linejoin: round; }
  .warn { font-size: 11.5px; fill: ${COLOURS.warn}; }
  .grid { stroke: ${COLOURS.grid}; stroke-width: 1; }
  .axis { stroke: ${COLOURS.muted}; stroke-width: 1; }
</style>
<rect width="100%" height="100%" fill="#ffffff"/>
${text(margin, 36, "How the API grows with the catalog", `class="title"`)}
${text(margin, 58, subtitle, `class="subtitle"`)}
${panels.join("\n")}
${serve.svg}
</svg>
`;
}
