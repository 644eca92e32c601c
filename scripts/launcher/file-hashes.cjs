// Content hashes of files, remembered by each file's signature (device, inode, size, modification and change
// times) as git's index does: a file whose signature is unchanged is not read again, which is most of the start-up
// of a small rebuild when the disk cache is cold. A file changed in the last few seconds is always read: an edit
// within the same clock tick could leave its signature as it was ("racy git").
const { hash } = require("node:crypto");
const { readFileSync, statSync } = require("node:fs");
const { join } = require("node:path");
const { CACHE_DIR, PROJECT_ROOT, writeCacheFile } = require("./project-cache.cjs");

/** Longer than any file system's timestamp granularity. */
const SETTLE_NS = 2_000_000_000n;
const MEMO_FILE = join(CACHE_DIR, "file-hashes.json");

/**
 * A signature of `stats` (taken with `bigint: true`) that proves a file unchanged while it stays the same, or
 * undefined when the file changed too shortly before `nowMs` for that.
 */
function signatureOf(stats, nowMs = Date.now()) {
  // biome-ignore lint/complexity/useMathMinMax: BigInt nanoseconds, which Math.max refuses
  const changed = stats.ctimeNs > stats.mtimeNs ? stats.ctimeNs : stats.mtimeNs;
  if (changed > BigInt(nowMs) * 1_000_000n - SETTLE_NS) return undefined;
  // Joined: one flat string (a template leaves a rope of nine nodes, kept for every content file).
  return [stats.dev, stats.ino, stats.size, stats.mtimeNs, stats.ctimeNs].join(":");
}

// crypto.hash (one call, no Hash object): twice as fast for the thousand list items a rebuild hashes one by one.
const sha1 = (bytes) => hash("sha1", bytes, "base64url");

/**
 * path → [signature, hash] of this project's files; entries of files since deleted stay (a project has a few hundred
 * files). Copies of the project that share its node_modules (a test's clean copy) share the file, not its entries.
 */
let memo;
/** what this process hashed: saved over whatever other commands saved meanwhile */
const learned = new Map();

function loadMemo() {
  try {
    return new Map(Object.entries(JSON.parse(readFileSync(MEMO_FILE, "utf8"))));
  } catch {
    return new Map();
  }
}

/** sha1 of a file's bytes ("missing" when it cannot be read), from the memo when its signature still matches. */
function hashOfFile(path) {
  memo ??= loadMemo();
  let signature;
  try {
    // Before the read: a change after it gives another signature, so a hash is never kept for stale bytes.
    signature = signatureOf(statSync(path, { bigint: true }));
    const known = memo.get(path);
    if (signature && known?.[0] === signature) return known[1];
    const hash = sha1(readFileSync(path));
    if (signature) {
      memo.set(path, [signature, hash]);
      learned.set(path, [signature, hash]);
    }
    return hash;
  } catch {
    return "missing";
  }
}

/** Keeps what this process learned for the next one (best effort: a read-only cache only costs reads). */
function saveFileHashes() {
  if (learned.size === 0) return;
  try {
    const entries = [...loadMemo(), ...learned].filter(([path]) => path.startsWith(PROJECT_ROOT));
    writeCacheFile(MEMO_FILE, JSON.stringify(Object.fromEntries(entries)));
    learned.clear();
  } catch {
    // not writable
  }
}

module.exports = { signatureOf, sha1, hashOfFile, saveFileHashes };
