// Shell commands as the docs write them: extracted from ```sh blocks, split into simple commands, tokenized.
// Enough of sh for what docs hold (quotes, `&&`, `||`, `;`, `|`, `\` continuations, `# comments`, VAR=x prefixes).

export interface DocCommand {
  /** where it is written: README.md:12 */
  where: string;
  /** the simple command as written, env prefix included */
  text: string;
  /** environment assignments before the program */
  env: Record<string, string>;
  /** program and arguments, quotes removed */
  argv: string[];
}

const SHELL_LANGS = new Set(["sh", "bash", "shell", "console"]);

/** Lines of every ```sh block, continuations joined, with their line numbers. */
export function shellLines(markdown: string): { line: number; text: string }[] {
  const out: { line: number; text: string }[] = [];
  const lines = markdown.split("\n");
  let inBlock = false;
  let pending: { line: number; text: string } | undefined;
  lines.forEach((raw, i) => {
    const fence = /^\s*```(\w*)/.exec(raw);
    if (fence) {
      inBlock = !inBlock && SHELL_LANGS.has(fence[1]!);
      return;
    }
    if (!inBlock) return;
    const text = pending ? `${pending.text} ${raw.trim()}` : raw.trim();
    const start = pending?.line ?? i + 1;
    if (text.endsWith("\\")) {
      pending = { line: start, text: text.slice(0, -1).trimEnd() };
      return;
    }
    pending = undefined;
    out.push({ line: start, text });
  });
  return out;
}

/** Splits a line into words and operators, honouring quotes; a `#` starting a word ends the line. */
function lex(line: string): { word?: string; raw?: string; op?: string }[] {
  const tokens: { word?: string; raw?: string; op?: string }[] = [];
  let i = 0;
  while (i < line.length) {
    const c = line[i]!;
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if (c === "#") break;
    const op = /^(&&|\|\||;|\|)/.exec(line.slice(i))?.[1];
    if (op) {
      tokens.push({ op });
      i += op.length;
      continue;
    }
    let word = "";
    const start = i;
    while (i < line.length && !/\s/.test(line[i]!) && !/^(&&|\|\||;|\|)/.test(line.slice(i))) {
      const q = line[i]!;
      if (q === '"' || q === "'") {
        const end = line.indexOf(q, i + 1);
        if (end < 0) throw new Error(`unterminated quote in: ${line}`);
        word += line.slice(i + 1, end);
        i = end + 1;
      } else {
        word += q;
        i++;
      }
    }
    tokens.push({ word, raw: line.slice(start, i) });
  }
  return tokens;
}

/** The simple commands of one line. */
export function simpleCommands(where: string, line: string): DocCommand[] {
  const commands: DocCommand[] = [];
  let words: { word: string; raw: string }[] = [];
  const flush = () => {
    if (words.length === 0) return;
    const env: Record<string, string> = {};
    let k = 0;
    for (; k < words.length && /^[A-Z_][A-Z0-9_]*=/.test(words[k]!.word); k++) {
      const [name, ...value] = words[k]!.word.split("=");
      env[name!] = value.join("=");
    }
    commands.push({ where, text: words.map((w) => w.raw).join(" "), env, argv: words.slice(k).map((w) => w.word) });
    words = [];
  };
  for (const token of lex(line)) {
    if (token.op) flush();
    else words.push({ word: token.word!, raw: token.raw! });
  }
  flush();
  return commands;
}

/** Every simple command of every ```sh block of a markdown file. */
export function docCommands(file: string, markdown: string): DocCommand[] {
  return shellLines(markdown).flatMap(({ line, text }) => simpleCommands(`${file}:${line}`, text));
}

/** `npm run [--silent] NAME [-- args]` → { script, args }; undefined for anything else. */
export function npmRun(argv: string[]): { script: string; args: string[] } | undefined {
  if (argv[0] !== "npm" || (argv[1] !== "run" && argv[1] !== "run-script")) return undefined;
  const rest = argv.slice(2).filter((a) => a !== "--silent" && a !== "-s");
  const script = rest[0];
  if (!script) return undefined;
  const dashes = rest.indexOf("--");
  return { script, args: dashes < 0 ? [] : rest.slice(dashes + 1) };
}

/** Long flags of an argument list (`--out x`, `--build-arg=--full` → out, build-arg). */
export const longFlags = (args: string[]): string[] =>
  args.filter((a) => /^--[a-z]/.test(a)).map((a) => a.slice(2).split("=")[0]!);

/** Commands written inline in prose (`npm run export -- --out DIR`), outside code blocks: checked, never run. */
export function inlineCommands(file: string, markdown: string): DocCommand[] {
  const commands: DocCommand[] = [];
  let inBlock = false;
  markdown.split("\n").forEach((line, i) => {
    if (/^\s*```/.test(line)) inBlock = !inBlock;
    if (inBlock) return;
    for (const [, span] of line.matchAll(/`((?:[A-Z_]+=\S+ )*(?:npm|npx) [^`]+)`/g)) {
      // Placeholders in prose (DIR, N) are not values to check.
      commands.push(
        ...simpleCommands(`${file}:${i + 1}`, span!).filter((c) => c.argv[0] === "npm" || c.argv[0] === "npx"),
      );
    }
  });
  return commands;
}
