// dist/ files in memory with their ETags, bounded by bytes (keys included). Eviction is second-chance FIFO: a hit only
// sets a flag (no map mutation on the hot path); a flagged entry at the front gets moved to the back once instead of
// evicted. A cache serves one published build (one generation folder, never modified) and is asked only for files the
// build names (build-index.ts), each with the size the build wrote: one it cannot read whole is a storage fault, never
// a miss, and never kept (H7). A file is kept only from its second request among the recently seen ones
// (admission.ts): the first one is read, answered and dropped. A list page of a runs build is read from its list's run
// (run-pages.ts) and kept under its page's path as any file; its codings are compressed on first use and kept with it.
import { readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { etagOf } from "../../../api/etag-node.ts";
import { type BuildIndex, type NamedPage, StorageFault } from "../../../api/runtime/build-index.ts";
import { CODINGS, type Coding, MIN_COMPRESS_BYTES } from "../../../api/runtime/route-table.ts";
import { encodeBody } from "../../../io/encodings.ts";
import { readRunPage, readRunPageSync } from "../../../io/run-pages.ts";
import { runFile } from "../../../render/list-runs.ts";
import { DEFAULT_RECENT_BYTES, Doorkeeper } from "./admission.ts";
import { BodyPool, type PooledBody, SLAB_BYTES } from "./body-pool.ts";

export interface CachedFile {
  body: Buffer;
  /** strong validator: a hash of the bytes, the same on every host and every rebuild of the same content (H6) */
  etag: string;
  /** precompressed siblings written by `build --compress` (x.json.br, x.json.gz), when present; for a page from a
   *  run, those compressed so far (FileCache.coded) */
  encoded: { name: Coding; body: Buffer }[];
  /** the codings offered (what the answer policy weighs): the names of `encoded`, in the same order, or for a page
   *  from a run those its build offers for a body of its size */
  codings: Coding[];
  /** the handler's header lists for this file, built on first use (they go with the file when it is dropped) */
  headers?: string[][];
  /** set on a file read for one response and not cached (`take`): gives its body's buffer back, once that response
   *  is handed to the kernel; `body` must not be read after */
  release?: () => void;
}

/** Out of file descriptors (this process or the whole system): a passing condition, never "no such file". */
export class FilesUnavailable extends Error {
  constructor(readonly file: string) {
    super(`too many open files reading ${file}`);
  }
}

/** Lookup errors that mean "no such file here": for a body the build names, a storage fault like any other. */
const MISSING = new Set(["ENOENT", "ENOTDIR", "EISDIR", "ENAMETOOLONG"]);
const OUT_OF_FILES = new Set(["EMFILE", "ENFILE"]);

interface Entry {
  value: CachedFile;
  used: boolean;
  bytes: number;
}

/** What a failed read says of its cause, for the log: the error's code, or its message. */
const causeOf = (e: unknown): string => {
  const code = (e as NodeJS.ErrnoException).code;
  return code ? (MISSING.has(code) ? `missing (${code})` : `unreadable (${code})`) : String((e as Error).message);
};

/** What an entry costs besides its bodies: the key (UTF-16 in memory), the map slot and the objects. */
const entryOverhead = (key: string) => 2 * key.length + 160;

export interface FileCacheOptions {
  maxBytes?: number;
  /** bytes of recently seen names a file must be among to be cached (admission.ts); 0 caches every file at once */
  recentBytes?: number;
  /** files read at once: each read holds up to one descriptor, so a burst cannot exhaust the process's limit */
  maxOpen?: number;
  /** waits (ms) before each retry when the process or system is out of descriptors; then FilesUnavailable */
  retryDelays?: number[];
  /** how bytes are read after a failure for lack of descriptors (tests inject failures) */
  readFile?: (path: string) => Promise<Buffer>;
  /** whether the build wrote precompressed siblings at all: without them, no lookup per file is spent on them */
  siblings?: boolean;
  /** a runs build's index: its list pages are read from their runs (run-pages.ts), offered in the codings the build's
   *  siblings have (`siblings`) */
  runs?: BuildIndex;
}

export class FileCache {
  private readonly entries = new Map<string, Entry>();
  private readonly doorkeeper: Doorkeeper;
  private readonly pool = new BodyPool();
  private bytes = 0;
  private readonly maxBytes: number;
  private readonly maxOpen: number;
  private readonly retryDelays: number[];
  private readonly readFile: (path: string) => Promise<Buffer>;
  private readonly siblings: boolean;
  private readonly runs: BuildIndex | undefined;
  private readonly injected: boolean;
  private open = 0;
  private readonly waiting: (() => void)[] = [];
  /** one read per file at a time: concurrent misses of the same file share it */
  private readonly loading = new Map<string, Promise<CachedFile>>();

  constructor(
    private readonly root: string,
    options: FileCacheOptions | number = {},
  ) {
    const o = typeof options === "number" ? { maxBytes: options } : options;
    this.maxBytes = o.maxBytes ?? 64 * 1024 * 1024;
    this.doorkeeper = new Doorkeeper(o.recentBytes ?? DEFAULT_RECENT_BYTES);
    this.maxOpen = o.maxOpen ?? 64;
    this.retryDelays = o.retryDelays ?? [5, 20, 50, 100, 200, 400];
    this.readFile = o.readFile ?? readFile;
    this.injected = o.readFile !== undefined;
    this.siblings = o.siblings ?? true;
    this.runs = o.runs;
  }

  /** The file if cached, else undefined. */
  peek(file: string): CachedFile | undefined {
    const entry = this.entries.get(file);
    if (!entry) return undefined;
    entry.used = true;
    return entry.value;
  }

  /** Bytes held, keys and bodies together, and the recently seen names. */
  get size(): number {
    return this.bytes + this.doorkeeper.size;
  }

  /**
   * The file the build wrote at `file`, `size` bytes. Rejects with StorageFault when it cannot be read whole (missing,
   * unreadable, or of another size), and with FilesUnavailable when descriptors stay exhausted.
   */
  get(file: string, size: number): Promise<CachedFile> {
    return this.lookup(file, size, false);
  }

  /**
   * The file for one response: as `get`, except that a file not kept in the cache is read into a pooled buffer (its
   * `release` gives it back). Never shared with another caller, so the buffer is the caller's alone.
   */
  take(file: string, size: number): Promise<CachedFile> {
    return this.lookup(file, size, true);
  }

  private lookup(file: string, size: number, pooled: boolean): Promise<CachedFile> {
    const known = this.peek(file);
    if (known !== undefined) return Promise.resolve(known);
    // Asynchronous reads are shared between concurrent callers: those get owned bytes.
    if (pooled && this.open === 0 && !this.injected && !this.loading.has(file)) return this.load(file, size, true);
    let pending = this.loading.get(file);
    if (!pending) {
      pending = this.load(file, size).finally(() => this.loading.delete(file));
      this.loading.set(file, pending);
    }
    return pending;
  }

  private async load(file: string, size: number, pooled = false): Promise<CachedFile> {
    const page = this.runs?.page(file);
    if (page) return this.loadPage(file, size, page, pooled);
    const path = join(this.root, file);
    const fromPool = pooled && size < SLAB_BYTES ? this.readPooled(path, file) : undefined;
    const body = fromPool === undefined ? await this.read(path, file) : fromPool.body;
    if (body.byteLength !== size) {
      fromPool?.release();
      throw new StorageFault(file, `${body.byteLength} bytes where the build wrote ${size}`);
    }
    // The build writes siblings only for bodies worth compressing: a small body has none to look for.
    const encoded: CachedFile["encoded"] = [];
    if (this.siblings && body.byteLength >= MIN_COMPRESS_BYTES) {
      for (const c of CODINGS) {
        const sibling = await this.read(path + c.suffix, file + c.suffix, true);
        if (sibling) encoded.push({ name: c.name, body: sibling });
      }
    }
    return this.loaded(file, { body, etag: etagOf(body), encoded, codings: encoded.map((e) => e.name) }, fromPool);
  }

  /** A list page of a runs build: its envelope around one positioned read of its run, into a pooled buffer when it is
   *  for one response and fits. Offered in the codings a page file of its size would have beside it. */
  private async loadPage(file: string, size: number, page: NamedPage, pooled: boolean): Promise<CachedFile> {
    const slab = pooled && size <= SLAB_BYTES ? this.pool.lend() : undefined;
    const into = slab?.body ?? Buffer.allocUnsafeSlow(size);
    // A fault names the page and the run it is read from.
    const named = `${file} (from ${runFile(page.list.filter)})`;
    let body: Buffer;
    try {
      body = (await this.attempt(
        named,
        false,
        () => readRunPageSync(this.root, named, page, into),
        () => readRunPage(this.root, named, page, into),
      ))!;
    } catch (e) {
      slab?.release();
      throw e;
    }
    if (body.byteLength !== size) {
      slab?.release();
      throw new StorageFault(file, `${body.byteLength} bytes where the build wrote ${size}`);
    }
    const codings = this.siblings && size >= MIN_COMPRESS_BYTES ? CODINGS.map((c) => c.name) : [];
    return this.loaded(
      file,
      { body, etag: etagOf(body), encoded: [], codings },
      slab && { body, release: slab.release },
    );
  }

  /** A file just read, kept when admitted (owning its bytes), else handed out with its pooled buffer's release. */
  private loaded(file: string, loaded: CachedFile, fromPool: PooledBody | undefined): CachedFile {
    if (this.admits(file)) {
      if (fromPool) {
        loaded.body = Buffer.from(loaded.body); // a cached body owns its bytes
        fromPool.release();
      }
      this.store(file, loaded);
    } else if (fromPool) loaded.release = fromPool.release;
    return loaded;
  }

  /**
   * `cached`'s body in `coding`: the sibling the build wrote, or for a page from a run, compressed now as the build
   * compresses a sibling (the same bytes) and kept with the page, counted against the cache's bound.
   */
  coded(file: string, cached: CachedFile, coding: Coding): Buffer {
    const known = cached.encoded.find((e) => e.name === coding);
    if (known) return known.body;
    const body = encodeBody(coding, cached.body);
    cached.encoded.push({ name: coding, body });
    const entry = this.entries.get(file);
    if (entry?.value === cached) {
      entry.bytes += body.byteLength;
      this.bytes += body.byteLength;
      this.evict(file);
    }
    return body;
  }

  /** Read into a pooled buffer: undefined when it has to be read otherwise (too large, no descriptor). */
  private readPooled(path: string, file: string) {
    try {
      return this.pool.read(path) ?? undefined;
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code ?? "";
      if (OUT_OF_FILES.has(code)) return undefined;
      throw new StorageFault(file, causeOf(e));
    }
  }

  /**
   * One file's bytes. Read synchronously first: the bodies are small and in the page cache, where one blocking read
   * (four syscalls, tens of microseconds) beats four thread-pool round trips many times over. Out of descriptors, it
   * waits for a slot and retries asynchronously while the system is out of them. A file it cannot read is a
   * StorageFault; `optional` (a precompressed sibling): a missing one is null.
   */
  private async read(path: string, file: string, optional: true): Promise<Buffer | null>;
  private async read(path: string, file: string, optional?: false): Promise<Buffer>;
  private async read(path: string, file: string, optional = false): Promise<Buffer | null> {
    return this.attempt(
      file,
      optional,
      () => readFileSync(path),
      () => this.readFile(path),
    );
  }

  /**
   * One read, synchronous first (`sync`), then, out of descriptors, `async` once a slot is free, retried while the
   * system is out of them. A storage fault is thrown as it is; any other failure becomes one, except a missing file
   * when `optional` (null).
   */
  private async attempt<T>(file: string, optional: boolean, sync: () => T, async: () => Promise<T>): Promise<T | null> {
    const failed = (e: unknown): null => {
      if (e instanceof StorageFault) throw e;
      const code = (e as NodeJS.ErrnoException).code ?? "";
      if (optional && MISSING.has(code)) return null;
      throw new StorageFault(file, causeOf(e));
    };
    if (this.open === 0 && !this.injected) {
      try {
        return sync();
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code ?? "";
        if (!OUT_OF_FILES.has(code)) return failed(e);
      }
    }
    for (let attempt = 0; ; attempt++) {
      if (this.open >= this.maxOpen) await new Promise<void>((r) => this.waiting.push(r));
      this.open++;
      try {
        return await async();
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code ?? "";
        if (!OUT_OF_FILES.has(code)) return failed(e);
        if (attempt >= this.retryDelays.length) throw new FilesUnavailable(file);
      } finally {
        this.open--;
        this.waiting.shift()?.();
      }
      await new Promise((r) => setTimeout(r, this.retryDelays[attempt]));
    }
  }

  /** Whether a file just read is to be kept (not already, and asked for recently before). */
  private admits(file: string): boolean {
    return !this.entries.has(file) && this.doorkeeper.admit(file);
  }

  private store(file: string, value: CachedFile): void {
    const bytes = entryOverhead(file) + sizeOf(value);
    this.entries.set(file, { value, used: false, bytes });
    this.bytes += bytes;
    this.evict(file);
  }

  /** Entries evicted from the front until the bytes are within the bound; `file` (just stored or grown) stays. */
  private evict(file: string): void {
    // Bounded: each entry gets at most one second chance per pass.
    for (let budget = this.entries.size * 2; budget > 0 && this.bytes > this.maxBytes; budget--) {
      const [key, oldest] = this.entries.entries().next().value as [string, Entry];
      this.entries.delete(key);
      if (oldest.used && key !== file) {
        oldest.used = false;
        this.entries.set(key, oldest);
      } else this.bytes -= oldest.bytes;
    }
  }
}

const sizeOf = (f: CachedFile) => f.encoded.reduce((n, e) => n + e.body.byteLength, f.body.byteLength);
