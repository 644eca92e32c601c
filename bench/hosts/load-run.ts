// One bounded autocannon run over the request list against one origin (loopback only).
import autocannon from "autocannon";

export interface LoadRequest {
  path: string;
  headers: Record<string, string>;
}

export interface LoadResult {
  requestsPerSecond: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  /** connection errors (timeouts included) */
  errors: number;
  non2xx: number;
  total: number;
  /** response bytes per second */
  bytesPerSecond: number;
  statusCodes: Record<string, number>;
}

export async function loadRun(
  origin: string,
  requests: LoadRequest[],
  connections: number,
  duration: number,
): Promise<LoadResult> {
  const result = await autocannon({
    url: origin,
    connections,
    duration,
    pipelining: 1,
    timeout: 10,
    requests: requests.map((r) => ({ method: "GET", path: r.path, headers: r.headers })),
  });
  return summarize(result);
}

function summarize(result: Awaited<ReturnType<typeof autocannon>>): LoadResult {
  const statusCodes = Object.fromEntries(
    Object.entries(result.statusCodeStats)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([code, { count }]) => [code, count]),
  );
  return {
    requestsPerSecond: result.requests.average,
    latencyP50Ms: result.latency.p50,
    latencyP99Ms: result.latency.p99,
    errors: result.errors,
    non2xx: result.non2xx,
    total: result.requests.total,
    bytesPerSecond: result.throughput.average,
    statusCodes,
  };
}

/** A bounded run where every request picks a path uniformly at random from `paths` (the cold set): no two
 *  connections walk the list in step, so caches see the working set as users spread it. */
export async function randomLoadRun(
  origin: string,
  paths: string[],
  connections: number,
  duration: number,
  headers: Record<string, string> = {},
): Promise<LoadResult> {
  const result = await autocannon({
    url: origin,
    connections,
    duration,
    pipelining: 1,
    timeout: 10,
    requests: [
      {
        method: "GET",
        path: paths[0]!,
        headers,
        setupRequest: (req) => ({ ...req, path: paths[Math.floor(Math.random() * paths.length)]! }),
      },
    ],
  });
  return summarize(result);
}
