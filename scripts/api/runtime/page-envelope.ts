// A list page around its items: `{"data":[` + the items joined by `,` + `],"meta":{…}}`. The build writes every page
// with these (render/software-pages.ts) and the Worker assembles a page from its list's run with them
// (hosts/cloudflare/worker/r2-builds.ts): one text, so the two are byte for byte the same. Web APIs only.

export const PAGE_PREFIX = '{"data":[';

/** What follows the items: `meta` with the keys of the contract in its order; `categoryJson` is the filter's slug as
 *  JSON, or `null`. */
export const pageSuffix = (total: number, limit: number, offset: number, categoryJson: string): string =>
  `],"meta":{"total":${total},"limit":${limit},"offset":${offset},"category":${categoryJson}}}`;

/** A page file (`…/pages/{filter}/{limit}/{offset}.json`) as its list's key, limit and offset; null for any other file. */
export function pageOfFile(pageTemplate: string, file: string): { list: string; limit: number; offset: number } | null {
  const prefix = pageTemplate.slice(0, pageTemplate.indexOf("{filter}"));
  if (!file.startsWith(prefix) || !file.endsWith(".json")) return null;
  const parts = file.slice(0, -".json".length).split("/");
  const offset = parts.pop();
  const limit = parts.pop();
  const list = parts.join("/");
  if (list.length <= prefix.length || !/^\d+$/.test(limit ?? "") || !/^\d+$/.test(offset ?? "")) return null;
  return { list, limit: Number(limit), offset: Number(offset) };
}

/** A page's items in its list's run: where they start and how many bytes, from the items' lengths. */
export function pageSlice(
  lengths: readonly number[],
  limit: number,
  offset: number,
): { start: number; length: number } {
  let start = 0;
  for (let i = 0; i < offset; i++) start += lengths[i]! + 1;
  const end = Math.min(offset + limit, lengths.length);
  let length = 0;
  for (let i = offset; i < end; i++) length += lengths[i]! + (i > offset ? 1 : 0);
  return { start, length };
}
