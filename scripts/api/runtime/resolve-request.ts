// Request → what to answer, from the route table alone (P1–P7, Q1–Q9). Pure: looking a file up is injected (a probe),
// and what the probe found travels in the resolution, so an answer never looks the same file up twice.
import { compileTemplate, type ErrorId, type RouteTable, type Template } from "./route-table.ts";

/** What a request is answered with, whatever was found on the way. */
export type Decision =
  | { kind: "file"; file: string; status: 200 | 400; success: boolean; contentType?: string }
  | { kind: "error"; id: ErrorId }
  | { kind: "preflight" };

/** A decision, with what the probe found for its file. */
export type Resolution<T> = Exclude<Decision, { kind: "file" }> | (Extract<Decision, { kind: "file" }> & { found: T });

/** Looks a dist/ file up: what was found (the runtime's choice: bytes, metadata), or null when there is no such file.
 *  May answer synchronously (a cache hit) or not. */
export type Probe<T> = (file: string) => T | null | Promise<T | null>;

/** The decision alone (what a cache of resolutions keeps: the file found belongs to one response). */
export function decisionOf<T>(r: Resolution<T>): Decision {
  if (r.kind !== "file") return r;
  const { found: _found, ...decision } = r;
  return decision;
}

interface CompiledRoute {
  segments: ({ literal: string } | { param: string; pattern: RegExp })[];
  query: {
    name: string;
    pattern: RegExp;
    default: string | null;
    absentError?: ErrorId;
    error: ErrorId;
    repeatedError: ErrorId;
  }[];
  vars: [name: string, spec: { param: string; absent: string; present: Template }][];
  try: { file: Template; status: 200 | 400 }[];
  fallback: ErrorId;
}

/** Variables every request of a route has: its path parameters, query parameters with defaults, its vars. */
const alwaysProvided = (r: RouteTable["routes"][number]) => [
  ...Object.keys(r.params),
  ...r.query.filter((q) => q.default !== null || q.absentError !== undefined).map((q) => q.name),
  ...Object.keys(r.vars),
];

export interface Resolver {
  resolve<T>(method: string, rawTarget: string, probe: Probe<T>): Resolution<T> | Promise<Resolution<T>>;
}

export function createResolver(table: RouteTable): Resolver {
  const baseSegments = table.basePath.split("/").slice(1);
  const methods = new Set(table.methods);
  const assets = new Map(table.assets.map((a) => [a.path, a]));
  const routes: CompiledRoute[] = table.routes.map((r) => ({
    segments: r.path
      .split("/")
      .slice(1)
      .map((s) => {
        const param = /^\{(\w+)\}$/.exec(s)?.[1];
        return param ? { param, pattern: new RegExp(r.params[param]!) } : { literal: s };
      }),
    query: r.query.map((q) => ({ ...q, pattern: new RegExp(q.pattern) })),
    vars: Object.entries(r.vars).map(([name, v]) => [name, { ...v, present: compileTemplate(v.present, [v.param]) }]),
    // Checked against what a request always provides, so a bad table fails at start, never mid-request.
    try: r.try.map((c) => ({ file: compileTemplate(c.file, alwaysProvided(r)), status: c.status })),
    fallback: r.fallback,
  }));

  function matchPath(rawPath: string): { route: CompiledRoute; vars: Record<string, string> } | ErrorId {
    const segments = rawPath.split("/").slice(1);
    if (segments.length > 1 && segments[segments.length - 1] === "") segments.pop(); // P2
    const decoded: string[] = [];
    for (const s of segments) {
      if (s === "") return "not_found";
      try {
        decoded.push(decodeURIComponent(s)); // P3
      } catch {
        return "not_found";
      }
    }
    for (let i = 0; i < baseSegments.length; i++) if (decoded[i] !== baseSegments[i]) return "not_found";
    const rest = decoded.slice(baseSegments.length);
    for (const route of routes) {
      if (route.segments.length !== rest.length) continue;
      const vars: Record<string, string> = {};
      let matches = true;
      let badParam = false;
      route.segments.forEach((seg, i) => {
        const value = rest[i]!;
        if ("literal" in seg) matches &&= seg.literal === value;
        else {
          vars[seg.param] = value;
          if (!seg.pattern.test(value)) badParam = true;
        }
      });
      if (!matches) continue;
      return badParam ? route.fallback : { route, vars };
    }
    return "not_found";
  }

  /** Q1, Q6–Q8: raw values, repeats are errors, unknown names ignored, declared order decides. */
  function checkQuery(route: CompiledRoute, rawQuery: string, vars: Record<string, string>): ErrorId | undefined {
    if (route.query.length === 0) return undefined;
    const given = new Map<string, string[]>();
    if (rawQuery !== "") {
      for (const piece of rawQuery.split("&")) {
        const eq = piece.indexOf("=");
        const name = eq === -1 ? piece : piece.slice(0, eq);
        const value = eq === -1 ? "" : piece.slice(eq + 1);
        const list = given.get(name);
        if (list) list.push(value);
        else given.set(name, [value]);
      }
    }
    for (const q of route.query) {
      const values = given.get(q.name);
      if (values === undefined) {
        if (q.absentError) return q.absentError;
        if (q.default !== null) vars[q.name] = q.default;
        continue;
      }
      if (values.length > 1) return q.repeatedError;
      if (!q.pattern.test(values[0]!)) return q.error;
      vars[q.name] = values[0]!;
    }
    for (const [name, spec] of route.vars) {
      const value = vars[spec.param];
      vars[name] = value === undefined ? spec.absent : spec.present(vars);
    }
    return undefined;
  }

  return {
    resolve(method, rawTarget, probe) {
      if (!methods.has(method)) return { kind: "error", id: "method_not_allowed" }; // P6, before the path
      if (method === "OPTIONS") return { kind: "preflight" }; // P5
      // Absolute-form targets (http://host/path) are allowed by HTTP/1.1; only the path and query matter.
      const target = rawTarget.startsWith("/") ? rawTarget : rawTarget.replace(/^https?:\/\/[^/?#]*/i, "");
      if (!target.startsWith("/")) return { kind: "error", id: "not_found" };
      const q = target.indexOf("?");
      const asset = assets.get(q === -1 ? target : target.slice(0, q));
      if (asset)
        return probeFile(
          { kind: "file", file: asset.file, status: 200, success: true, contentType: asset.contentType },
          probe,
          { kind: "error", id: "not_found" },
        );
      const matched = matchPath(q === -1 ? target : target.slice(0, q));
      if (typeof matched === "string") return { kind: "error", id: matched };
      const { route, vars } = matched;
      const queryError = checkQuery(route, q === -1 ? "" : target.slice(q + 1), vars);
      if (queryError) return { kind: "error", id: queryError };
      return tryCandidates(route, vars, 0, probe);
    },
  };
}

function tryCandidates<T>(
  route: CompiledRoute,
  vars: Record<string, string>,
  index: number,
  probe: Probe<T>,
): Resolution<T> | Promise<Resolution<T>> {
  const candidate = route.try[index];
  if (!candidate) return { kind: "error", id: route.fallback };
  const decision: Decision = {
    kind: "file",
    file: candidate.file(vars),
    status: candidate.status,
    success: candidate.status === 200,
  };
  return probeFile(decision, probe, () => tryCandidates(route, vars, index + 1, probe));
}

/** The decision with what the probe found for its file, or (nothing there) what answers instead. */
function probeFile<T>(
  decision: Extract<Decision, { kind: "file" }>,
  probe: Probe<T>,
  otherwise: Resolution<T> | (() => Resolution<T> | Promise<Resolution<T>>),
): Resolution<T> | Promise<Resolution<T>> {
  const settle = (found: T | null) =>
    found !== null ? { ...decision, found } : typeof otherwise === "function" ? otherwise() : otherwise;
  const found = probe(decision.file);
  return found instanceof Promise ? found.then(settle) : settle(found);
}
