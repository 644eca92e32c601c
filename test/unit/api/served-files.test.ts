// Which files of a build are served: a body a route answers with, never a precompressed sibling, a dotfile or a path
// with an empty segment.
import { expect, it } from "vitest";
import { servedFileFilter } from "../../../scripts/api/served-files.ts";
import { tinyTable } from "../../helpers/hosts/nginx/adapter-output.ts";

it("serves the bodies routes answer with, and no path with an empty or dotted segment, nor a sibling", async () => {
  const isServed = servedFileFilter(await tinyTable());
  for (const path of ["v1/software/acme.json", "v1/categories.json", "v1/sync/pieces/abc.json", "llms.txt"])
    expect(isServed(path), path).toBe(true);
  for (const path of [
    "",
    "/v1/software/acme.json",
    "v1//software/acme.json",
    "v1/software/",
    ".build-manifest.json",
    "v1/.hidden/acme.json",
    "v1/software/.acme.json",
    "v1/software/acme.json.gz",
    "v1/software/acme.json.br",
    "routes.json",
  ])
    expect(isServed(path), path).toBe(false);
  // Under a route whose name takes any segments, a path is served exactly when splitting it shows no empty or
  // dotted segment.
  const bySegments = (path: string) => path.split("/").some((s) => s === "" || s.startsWith("."));
  for (const path of ["a", "a/b", "a/.b", ".a", "a/", "/a", "a//b", "a/b.c/d", "a/b/.", "..", "a/..b", "a.b/c."])
    expect(isServed(`v1/sync/${path}`), path).toBe(!bySegments(`v1/sync/${path}`));
});
