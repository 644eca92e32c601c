// PCRE for nginx maps that match the RAW request target the way the route table's semantics read it (P3, Q1, Q6, Q7).
// nginx's $uri is decoded and normalised (`%2F` splits a segment, `..` is resolved) and its $arg_* are case-insensitive
// first-wins, so every decision matches the undecoded text instead: a path regex accepts each character either as
// itself or percent-encoded, exactly when its decoding (decodeURIComponent) would match.

/** Characters that can never stand for themselves inside a raw path segment. */
const NOT_RAW = new Set([0x23 /* # */, 0x25 /* % */, 0x2f /* / */, 0x3f /* ? */]);
/** Spaces, controls and raw non-ASCII bytes are no valid request target (Node's parser refuses them; nginx lets bytes through). */
const rawAllowed = (code: number) => code > 0x20 && code < 0x7f && !NOT_RAW.has(code);

const HEX = "[0-9A-Fa-f]";
/** one continuation byte 80–BF */
const CONT = "%[89ABab][0-9A-Fa-f]";

/**
 * One path segment that decodeURIComponent accepts: raw printable ASCII, and escapes that form valid UTF-8
 * (no overlong forms, no surrogates, nothing above U+10FFFF), as in ECMAScript's Decode.
 */
export const DECODABLE_SEGMENT =
  "(?:[^/%?#\\x00-\\x20\\x7f-\\xff]" +
  `|%[0-7]${HEX}` +
  `|%(?:[Cc][2-9A-Fa-f]|[Dd]${HEX})${CONT}` +
  `|%[Ee]0%[ABab]${HEX}${CONT}` +
  `|%[Ee][1-9A-Ca-cEFef]${CONT}${CONT}` +
  `|%[Ee][Dd]%[89]${HEX}${CONT}` +
  `|%[Ff]0%[9ABab]${HEX}${CONT}${CONT}` +
  `|%[Ff][1-3]${CONT}${CONT}${CONT}` +
  `|%[Ff]4%8${HEX}${CONT}${CONT})+`;

export const escapeRegex = (text: string) => text.replace(/[\\^$.*+?()[\]{}|/-]/g, "\\$&");

/** `[...]` body for a set of codes, ranges collapsed. */
function classBody(codes: number[]): string {
  const esc = (c: number) => {
    const ch = String.fromCharCode(c);
    return /[\\\]^[-]/.test(ch) ? `\\${ch}` : c < 0x20 || c === 0x7f ? `\\x${c.toString(16).padStart(2, "0")}` : ch;
  };
  let out = "";
  for (let i = 0; i < codes.length; ) {
    let j = i;
    while (j + 1 < codes.length && codes[j + 1] === codes[j]! + 1) j++;
    out +=
      j - i >= 2
        ? `${esc(codes[i]!)}-${esc(codes[j]!)}`
        : codes
            .slice(i, j + 1)
            .map(esc)
            .join("");
    i = j + 1;
  }
  return out;
}

/** A hex digit class accepting both cases: nibbles {1..15} → `[1-9A-Fa-f]`. */
function nibbleClass(nibbles: number[]): string {
  if (nibbles.length === 1 && nibbles[0]! < 10) return String(nibbles[0]);
  const digits = nibbles.filter((n) => n < 10).map((n) => 0x30 + n);
  const upper = nibbles.filter((n) => n >= 10).map((n) => 0x41 + n - 10);
  const lower = upper.map((c) => c + 0x20);
  return `[${classBody(digits)}${classBody(upper)}${classBody(lower)}]`;
}

/** `%XX` for each ASCII code, either hex case: {a..z} → `%(?:6[1-9A-Fa-f]|7[0-9Aa])`. */
function escapesFor(codes: number[]): string {
  const byHigh = new Map<number, number[]>();
  for (const c of codes) byHigh.set(c >> 4, [...(byHigh.get(c >> 4) ?? []), c & 15]);
  const parts = [...byHigh].map(([high, lows]) => `${high}${nibbleClass(lows)}`);
  return parts.length === 1 ? `%${parts[0]}` : `%(?:${parts.join("|")})`;
}

/** Matches one raw unit whose decoding is one of these ASCII characters. */
export function encodedChar(codes: number[]): string {
  const sorted = [...new Set(codes)].sort((a, b) => a - b);
  if (sorted.length === 0) throw new Error("nginx adapter: a character class that matches no ASCII character");
  const raw = sorted.filter(rawAllowed);
  const rawPart =
    raw.length === 1 ? escapeRegex(String.fromCharCode(raw[0]!)) : raw.length > 1 ? `[${classBody(raw)}]` : "";
  return `(?:${rawPart ? `${rawPart}|` : ""}${escapesFor(sorted)})`;
}

/** A literal path segment, each character raw or percent-encoded (`/v1/softw%61re` is `/v1/software`). */
export function encodedLiteral(text: string): string {
  return [...text]
    .map((ch) => {
      const code = ch.charCodeAt(0);
      if (ch.length !== 1 || code > 0x7f)
        throw new Error(`nginx adapter: non-ASCII path text ${JSON.stringify(text)} is not supported`);
      return encodedChar([code]);
    })
    .join("");
}

// Code units a one-character atom must not match for the byte-level rewrite to be exact.
const NON_ASCII_PROBES = [0x80, 0xa0, 0xe9, 0xff, 0x100, 0x4e2d, 0xd83d, 0xfeff];

/** The ASCII characters one atom (`a`, `\.`, `[a-z0-9]`, `\d`, `.`) matches; it must match nothing else. */
function atomCodes(atom: string, pattern: string): number[] {
  const re = new RegExp(`^(?:${atom})$`);
  if (NON_ASCII_PROBES.some((c) => re.test(String.fromCharCode(c))))
    throw new Error(
      `nginx adapter: pattern ${pattern}: ${atom} matches non-ASCII characters, which nginx sees as UTF-8 bytes`,
    );
  const codes: number[] = [];
  for (let c = 0; c < 0x80; c++) if (re.test(String.fromCharCode(c))) codes.push(c);
  return codes;
}

/**
 * A JS pattern for a decoded path segment → a regex for the raw segment that matches exactly when decoding it gives a
 * string the pattern accepts. Supports the portable subset: literals, escapes, classes, groups, alternation, quantifiers,
 * anchored with ^…$ (a segment is matched whole).
 */
export function encodedSegmentPattern(pattern: string): string {
  if (!pattern.startsWith("^") || !pattern.endsWith("$") || pattern.endsWith("\\$"))
    throw new Error(`nginx adapter: path parameter pattern ${pattern} must be anchored with ^…$`);
  const body = pattern.slice(1, -1);
  let out = "";
  let depth = 0;
  for (let i = 0; i < body.length; ) {
    const ch = body[i]!;
    const rest = body.slice(i);
    const quantifier = /^(?:[*+?]|\{\d+(?:,\d*)?\})\??/.exec(rest);
    if (quantifier) {
      out += quantifier[0];
      i += quantifier[0].length;
    } else if (ch === "(") {
      const group = /^\((?:\?:|\?<[A-Za-z_]\w*>)?/.exec(rest)![0];
      if (rest.startsWith("(?") && group === "(")
        throw new Error(`nginx adapter: pattern ${pattern}: lookarounds are not supported`);
      out += "(?:";
      depth++;
      i += group.length;
    } else if (ch === ")" || ch === "|") {
      if (ch === "|" && depth === 0)
        throw new Error(`nginx adapter: pattern ${pattern}: top-level | with anchors is ambiguous; group it`);
      if (ch === ")") depth--;
      out += ch;
      i++;
    } else if (ch === "^" || ch === "$") {
      throw new Error(`nginx adapter: pattern ${pattern}: anchors inside the pattern are not supported`);
    } else {
      const atom = ch === "[" ? /^\[(?:\\.|[^\]\\])*\]/.exec(rest)?.[0] : ch === "\\" ? rest.slice(0, 2) : ch;
      if (!atom || /^\\[1-9bBkpPu]$/.test(atom) || atom === "\\c" || atom === "\\x")
        throw new Error(`nginx adapter: pattern ${pattern}: ${atom ?? rest} is not supported`);
      out += encodedChar(atomCodes(atom, pattern));
      i += atom.length;
    }
  }
  return out;
}

/** Whether a decoded value could hide a `/` or a dot segment, which nginx's $uri would split or resolve. */
export function unsafeForDecodedUri(pattern: string): string | undefined {
  const re = new RegExp(pattern);
  if ([".", ".."].some((v) => re.test(v))) return "accepts . or .. (nginx resolves dot segments)";
  if (["a/b", "/"].some((v) => re.test(v))) return "accepts / (nginx splits the segment)";
  return undefined;
}

/** Query pieces are `name` or `name=value`, split on `&`; names compare raw and case-sensitively (Q1, Q7). */
export const queryName = (name: string) => `(?:^|&)${escapeRegex(name)}`;
/** the name given twice or more (Q6) */
export const queryRepeated = (name: string) => `${queryName(name)}(?=[=&]|$).*&${escapeRegex(name)}(?:[=&]|$)`;
/** the name given at least once */
export const queryPresent = (name: string) => `${queryName(name)}(?:[=&]|$)`;
/** the raw value of its first piece, empty when the piece has no `=` */
export const queryValue = (name: string, capture: string) => `${queryName(name)}(?:=(?<${capture}>[^&]*))?(?:&|$)`;
