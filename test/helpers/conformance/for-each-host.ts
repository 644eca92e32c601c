// Registers a block of tests once per host: starts the host on the built dist/ before, stops it after.
import { afterAll, beforeAll, describe, inject, it } from "vitest";
import { type Host, hosts, inSample, type RunningHost, selectedHosts } from "./hosts.ts";
import { Client } from "./http.ts";

export interface HostSuite {
  host: Host;
  /** `it`, skipped when the host lists the test name among its knownGaps */
  test: (name: string, fn: () => Promise<void> | void, timeout?: number) => void;
  /** the running host's client; call inside a test */
  client: () => Client;
}

/** The build a host is started on: the catalog in its layout (build-catalog.ts builds both). */
export function distOf(host: Host): string {
  if (host.layout !== "runs") return inject("distDir");
  const runs = inject("runsDistDir");
  if (!runs) throw new Error(`host ${host.name} takes a runs build, which this project's setup did not build`);
  return runs;
}

/** CONFORMANCE_HOSTS=node,nginx runs only those hosts */
const selected = selectedHosts();

export function forEachHost(register: (suite: HostSuite) => void): void {
  describe.each(hosts.filter((h) => !selected || selected.includes(h.name)))("host $name", (host) => {
    const reason = host.unavailable();
    if (reason !== undefined) {
      // Under CI a missing host is a failure, not a silent pass.
      if (process.env.CI === "true" && !host.optional) {
        it(`host ${host.name} is available`, () => {
          throw new Error(`host ${host.name} is unavailable under CI: ${reason}`);
        });
      } else {
        console.warn(
          `\n!!!!! conformance: host "${host.name}" is UNAVAILABLE and its tests are SKIPPED: ${reason} !!!!!\n`,
        );
        it.skip(`host ${host.name} is available (${reason})`, () => {});
      }
      return;
    }
    let running: RunningHost | undefined;
    beforeAll(async () => {
      // Started once by the project's setup (shared-hosts.ts), or here for this file alone.
      const origin = inject("hostOrigins")?.[host.name];
      running = origin ? { origin, stop: async () => {} } : await host.start(distOf(host));
    });
    afterAll(async () => {
      await running?.stop();
    });
    const gaps = new Set(host.knownGaps ?? []);
    const elsewhere = new Set(host.sameConfigAs?.tests ?? []);
    register({
      host,
      test: (name, fn, timeout) =>
        gaps.has(name)
          ? it.skip(`${name} [documented gap of ${host.name}]`, fn)
          : host.sample && !inSample(host.sample, name)
            ? it.skip(`${name} [outside ${host.name}'s seeded sample]`, fn)
            : elsewhere.has(name)
              ? it.skip(`${name} [run by ${host.sameConfigAs!.host} on the same config lines]`, fn)
              : it(name, fn, timeout),
      client: () => {
        if (!running) throw new Error(`host ${host.name} did not start`);
        return new Client(running.origin);
      },
    });
  });
}
