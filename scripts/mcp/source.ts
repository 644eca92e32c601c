// Where the MCP server gets its answers: a built dist/ on disk, a deployed API, or (on the Worker) the Worker itself.
// Each answers one HTTP request target; a source that reads builds also gives their records by name.

/** One answer of the API: its status and its body, byte for byte as the HTTP API sends it. */
export interface ApiAnswer {
  /** 304 only when the request named the body's ETag in `ifNoneMatch` and the body is still that one */
  status: number;
  body: string;
  /** the body's ETag, when the source knows it without hashing (an API sends it) */
  etag?: string;
  /** which build answered, when the source can tell (two answers of one build never mix with another's) */
  build?: string;
}

/** A build record (a file of the build that no URL serves), and the build it was read from. */
export interface BuildRecord {
  build: string;
  /** absent when the caller named this build as one it holds already (`unless`) */
  text?: string;
}

export interface CatalogSource {
  /** answers a GET for `target`, the path below the base path plus its query: `/software?category=crm&limit=5` */
  get(target: string, options?: { ifNoneMatch?: string }): Promise<ApiAnswer>;
  /**
   * The record `name` of the build answering now (null: that build has none), its text left out when that build is
   * `unless`. Absent on a source that reaches a build only through its URLs (a deployed API).
   */
  record?(name: string, options?: { unless?: string }): Promise<BuildRecord | null>;
  /** true when answers come over the network from a deployed API (the tools' openWorldHint) */
  remote: boolean;
}

/** A source that cannot answer at all (a build gone, an API unreachable): shown to the client as one line. */
export class SourceUnavailable extends Error {}
