// Small writers for nginx configuration text: quoting, map blocks, blocks of directives.

/** A double-quoted nginx string. nginx unescapes \\ \" \' \t \r \n inside quotes, so backslashes are doubled. */
export const quote = (text: string) => `"${text.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`;

/** Quoted only when needed, so simple keys and values stay readable. `$var` stays a variable either way. */
export const word = (text: string) =>
  /^[A-Za-z0-9_./!@$-]+$/.test(text) && !text.startsWith("~") ? text : quote(text);

/** An nginx variable name from parts: letters, digits and underscores only. */
export function variable(...parts: string[]): string {
  const name = ["api", ...parts].join("_");
  if (!/^[A-Za-z0-9_]+$/.test(name)) throw new Error(`nginx adapter: ${name} is not a usable nginx variable name`);
  return name;
}

export interface MapBlock {
  /** why this map exists, one line */
  comment?: string;
  source: string;
  target: string;
  /** recomputed at every use instead of once per request */
  volatile?: boolean;
  /** in order: exact keys first by nginx's rules, then regexes (`~…`) in this order */
  entries: [key: string, value: string][];
  default?: string;
}

export function mapBlock(m: MapBlock): string {
  const lines = m.comment ? [`# ${m.comment}`] : [];
  lines.push(`map ${word(m.source)} $${m.target} {`);
  if (m.volatile) lines.push("    volatile;");
  if (m.default !== undefined) lines.push(`    default ${word(m.default)};`);
  for (const [key, value] of m.entries)
    lines.push(`    ${key.startsWith("~") || key === "" ? quote(key) : word(key)} ${word(value)};`);
  lines.push("}");
  return lines.join("\n");
}

/** `name { directives }`, indented; directives may already span several lines. */
export function block(head: string, directives: string[], indent = "    "): string {
  const body = directives.flatMap((d) => d.split("\n")).map((l) => (l ? indent + l : l));
  return [`${head} {`, ...body, "}"].join("\n");
}
