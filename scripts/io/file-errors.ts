// A file system error names the file it was writing (a full disk's ENOSPC among them): the one line a build prints.

/** Errors of calls on a file descriptor carry no path: add it, so the one-line message can name it. */
export function withPath(e: unknown, path: string): unknown {
  const err = e as NodeJS.ErrnoException;
  if (err && typeof err === "object" && err.code && !err.path) err.path = path;
  return e;
}
