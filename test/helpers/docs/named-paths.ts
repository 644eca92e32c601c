// The repository paths a doc or a source comment names, found the same way everywhere (see doc-facts.test.ts).
//
// A doc (README.md, docs/**/*.md) is read whole, code blocks included: a command names real files. A source file
// (.ts, .cjs, .mjs, and JSON with comments) is read through TypeScript's parser, so only its comments count, never a
// string or a regex; a shell, YAML or TOML file or .gitignore, only what follows a `#` that starts a comment.
import ts from "typescript";

/** A path as one names it, where it is named (`file:line`). */
export interface NamedPath {
  where: string;
  path: string;
}

/**
 * What one names a path with, in three forms:
 * - `top`: it starts with a folder at the repository's root (`scripts/io/store.ts`, `test/unit/`, `.ci/run`);
 * - `tail`: the end of a path, with a folder (`io/store.ts`, `../develop/rules.md`) or without (`rules.md`), of a
 *   Markdown or code file (`.md`, `.ts`, `.cjs`, `.mjs`): some file of the repository ends so;
 * - `root`: a configuration file at the root (`package.json`, `vitest.config.ts`, `biome.jsonc`, `netlify.toml`).
 * A placeholder (`{slug}`, `<host>`, `*`, `…`, `$VAR`) ends what is named at the folder before it: `test/unit/<folder>/`
 * names `test/unit/`.
 */
export type PathKind = "top" | "tail" | "root";

export interface FoundPath extends NamedPath {
  kind: PathKind;
}

const PLACEHOLDER = /[{}<>*…$]/;
/** Characters a path is made of; anything else (space, quote, bracket, `|`, `,`) ends it. */
const PATH_RUN = /[\w.@/+{}<>*…$%:#~-]+/g;
const CODE_FILE = /\.(?:md|ts|cjs|mjs)$/;
const ROOT_FILE =
  /^(?:package(?:-lock)?\.json|tsconfig(?:\.[\w-]+)?\.json|biome\.jsonc?|[\w-]+\.config\.[cm]?[jt]s|netlify\.toml|redocly\.ya?ml)$/;

/**
 * The paths named in one piece of text. `tops` are the folders at the repository's root (`scripts`, `.github`).
 * A run that a URL, a package or another path holds (`https://…/scripts/x`, `node_modules/x/README.md`,
 * `@scope/pkg`) names no path of the repository: a run must start the word.
 */
export function pathsIn(text: string, tops: readonly string[]): { path: string; kind: PathKind }[] {
  const found: { path: string; kind: PathKind }[] = [];
  for (const match of text.matchAll(PATH_RUN)) {
    const before = text[match.index - 1] ?? " ";
    if (/[\w.@/:~$%-]/.test(before)) continue;
    const named = trimmed(match[0]);
    if (!named || /^(?:[a-z][a-z+.-]*:|www\.|node_modules\/)/i.test(named) || named.includes("://")) continue;
    const top = tops.find((folder) => named.startsWith(`${folder}/`));
    if (top) found.push({ path: beforePlaceholder(named), kind: "top" });
    else if (ROOT_FILE.test(named)) found.push({ path: named, kind: "root" });
    else if (CODE_FILE.test(named) && !PLACEHOLDER.test(named) && /^[\w./-]+$/.test(named)) {
      const tail = named.replace(/^(?:\.\.?\/)+/, "");
      // A bare word with a dot is a file name only when it has a name before its extension (not `.md` alone).
      if (/^[\w-]/.test(tail)) found.push({ path: tail, kind: "tail" });
    }
  }
  return found;
}

/** A run without what follows a path in prose: a sentence's end, a line number (`store.ts:12`), an anchor (`#section`). */
function trimmed(run: string): string {
  return run
    .replace(/#.*$/, "")
    .replace(/(?::\d+)+$/, "")
    .replace(/[.:]+$/, "");
}

/** `test/unit/<folder>/x.ts` → `test/unit/`: the folder before the first placeholder. */
function beforePlaceholder(path: string): string {
  const at = path.search(PLACEHOLDER);
  return at < 0 ? path : path.slice(0, path.lastIndexOf("/", at) + 1);
}

/** The paths a Markdown file names, on every line, code blocks included. */
export function pathsInMarkdown(file: string, text: string, tops: readonly string[]): FoundPath[] {
  return text.split("\n").flatMap((line, i) => pathsIn(line, tops).map((p) => ({ ...p, where: `${file}:${i + 1}` })));
}

/** The paths a source file's comments name (line and block comments, JSDoc included). */
export function pathsInComments(file: string, text: string, tops: readonly string[]): FoundPath[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, scriptKind(file));
  const lineOf = (pos: number) => source.getLineAndCharacterOfPosition(pos).line;
  return commentRanges(source, text).flatMap(({ pos, end }) =>
    text
      .slice(pos, end)
      .split("\n")
      .flatMap((line, i) => pathsIn(line, tops).map((p) => ({ ...p, where: `${file}:${lineOf(pos) + i + 1}` }))),
  );
}

function scriptKind(file: string): ts.ScriptKind {
  if (/\.jsonc?$/.test(file)) return ts.ScriptKind.JSON;
  return file.endsWith(".ts") ? ts.ScriptKind.TS : ts.ScriptKind.JS;
}

/** The paths the `#` comments of a shell script, a YAML or TOML file or .gitignore name. */
export function pathsInHashComments(file: string, text: string, tops: readonly string[]): FoundPath[] {
  return text.split("\n").flatMap((line, i) => {
    const at = line.search(/(?:^|\s)#/);
    return at < 0 ? [] : pathsIn(line.slice(at), tops).map((p) => ({ ...p, where: `${file}:${i + 1}` }));
  });
}

/**
 * Every comment of a parsed file, once: the comments before and after each token, as the parser cut the tokens
 * (a standalone scanner would read a regex or a template's text as code).
 */
function commentRanges(source: ts.SourceFile, text: string): ts.CommentRange[] {
  const byPos = new Map<number, ts.CommentRange>();
  const add = (ranges: ts.CommentRange[] | undefined) => {
    for (const range of ranges ?? []) byPos.set(range.pos, range);
  };
  const visit = (node: ts.Node) => {
    add(ts.getLeadingCommentRanges(text, node.pos));
    add(ts.getTrailingCommentRanges(text, node.end));
    for (const child of node.getChildren(source)) visit(child);
  };
  add(ts.getLeadingCommentRanges(text, 0));
  visit(source);
  return [...byPos.values()].sort((a, b) => a.pos - b.pos);
}
