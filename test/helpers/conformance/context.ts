// What a test file knows before any request: the built dist/ and the catalog it came from (globalSetup provides both).
import { inject } from "vitest";
import { type Catalog, loadCatalog } from "./catalog.ts";

export function suiteContext(): { distDir: string; catalog: Catalog } {
  const distDir = inject("distDir");
  if (!distDir)
    throw new Error("no distDir provided: vitest.config.ts must list test/setup/build-catalog.ts in globalSetup");
  return { distDir, catalog: loadCatalog(inject("contentDir"), distDir) };
}

/** `/v1` + path */
export const api = (catalog: Catalog, path: string) => catalog.basePath + path;
