// What a build names, as every full host reads it: each served file's size (pieces included), and each list's items'
// lengths and pieces (a list page exists when its offset is within its list). A host asks here before it reads, so a body the build names but
// the storage cannot give is a storage fault (503), never a 404 or a "no match" (H7); and it never looks up a file
// the build does not name. Written by the build beside routes.json (a build record, never served). Web APIs only.
import { PAGE_PREFIX, pageOfFile, pageSuffix } from "./page-envelope.ts";

export const BUILD_INDEX_FILE = "build-index.json";
/** Raised when the file's shape changes: a host refuses an index of another format (built by another version). */
export const BUILD_INDEX_FORMAT = 2;

/** How a build holds its lists: a file per page (the default), or each list once as a run (L2). */
export type BuildLayout = "pages" | "runs";

export interface BuildIndexText {
  format: typeof BUILD_INDEX_FORMAT;
  layout: BuildLayout;
  /** every served file but the list pages (pieces included), with its size in bytes, in path order */
  files: [path: string, size: number][];
  /** each list by filter (`all`, `category/seo`): its meta.category, each item's length in bytes in list order, and its
   *  pieces in order (each piece's id and how many items it holds) */
  lists: Record<string, ListIndexText>;
}

export interface ListIndexText {
  category: string | null;
  lengths: number[];
  pieces: [id: string, items: number][];
}

/** One list: where each item starts in its run (`items joined by ","`), so a page is one slice of it. */
export class ListIndex {
  readonly total: number;
  /** `starts[i]`: the byte where item i starts in the run; `starts[total]`: the run's length plus one */
  private readonly starts: Float64Array;

  constructor(
    readonly filter: string,
    readonly category: string | null,
    lengths: readonly number[],
    /** its pieces in order: each one's id and how many items it holds (the list's items, cut where the content says) */
    readonly pieces: readonly (readonly [id: string, items: number])[] = [],
  ) {
    this.total = lengths.length;
    this.starts = new Float64Array(lengths.length + 1);
    for (let i = 0; i < lengths.length; i++) this.starts[i + 1] = this.starts[i]! + lengths[i]! + 1;
  }

  /** Items offset … offset+limit−1 in the run: where they start and how many bytes (commas between them included). */
  slice(limit: number, offset: number): { start: number; length: number } {
    const end = Math.min(offset + limit, this.total);
    if (offset >= end) return { start: this.starts[Math.min(offset, this.total)]!, length: 0 };
    return { start: this.starts[offset]!, length: this.starts[end]! - this.starts[offset]! - 1 };
  }

  /** The run's length in bytes. */
  get runLength(): number {
    return Math.max(0, this.starts[this.total]! - 1);
  }

  /** What follows a page's items (page-envelope.ts). */
  suffix(limit: number, offset: number): string {
    return pageSuffix(this.total, limit, offset, JSON.stringify(this.category));
  }

  /** The bytes of page (limit, offset): the envelope around its slice. */
  pageSize(limit: number, offset: number): number {
    return PAGE_PREFIX.length + this.slice(limit, offset).length + this.suffix(limit, offset).length;
  }
}

export interface NamedPage {
  list: ListIndex;
  limit: number;
  offset: number;
}

export class BuildIndex {
  readonly layout: BuildLayout;
  private readonly sizes: Map<string, number>;
  private readonly lists: Map<string, ListIndex>;
  private readonly listPrefix: string;

  /** `pageTemplate`: where the route table looks for a list page (route-table.ts layout). */
  constructor(
    text: BuildIndexText,
    private readonly pageTemplate: string,
  ) {
    if (text.format !== BUILD_INDEX_FORMAT) throw new Error(`${BUILD_INDEX_FILE} is of another format`);
    this.layout = text.layout;
    this.sizes = new Map(text.files);
    this.lists = new Map(
      Object.entries(text.lists).map(([filter, l]) => [filter, new ListIndex(filter, l.category, l.lengths, l.pieces)]),
    );
    this.listPrefix = pageTemplate.slice(0, pageTemplate.indexOf("{filter}"));
  }

  /** The index as the build wrote it (JSON text). */
  static parse(json: string, pageTemplate: string): BuildIndex {
    return new BuildIndex(JSON.parse(json) as BuildIndexText, pageTemplate);
  }

  list(filter: string): ListIndex | undefined {
    return this.lists.get(filter);
  }

  /** A page file the build names (its list holds its offset), or undefined for any other file. */
  page(file: string): NamedPage | undefined {
    const at = pageOfFile(this.pageTemplate, file);
    if (!at) return undefined;
    const list = this.lists.get(at.list.slice(this.listPrefix.length));
    return list && at.offset <= list.total ? { list, limit: at.limit, offset: at.offset } : undefined;
  }

  /** The bytes of `file` as the build wrote it (a page's as its envelope and slice make it), or undefined when the
   *  build names no such file. */
  sizeOf(file: string): number | undefined {
    const size = this.sizes.get(file);
    if (size !== undefined) return size;
    const page = this.page(file);
    return page?.list.pageSize(page.limit, page.offset);
  }
}

/** The index text of a build: its served files' sizes (pages aside) and its lists, in a stable order (H6). The format
 *  and the layout come first: a host may read the layout from the file's first bytes. */
export function buildIndexText(
  layout: BuildLayout,
  files: Iterable<[path: string, size: number]>,
  lists: readonly ({ filter: string } & ListIndexText)[],
): string {
  const text: BuildIndexText = {
    format: BUILD_INDEX_FORMAT,
    layout,
    files: [...files].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
    lists: Object.fromEntries(
      [...lists]
        .sort((a, b) => (a.filter < b.filter ? -1 : a.filter > b.filter ? 1 : 0))
        .map((l) => [l.filter, { category: l.category, lengths: l.lengths, pieces: l.pieces }]),
    ),
  };
  return JSON.stringify(text);
}

/** Thrown when a body the build names cannot be read whole: answered 503, never remembered (H7). */
export class StorageFault extends Error {
  constructor(
    readonly file: string,
    readonly reason: string,
  ) {
    super(`${file}: ${reason}`);
  }
}
