// Which files of a build are served files: the files a full host answers requests with, as the route table names them
// (every body, every error body, the docs page). Everything else a build writes is a build record (routes.json, the
// manifest, each host's config): every command counts both in these words (docs/hosts/layout.md#counting-a-build).
import { answerTemplates, CODINGS, type RouteTable } from "./runtime/route-table.ts";

const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** A file template (`v1/software/{slug}.json`) as a regex source; a placeholder spans one or more segments. */
export function templateRegex(template: string): string {
  return template
    .split(/(\{\w+\})/)
    .map((part) => (/^\{\w+\}$/.test(part) ? "[^/]+(?:/[^/]+)*" : escapeRegex(part)))
    .join("");
}

/** Whether a path (relative to the build, `/`-separated) is a precompressed sibling (`x.json.br`), not a file of its own. */
export const isSibling = (path: string): boolean => CODINGS.some((c) => path.endsWith(c.suffix));

/** A path segment that is empty or starts with a dot (no array of segments made: a build asks of 18,000 paths). */
const EMPTY_OR_DOT_SEGMENT = /(?:^|\/)(?:\.|\/|$)/;

/** A predicate over paths relative to the build folder: true for a served file (never a sibling or a dotfile). */
export function servedFileFilter(table: RouteTable): (path: string) => boolean {
  const answers = new RegExp(`^(?:${answerTemplates(table).map(templateRegex).join("|")})$`);
  return (path) => {
    if (EMPTY_OR_DOT_SEGMENT.test(path)) return false;
    // A placeholder spans any characters (a shard's name ends in .json): siblings are left out by name.
    return !isSibling(path) && answers.test(path);
  };
}
