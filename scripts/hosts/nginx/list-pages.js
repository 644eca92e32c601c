// nginx's list pages from a runs build (L2), for njs 0.7.9 and later (Debian's libnginx-mod-http-js): `js_content` of
// the list route's location in server.conf (adapter.ts writes this file to dist/nginx/ with this build's SETTINGS).
// A page is answered exactly as the page tree's file would be, by the Node server's rules (answer-policy.ts):
//   - the `dist` link is resolved once (realpath), and both files of the list are read from that one build (B5);
//   - the offsets file gives the list's length and the page's two ends, the run the page's items, read by position;
//   - the body is the envelope of page-envelope.ts around them, its ETag that of etag.ts (SHA-256, 22 characters);
//   - If-None-Match answers 304 as isNotModified does; HEAD, Content-Length and gzip are nginx's (r.return);
//   - a run or offsets file that is missing, unreadable or not the length the build wrote answers 503 (H7).
// Plain JavaScript as njs 0.7.9 runs it: no destructuring, no optional chaining, no `await` inside call arguments, no
// r.send(Buffer) (broken before 0.8.4), and every descriptor closed in `finally` (njs never closes them). Also
// importable by Node, whose fs, Buffer and crypto it uses the same way.
// biome-ignore lint/style/useNodejsImportProtocol: njs knows the module as "fs" only
import fs from "fs";

/** This build's route table as the handler needs it: adapter.ts writes the object in place of `{}`. */
const SETTINGS = {};

/** open() errors that mean "no such file": a list the build does not name (or a name too long to be one). */
const MISSING = { ENOENT: true, ENOTDIR: true, ENAMETOOLONG: true };

const fill = (template, filter) => template.split("{filter}").join(filter);

/** A storage fault (H7): answered 503, never as a missing list. */
function fault(message) {
  const e = new Error(message);
  e.code = "EFAULT_H7";
  return e;
}

/** Exactly `length` bytes at `position`, or a fault. */
function readAt(fd, position, length, what) {
  const buffer = Buffer.alloc(length);
  let got = 0;
  while (got < length) {
    const n = fs.readSync(fd, buffer, got, length - got, position + got);
    if (n === 0) throw fault(`${what}: ${got} of ${length} bytes at ${position}`);
    got += n;
  }
  return buffer;
}

/** Whether a file the route table names exists in the build: false when missing, a fault when it cannot tell. */
function exists(path) {
  try {
    fs.accessSync(path);
    return true;
  } catch (e) {
    if (MISSING[e.code]) return false;
    throw e;
  }
}

/** An answer that is a file of the build with its status (offset_out_of_range, category_not_found). */
function fileAnswer(path, status) {
  return { status: status, body: fs.readFileSync(path) };
}

/**
 * What the request gets, read from one build: `{ status, body }`, where a 200's body is the page. Throws on any
 * storage fault.
 */
function resolvePage(r) {
  const s = SETTINGS;
  const v = r.variables;
  const root = `${fs.realpathSync(v.document_root)}/`;
  const filter = v[s.vars.filter];
  const limit = Number(v[s.vars.limit]);
  const offsetText = v[s.vars.offset];
  let fd;
  try {
    fd = fs.openSync(root + fill(s.offsets, filter), "r");
  } catch (e) {
    if (!MISSING[e.code]) throw e;
    // No such list in this build, unless the build names it (its range error is there): then its offsets are missing.
    if (exists(root + fill(s.outOfRange.file, filter))) throw fault(`${fill(s.offsets, filter)}: missing`);
    return fileAnswer(root + s.fallback.file, s.fallback.status);
  }
  const offsets = fill(s.offsets, filter);
  let total;
  let inRange;
  let offset;
  let end;
  let start;
  let stop;
  let runLength;
  try {
    const size = fs.fstatSync(fd).size;
    if (size < 4 || size % 4 !== 0) throw fault(`${offsets}: ${size} bytes`);
    total = size / 4 - 1;
    // Q4: an offset beyond the list (a 30-digit one too) is the list's own error, once the files agree
    inRange = offsetText.length <= 10 && Number(offsetText) <= total;
    offset = inRange ? Number(offsetText) : total;
    end = Math.min(offset + limit, total);
    // entries offset … end in one read; entry `total` (the run's length + 1) in another unless it is among them
    const ends = readAt(fd, offset * 4, (end - offset + 1) * 4, offsets);
    start = ends.readUInt32LE(0);
    stop = ends.readUInt32LE((end - offset) * 4);
    const last = end === total ? stop : readAt(fd, total * 4, 4, offsets).readUInt32LE(0);
    runLength = total === 0 ? 0 : last - 1;
  } finally {
    fs.closeSync(fd);
  }
  const length = end > offset ? stop - start - 1 : 0;
  if (length < 0 || (length > 0 && start + length > runLength)) throw fault(`${offsets}: entries out of order`);
  let items;
  const run = fill(s.run, filter);
  const runFd = fs.openSync(root + run, "r");
  try {
    // the run is the length its offsets say, or one of the two is not what the build wrote
    const size = fs.fstatSync(runFd).size;
    if (size !== runLength) throw fault(`${run}: ${size} bytes, its offsets say ${runLength}`);
    if (inRange) items = readAt(runFd, start, length, run);
  } finally {
    fs.closeSync(runFd);
  }
  if (!inRange) return fileAnswer(root + fill(s.outOfRange.file, filter), s.outOfRange.status);
  const category = v[s.vars.categoryCount] === "0" ? "null" : JSON.stringify(v[s.vars.category]);
  const suffix = `],"meta":{"total":${total},"limit":${limit},"offset":${offset},"category":${category}}}`;
  return { status: 200, body: Buffer.concat([Buffer.from(s.pagePrefix), items, Buffer.from(suffix)]) };
}

/** gzip's quality value as nginx reads it (ngx_http_gzip_quantity): 0 for anything it cannot read. */
function gzipQuantity(text, p) {
  let c = text.charAt(p++);
  if (c !== "0" && c !== "1") return 0;
  let q = (c === "1" ? 1 : 0) * 100;
  if (p === text.length) return q;
  c = text.charAt(p++);
  if (c === "," || c === " ") return q;
  if (c !== ".") return 0;
  let n = 0;
  while (p < text.length) {
    c = text.charAt(p++);
    if (c === "," || c === " ") break;
    if (c >= "0" && c <= "9") {
      q += c.charCodeAt(0) - 48;
      n++;
      continue;
    }
    return 0;
  }
  return q > 100 || n > 3 ? 0 : q;
}

/** Whether nginx's gzip filter will compress this request's answer (ngx_http_gzip_ok with gzip_proxied any and no
 *  gzip_disable; nginx 1.22 reads the first Accept-Encoding line only). */
function acceptsGzip(r) {
  if (r.httpVersion === "1.0" || r.httpVersion === "0.9") return false;
  let header;
  const raw = r.rawHeadersIn;
  for (let i = 0; i < raw.length; i++) {
    if (raw[i][0].toLowerCase() === "accept-encoding") {
      header = raw[i][1];
      break;
    }
  }
  if (header === undefined || header.length < 4) return false;
  if (header.slice(0, 5) === "gzip,") return true;
  // ngx_http_gzip_accept_encoding: "gzip" where the search starts or after "," or " ", then the end, ",", or ";q="
  // with q > 0
  const lower = header.toLowerCase();
  let p = -1;
  let from = 0;
  for (;;) {
    p = lower.indexOf("gzip", from);
    if (p === -1) return false;
    if (p === from || header.charAt(p - 1) === "," || header.charAt(p - 1) === " ") break;
    from = p + 4;
  }
  p += 4;
  for (;;) {
    if (p >= header.length) return true;
    const c = header.charAt(p++);
    if (c === ",") return true;
    if (c === ";") break;
    if (c !== " ") return false;
  }
  for (;;) {
    if (p >= header.length) return true;
    const c = header.charAt(p++);
    if (c === "q" || c === "Q") break;
    if (c !== " ") return false;
  }
  if (p + 2 > header.length || header.charAt(p++) !== "=") return false;
  return gzipQuantity(header, p) > 0;
}

/** H3, as answer-policy.ts's ifNoneMatchHits: weak comparison over a list, `*` matching. */
function ifNoneMatchHits(header, etags) {
  if (header === undefined || header === null) return false;
  const tags = header.split(",");
  for (let i = 0; i < tags.length; i++) {
    const tag = tags[i].trim();
    if (tag === "*" || etags.indexOf(tag.replace(/^W\//, "")) !== -1) return true;
  }
  return false;
}

/** Each coding is its own representation: "hash" → "hash-gzip" (answer-policy.ts codedEtag). */
const codedEtag = (etag, coding) => (coding ? `${etag.slice(0, -1)}-${coding}"` : etag);

function answerError(r, status, body) {
  r.headersOut["Content-Type"] = SETTINGS.contentType;
  r.return(status, body);
}

async function page(r) {
  let answer;
  try {
    answer = resolvePage(r);
  } catch (e) {
    r.error(`list page: ${e.code || ""} ${e.message}`);
    answerError(r, SETTINGS.unavailable.status, SETTINGS.unavailable.body);
    return;
  }
  if (answer.status !== 200) {
    answerError(r, answer.status, answer.body);
    return;
  }
  const body = answer.body;
  const digest = await crypto.subtle.digest("SHA-256", body);
  const etag = `"${Buffer.from(digest).toString("base64url").slice(0, 22)}"`;
  // The codings the Node server holds for this page (a --compress build, 1 KB and more), of which nginx sends gzip.
  const codings = SETTINGS.codings.length > 0 && body.length >= SETTINGS.minCompressBytes ? SETTINGS.codings : [];
  const coding = codings.indexOf("gzip") !== -1 && acceptsGzip(r) ? "gzip" : undefined;
  r.headersOut.ETag = codedEtag(etag, coding);
  if (codings.length > 0) r.headersOut.Vary = "Accept-Encoding";
  const current = [etag];
  for (let i = 0; i < codings.length; i++) current.push(codedEtag(etag, codings[i]));
  if (ifNoneMatchHits(r.headersIn["If-None-Match"], current)) {
    // no body and no Content-Type (as the Node server); r.return(304) would add Content-Length: 0
    r.status = 304;
    r.sendHeader();
    r.finish();
    return;
  }
  r.headersOut["Content-Type"] = SETTINGS.contentType;
  // Content-Length, HEAD without a body, and gzip (the location's gzip filter) are nginx's
  r.return(200, body);
}

export default { page };
