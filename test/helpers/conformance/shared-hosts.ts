// The hosts that are processes of their own (node-workers, serve, nginx, the Worker in workerd), started once per
// run by a conformance project's setup and served to every file: each file used to start its own, and a Worker over
// the sample alone took ~7 s of CPU to start (Miniflare writes every asset into workerd's config).
import type { TestProject } from "vitest/node";
import type { BuildLayout } from "../../../scripts/api/runtime/build-index.ts";
import { hostsOf, type RunningHost, selectedHosts } from "./hosts.ts";

declare module "vitest" {
  export interface ProvidedContext {
    /** origins of the hosts started once for the project, by host name (for-each-host.ts starts any other) */
    hostOrigins?: Record<string, string>;
  }
}

/** Starts the project's startOnce hosts on the build of their layout, provides their origins, and returns what stops
 *  them. */
export async function startSharedHosts(
  project: TestProject,
  dists: Partial<Record<BuildLayout, string>>,
): Promise<() => Promise<void>> {
  const env = { ...process.env, ...project.config.env };
  const selected = selectedHosts(env);
  const chosen = hostsOf(env).filter(
    (h) =>
      h.startOnce &&
      (!selected || selected.includes(h.name)) &&
      h.unavailable() === undefined &&
      dists[h.layout ?? "pages"] !== undefined,
  );
  // A host that fails to start here is left to each file, whose tests then report why.
  const started = await Promise.all(
    chosen.map((h) =>
      h.start(dists[h.layout ?? "pages"]!).then(
        (running): [string, RunningHost] | undefined => [h.name, running],
        () => undefined,
      ),
    ),
  );
  const running = started.filter((r) => r !== undefined);
  project.provide("hostOrigins", Object.fromEntries(running.map(([name, r]) => [name, r.origin])));
  return async () => {
    await Promise.all(running.map(([, r]) => r.stop()));
  };
}
