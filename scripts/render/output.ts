import type { RouteTable } from "../api/runtime/route-table.ts";
import { sha1 } from "../launcher/file-hashes.cjs";

/** One file of dist/: a path relative to dist/ and its exact bytes. Render functions return these; only io/ writes them. */
export interface OutputFile {
  path: string;
  /** may be a getter that renders on first read (lazyJsonFile): a writer that keeps the file by its key never reads it */
  body: string | Uint8Array;
  /**
   * Names everything the body is made from but the build's code (which a change of forces a full build). A writer
   * whose previous build wrote the same key at this path keeps that file without rendering or hashing the body.
   */
  key?: string;
  /**
   * Validates the value the body was serialized from (throws when it breaks its schema). Called by the writer for
   * each file it writes: a body equal to one the previous build of the same code wrote was checked then.
   */
  check?: () => void;
  /** the request target a client sends for this body (`/v1/software/x`), when a full host serves it by URL (E2) */
  target?: string;
  /**
   * The body as consecutive pieces, each ending where a character does, for a body too large to hold whole: a writer
   * that does not compress it hashes and writes it piece by piece (write-in-pieces.ts). `body` is their join. A piece
   * given as bytes (UTF-8, read back from a file the build before wrote) goes to the disk as it is, never decoded.
   */
  pieces?: () => Iterable<BodyText>;
  /** the body's SHA-256 (hex), when the renderer knows it already (a piece, named by it): the writer hashes it no more */
  sha256?: string;
}

/**
 * Files made from the same inputs, each keyed by the group's key, whose paths those inputs decide too (the search
 * answers: every one is made from all the summaries, and the names in them make the prefixes). A writer whose
 * previous build wrote files under this key keeps exactly those, without making this build's or listing them.
 */
export interface OutputGroup {
  key: string;
  files: () => Iterable<OutputFile>;
  /** the request target of the group's file at `path` (the `target` its OutputFile has) */
  targetOf: (path: string) => string;
}

const tableKeys = new WeakMap<RouteTable, string>();

/**
 * The key of a file made from the route table alone (and the build's code, whose change rebuilds everything): the
 * table's own hash, made once per table. A rebuild keeps the host configs without rendering them.
 */
export function routeTableKey(table: RouteTable): string {
  let key = tableKeys.get(table);
  if (!key) tableKeys.set(table, (key = `routes ${sha1(JSON.stringify(table))}`));
  return key;
}

/** Response bodies are compact JSON: no whitespace, no trailing newline, keys in insertion (contract) order. */
export const json = (value: unknown): string => JSON.stringify(value);

/** A part of a body: text, or its UTF-8 bytes as read from a file. */
export type BodyText = string | Uint8Array;

/** Parts joined as one text (a body held whole: only where a caller asks for it). */
export const joinTexts = (texts: Iterable<BodyText>): string =>
  Array.from(texts, (t) =>
    typeof t === "string" ? t : Buffer.from(t.buffer, t.byteOffset, t.byteLength).toString(),
  ).join("");

// Lazy files are class instances, not object literals with a getter: V8 makes each such literal a dictionary
// (hundreds of bytes, and slow to make), and a build makes one per tool.

/**
 * A file whose body is rendered only when a writer reads it, and not remembered: the writer reads it once, and a
 * build holds every file until it ends (at 103,528 tools the detail bodies alone are ~100 MB of strings).
 */
class LazyFile implements OutputFile {
  readonly path: string;
  readonly key: string | undefined;
  readonly target: string | undefined;
  readonly sha256: string | undefined;
  readonly #render: () => string | Uint8Array;
  readonly #check: (() => void) | undefined;

  constructor(
    path: string,
    key: string | undefined,
    render: () => string | Uint8Array,
    check: (() => void) | undefined,
    target: string | undefined,
    sha256: string | undefined,
  ) {
    this.path = path;
    this.key = key;
    this.target = target;
    this.sha256 = sha256;
    this.#render = render;
    this.#check = check;
  }

  get body(): string | Uint8Array {
    return this.#render();
  }

  check(): void {
    this.#check?.();
  }
}

/**
 * A JSON body made, serialized and checked only when a writer needs it. The value is made once for its body and its
 * check (the writer reads the body, then checks the value) and let go once checked; the body is not remembered.
 */
class LazyJsonFile<T> implements OutputFile {
  readonly path: string;
  readonly key: string | undefined;
  readonly target: string | undefined;
  readonly #make: () => T;
  readonly #check: (value: T) => void;
  #value: { v: T } | undefined;

  constructor(path: string, key: string | undefined, make: () => T, check: (value: T) => void, target?: string) {
    this.path = path;
    this.key = key;
    this.target = target;
    this.#make = make;
    this.#check = check;
  }

  #made(): T {
    return (this.#value ??= { v: this.#make() }).v;
  }

  get body(): string {
    return json(this.#made());
  }

  check(): void {
    this.#check(this.#made());
    this.#value = undefined;
  }
}

/** A body made in pieces (OutputFile.pieces), made again on each reading; checked by `check`, which needs no body. */
class PiecedFile implements OutputFile {
  readonly path: string;
  readonly key: string | undefined;
  readonly target: string | undefined;
  readonly pieces: () => Iterable<BodyText>;
  readonly check: (() => void) | undefined;

  constructor(
    path: string,
    key: string | undefined,
    pieces: () => Iterable<BodyText>,
    check: (() => void) | undefined,
    target: string | undefined,
  ) {
    this.path = path;
    this.key = key;
    this.target = target;
    this.pieces = pieces;
    this.check = check;
  }

  get body(): string {
    return joinTexts(this.pieces());
  }
}

/** A file whose body is rendered only when a writer reads it, at most once; `target` and `sha256` as in OutputFile. */
export const lazyFile = (
  path: string,
  key: string | undefined,
  render: () => string | Uint8Array,
  check?: () => void,
  target?: string,
  sha256?: string,
): OutputFile => new LazyFile(path, key, render, check, target, sha256);

/** A JSON body made, serialized and checked only when a writer needs it, each at most once. */
export const lazyJsonFile = <T>(
  path: string,
  key: string | undefined,
  make: () => T,
  check: (value: T) => void,
  target?: string,
): OutputFile => new LazyJsonFile(path, key, make, check, target);

/** A body made in pieces (see OutputFile.pieces), with no key: made whenever it is written; `target` as in OutputFile. */
export const piecedFile = (
  path: string,
  pieces: () => Iterable<BodyText>,
  check: () => void,
  target?: string,
): OutputFile => new PiecedFile(path, undefined, pieces, check, target);

/**
 * A body made in pieces and keyed (OutputFile.key): a writer whose previous build wrote the same key keeps it unmade;
 * else it is made piece by piece as it is written, and never held whole.
 */
export const keyedPiecedFile = (path: string, key: string, pieces: () => Iterable<BodyText>): OutputFile =>
  new PiecedFile(path, key, pieces, undefined, undefined);
