// A list page around its items: `{"data":[` + the items joined by `,` + `],"meta":{…}}`. The build writes every page
// with these (render/software-pages.ts) and the Worker assembles a page from its list's run with them
// (hosts/cloudflare/worker/r2-builds.ts): one text, so the two are byte for byte the same. Web APIs only.

export const PAGE_PREFIX = '{"data":[';

/** What follows the items: `meta` with the keys of the contract in its order; `categoryJson` is the filter's slug as
 *  JSON, or `null`. */
export const pageSuffix = (total: number, limit: number, offset: number, categoryJson: string): string =>
  `],"meta":{"total":${total},"limit":${limit},"offset":${offset},"category":${categoryJson}}}`;
