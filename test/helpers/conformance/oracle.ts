// The expected answer to any request, written from the rules of docs/develop/rules.md alone (P1–P3, P7, Q1–Q9, O4,
// S1–S3, E1–E2), never from server code.
import type { Catalog } from "./catalog.ts";
import { bruteForceSearch } from "./search-oracle.ts";
import type { ListMeta } from "./shapes.ts";

export type Prediction =
  | { status: 200; kind: "list"; meta: ListMeta; slugs: string[] }
  | { status: 200; kind: "tool"; slug: string }
  | { status: 200; kind: "categories" }
  | { status: 200; kind: "best"; category: string }
  | { status: 200; kind: "openapi" }
  | { status: 200; kind: "search"; total: number; slugs: string[] }
  | { status: 200; kind: "export" }
  | { status: 200; kind: "sync"; shard: string }
  | { status: 200; kind: "piece"; piece: string }
  | { status: 200; kind: "asset"; file: string; contentType: string }
  | { status: 400 | 404; kind: "error"; code: string };

const LIMIT = /^(100|[1-9][0-9]?)$/; // Q2
const OFFSET = /^(0|[1-9][0-9]*)$/; // Q3
const error = (status: 400 | 404, code: string): Prediction => ({ status, kind: "error", code });

/** Q1: split on `&`, then on the first `=`; nothing is percent-decoded. */
export function queryValues(rawQuery: string): Map<string, string[]> {
  const values = new Map<string, string[]>();
  if (rawQuery === "") return values;
  for (const piece of rawQuery.split("&")) {
    const eq = piece.indexOf("=");
    const name = eq < 0 ? piece : piece.slice(0, eq);
    const list = values.get(name) ?? [];
    list.push(eq < 0 ? "" : piece.slice(eq + 1));
    values.set(name, list);
  }
  return values;
}

/** GET /software?rawQuery (rawQuery without the `?`) */
export function predictList(rawQuery: string, catalog: Catalog): Prediction {
  const q = queryValues(rawQuery); // Q7: names are case-sensitive, others ignored
  const limit = q.get("limit") ?? [];
  const offset = q.get("offset") ?? [];
  const category = q.get("category") ?? [];
  // Q8: limit, offset syntax, category, offset range; Q6: twice is invalid
  if (limit.length > 1 || (limit.length === 1 && !LIMIT.test(limit[0]!))) return error(400, "invalid_limit");
  if (offset.length > 1 || (offset.length === 1 && !OFFSET.test(offset[0]!))) return error(400, "invalid_offset");
  if (category.length > 1) return error(400, "category_not_found");
  const filter = category.length === 1 ? catalog.categoryBySlug.get(category[0]!) : undefined;
  if (category.length === 1 && !filter) return error(404, "category_not_found"); // Q5
  const members = filter ? filter.members : catalog.tools.map((t) => t.slug);
  const meta: ListMeta = {
    total: members.length,
    limit: limit.length ? Number(limit[0]) : 20,
    offset: offset.length ? Number(offset[0]) : 0,
    category: filter ? filter.slug : null,
  };
  if (meta.offset > meta.total) return error(400, "offset_out_of_range"); // Q4
  return { status: 200, kind: "list", meta, slugs: members.slice(meta.offset, meta.offset + meta.limit) };
}

/** GET /search?rawQuery (S1–S3) */
export function predictSearch(rawQuery: string, catalog: Catalog): Prediction {
  const q = queryValues(rawQuery).get("q") ?? [];
  if (q.length !== 1 || !/^[a-z0-9]{1,32}$/.test(q[0]!)) return error(400, "invalid_query");
  const matches = bruteForceSearch(catalog.tools, q[0]!);
  return { status: 200, kind: "search", total: matches.length, slugs: matches.slice(0, 20).map((t) => t.slug) };
}

const decode = (segment: string): string | null => {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
};

/** GET rawPath?rawQuery, as sent (after the client's own normalisation). */
export function predict(rawPath: string, rawQuery: string, catalog: Catalog): Prediction {
  const notFound = error(404, "not_found");
  // the docs page and its assets (routes.json `assets`): the raw path exactly, before anything else
  const asset = catalog.assets.find((a) => a.path === rawPath);
  if (asset) return { status: 200, kind: "asset", file: asset.file, contentType: asset.contentType };
  const path = rawPath.length > 1 && rawPath.endsWith("/") ? rawPath.slice(0, -1) : rawPath; // P2: one trailing slash
  if (!path.startsWith(`${catalog.basePath}/`)) return notFound; // P1: nothing else outside the base path
  // P3: decode each segment; one that cannot be decoded, or is empty, matches nothing
  const segments = path
    .slice(catalog.basePath.length + 1)
    .split("/")
    .map(decode);
  if (segments.some((s) => s === null || s === "")) return notFound;
  const [first, second, ...more] = segments as string[];
  // E2: each piece a shard names, at /sync/pieces/<id>.json
  if (first === "sync" && second === "pieces" && more.length === 1)
    return catalog.syncPieces.has(more[0]!) ? { status: 200, kind: "piece", piece: more[0]! } : notFound;
  if (more.length > 0) return notFound;
  if (second === undefined) {
    if (first === "software") return predictList(rawQuery, catalog);
    if (first === "categories") return { status: 200, kind: "categories" };
    if (first === "openapi.json") return { status: 200, kind: "openapi" };
    if (first === "search") return predictSearch(rawQuery, catalog);
    return notFound;
  }
  if (first === "export" && second === "catalog.json") return { status: 200, kind: "export" };
  // E2: the root, and each shard it names
  if (first === "sync" && (second === "index.json" || catalog.syncShards.has(second)))
    return { status: 200, kind: "sync", shard: second };
  if (first === "software")
    return catalog.toolBySlug.has(second)
      ? { status: 200, kind: "tool", slug: second }
      : error(404, "software_not_found");
  if (first === "best") {
    // O4: unknown and empty categories alike
    const members = catalog.categoryBySlug.get(second)?.members.length ?? 0;
    return members > 0 ? { status: 200, kind: "best", category: second } : error(404, "category_not_found");
  }
  return notFound;
}
