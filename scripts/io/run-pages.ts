// A list page of a runs build (L2): `{"data":[` + one slice of its list's run + the meta, written into one buffer
// around one positioned read, so the page is byte for byte the page file a pages build holds (page-envelope.ts) and
// nothing is copied twice. Where the slice lies comes from the build's index (build-index.ts), read with the route
// table when the handler starts: no request reads the offsets file. The run is opened per read, as a page file would
// be: a run removed or cut under the server is noticed by the next read (H7), and a handler never reads another
// generation's run (its root is one generation folder).
import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { open } from "node:fs/promises";
import { join } from "node:path";
import { type NamedPage, StorageFault } from "../api/runtime/build-index.ts";
import { PAGE_PREFIX } from "../api/runtime/page-envelope.ts";
import { runFile } from "../render/list-runs.ts";

const PREFIX = Buffer.from(PAGE_PREFIX);

/** The run file a page is read from, relative to the build. */
const runOfPage = (page: NamedPage): string => runFile(page.list.filter);

// `file` below names the page (and its run) in a storage fault.

/** Where the page's items lie in its run, once the run's size is the index's (else a storage fault). */
function sliceOf(file: string, page: NamedPage, runSize: number): { start: number; length: number } {
  if (runSize !== page.list.runLength)
    throw new StorageFault(file, `its run holds ${runSize} bytes where the build wrote ${page.list.runLength}`);
  return page.list.slice(page.limit, page.offset);
}

/** The page in `into` once `got` bytes of its slice were read after the prefix: the suffix written after them. */
function finish(file: string, page: NamedPage, into: Buffer, got: number, wanted: number): Buffer {
  if (got !== wanted) throw new StorageFault(file, `its run ended after ${got} of the page's ${wanted} bytes`);
  const end = PREFIX.length + got;
  return into.subarray(0, end + into.write(page.list.suffix(page.limit, page.offset), end, "utf8"));
}

/** The page read synchronously (open, fstat, one pread, close): the run is in the page cache, as files are. `into`
 *  holds at least the page's bytes. */
export function readRunPageSync(root: string, file: string, page: NamedPage, into: Buffer): Buffer {
  const fd = openSync(join(root, runOfPage(page)), "r");
  try {
    const slice = sliceOf(file, page, fstatSync(fd).size);
    PREFIX.copy(into, 0);
    let got = 0;
    // A regular file reads short only at its end; a read that returns 0 ends it.
    for (let n = -1; got < slice.length && n !== 0; got += n)
      n = readSync(fd, into, PREFIX.length + got, slice.length - got, slice.start + got);
    return finish(file, page, into, got, slice.length);
  } finally {
    closeSync(fd);
  }
}

/** The same through the thread pool (when descriptors ran out for the synchronous read). */
export async function readRunPage(root: string, file: string, page: NamedPage, into: Buffer): Promise<Buffer> {
  const handle = await open(join(root, runOfPage(page)), "r");
  try {
    const slice = sliceOf(file, page, (await handle.stat()).size);
    PREFIX.copy(into, 0);
    let got = 0;
    for (let n = -1; got < slice.length && n !== 0; got += n)
      n = (await handle.read(into, PREFIX.length + got, slice.length - got, slice.start + got)).bytesRead;
    return finish(file, page, into, got, slice.length);
  } finally {
    await handle.close();
  }
}
