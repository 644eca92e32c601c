// The real nginx accepts the generated config of the tiny fixture (`nginx -t`), in both layouts, and refuses a broken one: the check is
// real. The config itself is pinned by test/unit/hosts/nginx/adapter.test.ts.
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RouteTable } from "../../../../scripts/api/runtime/route-table.ts";
import { findNginx, testNginxConfig } from "../../../../scripts/hosts/nginx/start.ts";
import { tempDir } from "../../../helpers/fs/dirs.ts";
import { tinyTable, writeAdapterOutput } from "../../../helpers/hosts/nginx/adapter-output.ts";

let table: RouteTable;
beforeAll(async () => {
  table = await tinyTable();
});

const nginx = findNginx();
if (!nginx)
  console.warn("\n!!!!! nginx is NOT installed: the `nginx -t` tests are SKIPPED (they fail under CI=true) !!!!!\n");

describe.skipIf(!nginx && process.env.CI !== "true")("nginx -t", () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  beforeAll(async () => {
    dir = await tempDir("nginx-adapter-");
  });
  afterAll(() => dir.remove());

  it("accepts the generated nginx.conf + server.conf", async () => {
    const dist = join(dir.path, "good");
    await writeAdapterOutput(dist, table);
    const result = await testNginxConfig(dist);
    expect(result.output).toBe("");
    expect(result.ok).toBe(true);
  });

  it("accepts a runs build's nginx.conf + server.conf + api-list-pages.js (nginx's JavaScript module loaded)", async () => {
    for (const compress of [false, true]) {
      const dist = join(dir.path, `runs-${compress}`);
      await writeAdapterOutput(dist, table, undefined, { layout: "runs", compress });
      const result = await testNginxConfig(dist);
      expect(result.output).toBe("");
      expect(result.ok).toBe(true);
    }
  });

  it("refuses a broken server.conf (the check is real)", async () => {
    const dist = join(dir.path, "broken");
    await writeAdapterOutput(dist, table, (body) => body.replace("try_files /. @api_$api_action;", "try_files;"));
    const result = await testNginxConfig(dist);
    expect(result.ok).toBe(false);
    expect(result.output).toMatch(/invalid number of arguments in "try_files"/);
  });
});
