// The build's Node flags and the variables it starts without are written twice: in package.json's build script (npm
// reads no module) and in the lists that npm start, the benchmark and the memory test start the build with. They must
// say the same, and work.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BUILD_ENV_UNSET, BUILD_NODE_FLAGS, buildProcessEnv } from "../../../scripts/launcher/build-node-flags.ts";
import { repoRoot } from "../../helpers/fs/dirs.ts";

describe("the build's Node flags", () => {
  const buildScript = () =>
    (JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8")).scripts as Record<string, string>).build!;
  const unset = BUILD_ENV_UNSET.map((name) => `-u ${name}`).join(" ");

  it("npm run build starts the launcher with exactly BUILD_NODE_FLAGS, without BUILD_ENV_UNSET", () => {
    expect(buildScript()).toBe(
      `exec env ${unset} node ${BUILD_NODE_FLAGS.join(" ")} scripts/launcher/launch.cjs scripts/commands/build.ts`,
    );
  });

  it("the build script's process and buildProcessEnv's lack those variables, and keep every other", () => {
    const probe = `node -e 'process.stdout.write(JSON.stringify([process.env.NODE_EXTRA_CA_CERTS, process.env.KEPT]))'`;
    const command = buildScript().replace(/ node .*$/, ` ${probe}`);
    const env = { ...process.env, NODE_EXTRA_CA_CERTS: "/nowhere/ca.pem", KEPT: "yes" };
    expect(JSON.parse(execFileSync("sh", ["-c", command], { env, encoding: "utf8" }))).toEqual([null, "yes"]);
    expect(buildProcessEnv(env)).toEqual({ ...process.env, KEPT: "yes", NODE_EXTRA_CA_CERTS: undefined });
    expect("NODE_EXTRA_CA_CERTS" in buildProcessEnv(env)).toBe(false);
  });

  it("this Node accepts them, and the young generation stays small while live objects pile up", () => {
    // About 20 MB of live objects: without the flags the young generation grows to 32 MiB or more (two 8 MiB semi-spaces with).
    const program = [
      "const keep = []; for (let i = 0; i < 200000; i++) keep.push({ i, s: 'x' + i });",
      "const space = require('v8').getHeapSpaceStatistics().find((s) => s.space_name === 'new_space');",
      "process.stdout.write(String(space.space_size));",
    ].join("\n");
    const size = (flags: readonly string[]) =>
      Number(execFileSync(process.execPath, [...flags, "-e", program], { encoding: "utf8" }));
    expect(size(BUILD_NODE_FLAGS)).toBeLessThanOrEqual(16 << 20);
    expect(size([])).toBeGreaterThan(16 << 20);
  });

  it("the old generation is not collected whole while the first 100 MB of live objects pile up", () => {
    const program = "const keep = []; for (let i = 0; i < 1000000; i++) keep.push({ i, s: 'x' + i, a: [i] });";
    const fullCollections = (flags: readonly string[]) =>
      execFileSync(process.execPath, [...flags, "--trace-gc", "-e", program], { encoding: "utf8" })
        .split("\n")
        .filter((line) => line.includes("Mark-Compact")).length;
    expect(fullCollections(BUILD_NODE_FLAGS)).toBe(0);
    expect(fullCollections(BUILD_NODE_FLAGS.filter((f) => !f.startsWith("--initial-old-space-size")))).toBeGreaterThan(
      0,
    );
  });
});
