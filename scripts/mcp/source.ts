// Where the MCP server gets its answers: a built dist/ on disk or a deployed API. Both answer one HTTP request target.

/** One answer of the API: its status and its body, byte for byte as the HTTP API sends it. */
export interface ApiAnswer {
  /** 304 only when the request named the body's ETag in `ifNoneMatch` and the body is still that one */
  status: number;
  body: string;
  /** the ETag the API sent with the body, when it came over the network */
  etag?: string;
}

export interface CatalogSource {
  /** answers a GET for `target`, the path below the base path plus its query: `/software?category=crm&limit=5` */
  get(target: string, options?: { ifNoneMatch?: string }): Promise<ApiAnswer>;
  /** true when answers come over the network from a deployed API (the tools' openWorldHint) */
  remote: boolean;
}

/** A source that cannot answer at all (a build gone, an API unreachable): shown to the client as one line. */
export class SourceUnavailable extends Error {}
