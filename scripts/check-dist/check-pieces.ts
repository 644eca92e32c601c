// What `npm run validate` checks of a build's pieces (E2), beyond each piece file against its schema (schema-map.json
// does that): each is named by its SHA-256, and they are what the lists and the catalog body are made of: a list's
// pieces, their brackets taken off and joined by `,`, are its run, holding as many items as the index says, and the
// catalog body is its parts as the hash tree names them. A piece that nothing names is a problem too. Both layouts
// hold pieces and runs, so both are checked.
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { BuildIndex } from "../api/runtime/build-index.ts";
import { fill, layout } from "../api/runtime/route-table.ts";
import { runFile } from "../render/list-runs.ts";

type PieceRow = [id: string, items: number, size: number];
type Part = { text: string } | { pieces: PieceRow[] };

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

/** Checks the pieces of the build in `realDir`; problems are pushed, paths relative to it. Returns how many pieces. */
export function checkPieces(realDir: string, basePath: string, index: BuildIndex, problems: string[]): number {
  const files = layout(basePath);
  const fileOf = (id: string) => fill(files.syncPiece, { piece: `${id}.json` });
  const named = new Set<string>();
  const read = new Map<string, Buffer | null>();
  /** A piece's items without its brackets, once its bytes are checked against its name; null when they are not. */
  const inner = (id: string): Buffer | null => {
    named.add(id);
    if (read.has(id)) return read.get(id)!;
    let body: Buffer | null = null;
    try {
      body = readFileSync(join(realDir, fileOf(id)));
    } catch (e) {
      problems.push(`${fileOf(id)}: missing or unreadable (${(e as NodeJS.ErrnoException).code}): the build names it`);
    }
    if (body && sha256(body) !== id) {
      problems.push(`${fileOf(id)}: its bytes are not the piece its name is the SHA-256 of`);
      body = null;
    }
    const items = body && body[0] === 0x5b && body[body.length - 1] === 0x5d ? body.subarray(1, -1) : null;
    if (body && !items) problems.push(`${fileOf(id)}: not [ its items ]`);
    read.set(id, items);
    return items;
  };
  const joined = (ids: string[]): Buffer | null => {
    const parts = ids.map(inner);
    if (parts.some((p) => p === null)) return null;
    return Buffer.concat(parts.flatMap((p, i) => (i === 0 ? [p!] : [Buffer.from(","), p!])));
  };

  for (const list of index.allLists()) {
    const run = joined(list.pieces.map(([id]) => id));
    const items = list.pieces.reduce((n, [, count]) => n + count, 0);
    if (items !== list.total)
      problems.push(`${runFile(list.filter)}: its pieces hold ${items} items where the index says ${list.total}`);
    let bytes: Buffer | undefined;
    try {
      bytes = readFileSync(join(realDir, runFile(list.filter)));
    } catch {
      continue; // a run missing is check-runs.ts's problem to name (a runs build); a pages build still has its pages
    }
    if (run && !run.equals(bytes)) problems.push(`${runFile(list.filter)}: not its pieces joined`);
  }

  // The catalog body: its parts as the catalog shard names them.
  const target = `${basePath}/export/catalog.json`;
  const shard = fill(files.syncShard, { shard: "catalog.json" });
  try {
    const entry = (
      JSON.parse(readFileSync(join(realDir, shard), "utf8")) as { data: Record<string, { parts?: Part[] }> }
    ).data[target];
    if (!entry?.parts) problems.push(`${shard}: names no parts of ${target}`);
    else {
      const body: Buffer[] = [];
      let whole = true;
      for (const part of entry.parts) {
        if ("text" in part) body.push(Buffer.from(part.text));
        else {
          const pieces = joined(part.pieces.map(([id]) => id));
          if (pieces) body.push(pieces);
          else whole = false;
        }
      }
      if (whole && !Buffer.concat(body).equals(readFileSync(join(realDir, files.export))))
        problems.push(`${files.export}: not its parts joined, as ${shard} names them`);
    }
  } catch (e) {
    problems.push(`${shard}: cannot be read (${(e as Error).message.slice(0, 120)})`);
  }

  const folder = fill(files.syncPiece, { piece: "" });
  let held: string[] = [];
  try {
    held = readdirSync(join(realDir, folder)).filter((name) => name.endsWith(".json"));
  } catch {}
  for (const name of held)
    if (!named.has(name.slice(0, -".json".length)))
      problems.push(`${folder}${name}: named by no list and not by ${target}`);
  return named.size;
}
