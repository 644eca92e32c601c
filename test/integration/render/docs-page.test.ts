// The docs page at the site root: our own files only, and, in a real Chromium, Redoc renders every operation of the
// description with no console error and no failed request. Skips loudly without Chromium; fails instead when CI=true.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { join } from "node:path";
import { type Browser, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../../../scripts/hosts/free-port.ts";
import { startServer } from "../../../scripts/hosts/node/server/start-server.ts";
import { makeStaticCopy } from "../../../scripts/hosts/static/static-copy.ts";
import { BLANK_IMAGE, DOCS_FILES, REDOC_CDN_LOGO, tryRequests } from "../../../scripts/render/docs-page.ts";
import { OPERATIONS } from "../../../scripts/render/openapi-text.ts";
import { bruteForceSearch } from "../../helpers/conformance/search-oracle.ts";
import { repoRoot, tempDir } from "../../helpers/fs/dirs.ts";
import { startServe } from "../../helpers/hosts/serve-package.ts";
import { buildOpenapiSite, type OpenapiSite } from "../../helpers/openapi/openapi-site.ts";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const hasChromium = existsSync(CHROMIUM);
// Screenshots for a person to look at after a run (tmp/ is ignored by git).
const SCREENSHOTS = join(repoRoot, "tmp/docs-page");
const shot = (name: string) => join(SCREENSHOTS, `${name}.png`);

describe("docs page (dist/index.html + Redoc bundle)", () => {
  let site: OpenapiSite;
  let html: string;
  beforeAll(async () => {
    site = await buildOpenapiSite();
    html = await readFile(join(site.dist, DOCS_FILES.page.file), "utf8");
  });
  afterAll(() => site?.remove());

  it("loads nothing from another origin: every src and href is relative, no web font, no CDN", () => {
    const refs = [...html.matchAll(/\s(?:src|href)="([^"]*)"/g)].map((m) => m[1]!);
    expect(refs.length).toBeGreaterThan(0);
    // "data:," is the empty favicon: without it Chromium asks for /favicon.ico.
    for (const ref of refs) expect(ref, ref).toMatch(/^(\.\/|data:,$)/);
    expect(html).not.toMatch(/fonts\.googleapis|cdn\.|unpkg|jsdelivr|@import/);
  });

  it("ships the Redoc standalone bundle as published but for its one CDN logo URL, with its license notice", async () => {
    const redocDir = createRequire(import.meta.url)
      .resolve("redoc/package.json")
      .replace(/package\.json$/, "bundles/");
    const published = (await readFile(join(redocDir, "redoc.standalone.js"), "utf8")).split(
      JSON.stringify(REDOC_CDN_LOGO),
    );
    expect(published.length).toBe(2);
    const shipped = await readFile(join(site.dist, DOCS_FILES.redoc.file), "utf8");
    expect(shipped).toBe(published.join(JSON.stringify(BLANK_IMAGE)));
    expect(shipped).not.toContain("cdn.");
    expect(await readFile(join(site.dist, DOCS_FILES.redocLicense.file), "utf8")).toContain("ReDoc");
  });

  it("every 'try it' request answers its documented status on the live API", async () => {
    const server = await startServer({ distDir: site.dist, port: 0 });
    try {
      const requests = tryRequests(site.catalog, site.table);
      for (const r of requests) {
        expect(html).toContain(`href=".${r.target.replaceAll("&", "&#38;")}"`);
        const res = await fetch(server.url + r.target, { signal: AbortSignal.timeout(10_000) });
        await res.arrayBuffer();
        expect(res.status, r.target).toBe(r.status);
      }
    } finally {
      await server.close();
    }
  });

  describe.skipIf(!hasChromium && process.env.CI !== "true")("in Chromium (playwright-core)", () => {
    let browser: Browser;
    let server: Awaited<ReturnType<typeof startServer>>;
    // biome-ignore lint/suspicious/noDuplicateTestHooks: this block's own hooks (a nested, conditional describe)
    beforeAll(async () => {
      server = await startServer({ distDir: site.dist, port: 0 });
      browser = await chromium.launch({
        executablePath: CHROMIUM,
        args: [
          "--headless",
          "--no-sandbox",
          "--disable-gpu",
          "--disable-quic",
          "--no-first-run",
          "--disable-background-networking",
          "--disable-component-update",
          "--disable-sync",
        ],
        timeout: 30_000,
      });
    });
    // biome-ignore lint/suspicious/noDuplicateTestHooks: as above
    afterAll(async () => {
      await (await desktop)?.page.close();
      await browser?.close();
      await server?.close();
    });

    /**
     * The page served by the API at 1280 × 900, opened once for the tests that only read it (each Redoc render costs
     * ~5 s of CPU here), with what went wrong recorded from its first request.
     */
    let desktop: Promise<{ page: Page; status?: number; problems: string[]; offOrigin: string[] }> | undefined;
    const desktopPage = () =>
      (desktop ??= (async () => {
        const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
        const problems: string[] = [];
        const offOrigin: string[] = [];
        page.on("console", (m) => {
          if (m.type() === "error") problems.push(`console error: ${m.text()}`);
        });
        page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
        page.on("requestfailed", (r) => problems.push(`request failed: ${r.url()} ${r.failure()?.errorText}`));
        page.on("response", (r) => {
          if (r.status() >= 400) problems.push(`HTTP ${r.status()}: ${r.url()}`);
        });
        page.on("request", (r) => {
          if (!r.url().startsWith(server.url) && !/^(data|blob):/.test(r.url())) offOrigin.push(r.url());
        });
        const res = await page.goto(`${server.url}/`, { waitUntil: "load", timeout: 30_000 });
        return { page, status: res?.status(), problems, offOrigin };
      })());

    it("renders every operation, with no console error, no failed request, nothing off-origin", async () => {
      const { page, status, problems, offOrigin } = await desktopPage();
      expect(status).toBe(200);
      for (const [operationId, { summary }] of Object.entries(OPERATIONS)) {
        // Redoc gives each operation a section whose id ends with operation/<operationId>, headed by its summary.
        const section = page.locator(`[id$="operation/${operationId}"]`).first();
        await section.waitFor({ state: "attached", timeout: 30_000 });
        await expect
          .poll(async () => (await section.locator("h2").first().textContent())?.trim(), { timeout: 10_000 })
          .toBe(summary);
      }
      await page.waitForLoadState("networkidle", { timeout: 15_000 });
      await page.screenshot({ path: shot("desktop-1280") });
      // A second view: the first operation with its parameters, responses and the example of the built catalog.
      await page
        .locator('[id$="operation/listSoftware"]')
        .first()
        .evaluate((el) => el.scrollIntoView({ block: "start" }));
      await page.screenshot({ path: shot("desktop-1280-operation") });
      expect(problems).toEqual([]);
      expect(offOrigin).toEqual([]);
    });

    it("try-it box: one card per request (method, path, what it shows), in the page's fonts", async () => {
      const { page } = await desktopPage();
      const cards = page.locator("#try li a");
      const requests = tryRequests(site.catalog, site.table);
      await expect.poll(() => cards.count()).toBe(requests.length);
      for (const [i, r] of requests.entries()) {
        const card = cards.nth(i);
        expect(await card.locator(".method").textContent()).toBe(r.method);
        expect(await card.locator(".path").textContent()).toBe(r.target);
        expect(await card.locator(".shows").textContent()).toContain(r.shows);
      }
      // Same font as Redoc's headings (set through its theme), not the browser's default serif.
      await page.locator('[id$="operation/listSoftware"] h2').first().waitFor({ timeout: 30_000 });
      // (Expressions as strings: the test's TypeScript has no DOM library; they run in the page.)
      const fonts = await page.evaluate<string[]>(
        `[getComputedStyle(document.querySelector("#try h2")).fontFamily, getComputedStyle(document.querySelector('[id$="operation/listSoftware"] h2')).fontFamily]`,
      );
      expect(fonts[0]).toBe(fonts[1]);
      // On a wide screen the cards sit side by side in rows, not in one long column.
      const tops = await cards.evaluateAll((els) => els.map((e) => e.getBoundingClientRect().top));
      expect(new Set(tops).size).toBeLessThan(tops.length);
    });

    it("opens with the API's name and what it is, above the try-it box, at desktop and phone widths", async () => {
      for (const width of [1280, 375]) {
        const page = await browser.newPage({ viewport: { width, height: 800 } });
        await page.goto(`${server.url}/`, { waitUntil: "load", timeout: 30_000 });
        const h1 = page.locator("h1").first();
        expect(await h1.textContent()).toBe("Marketing Software Data API");
        const [title, tryBox] = await Promise.all([h1.boundingBox(), page.locator("#try").boundingBox()]);
        expect(title!.y + title!.height, `${width} px`).toBeLessThanOrEqual(tryBox!.y);
        expect(title!.y, `${width} px: the name is on the first screen`).toBeLessThan(200);
        expect(await page.locator("#about p").textContent()).toContain("read-only JSON API of marketing software");
        await page.close();
      }
    });

    it.each([
      ["as plain files", servePlainFiles],
      ["by npx serve (its rewrites answer a list's first page whatever the query)", serveWithServe],
    ] as const)(
      "on an export served %s, every try-it card opens the file that answers its request",
      async (_, host) => {
        const exported = await tempDir("msapi-docs-export-");
        const files = await host(exported.path, site.dist);
        const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
        try {
          await page.goto(`${files.url}/`, { waitUntil: "load", timeout: 30_000 });
          await expect.poll(() => page.locator("#try.files").count(), { timeout: 10_000 }).toBe(1);
          expect(await page.locator("#try .files-note").isVisible()).toBe(true);
          const requests = tryRequests(site.catalog, site.table);
          // The page marks itself a file host, then rewrites the cards after one more fetch: wait for the rewrite.
          const hrefs = () => page.locator("#try li a").evaluateAll((els) => els.map((e) => e.getAttribute("href")));
          await expect.poll(hrefs, { timeout: 10_000 }).toEqual(requests.map((r) => `./${r.file}`));
          // A file host answers the error's body with 200: the card shows no status, as the note above it says.
          const errorCard = page.locator("#try li a").nth(requests.findIndex((r) => r.status >= 400));
          expect(await errorCard.locator(".status").isVisible()).toBe(false);
          // biome-ignore lint/performance/useDomNodeTextContent: the text a reader sees, with the page's CSS applied
          expect(await errorCard.innerText()).not.toContain("400");
          expect(await page.locator("#try li a").first().locator(".shows").textContent()).toBe(requests[0]!.shows);
          for (const r of requests) {
            // Followed as a click follows it: the browser's own request for the card's address.
            const res = await page.goto(new URL(`./${r.file}`, `${files.url}/`).href, { timeout: 10_000 });
            expect(res?.status(), r.target).toBe(200);
            expect(await res!.text(), r.target).toBe(await readFile(join(site.dist, r.file), "utf8"));
          }
        } finally {
          await page.close();
          await files.stop();
          await exported.remove();
        }
      },
    );

    /** Types "Mäil" (an accent and a capital: the box folds it as names are folded) and waits for search's first 20. */
    const searchMail = async (page: Page) => {
      await page.locator("#search-q").fill("Mäil");
      const expected = bruteForceSearch(site.catalog.tools, "mail");
      await expect
        .poll(() => page.locator("#search-results a").evaluateAll((els) => els.map((e) => e.textContent)), {
          timeout: 10_000,
        })
        .toEqual(expected.slice(0, 20).map((t) => t.name));
      return expected;
    };

    it("the search box lists what search answers, on the API and on an export served as plain files", async () => {
      const exported = await tempDir("msapi-docs-search-");
      const files = await servePlainFiles(exported.path, site.dist);
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      try {
        for (const [origin, suffix] of [
          [server.url, ""],
          [files.url, ".json"],
        ] as const) {
          await page.goto(`${origin}/`, { waitUntil: "load", timeout: 30_000 });
          const expected = await searchMail(page);
          expect(await page.locator("#search-status").textContent()).toContain(`${expected.length} tools`);
          const href = await page.locator("#search-results a").first().getAttribute("href");
          expect(href).toBe(`./v1/software/${expected[0]!.slug}${suffix}`);
          await page.locator("#search-q").fill("zzzzqqq");
          await expect
            .poll(() => page.locator("#search-status").textContent(), { timeout: 10_000 })
            .toContain("No tool");
          // Several words, as people type names: each must start a word of the name.
          for (const [typed, words] of [
            ["Mäil B", ["mail", "b"]],
            ["alpha  MAIL", ["alpha", "mail"]],
          ] as const) {
            const matches = site.catalog.tools.filter((t) => words.every((w) => bruteForceSearch([t], w).length > 0));
            expect(matches.length, typed).toBeGreaterThan(0);
            await page.locator("#search-q").fill(typed);
            await expect
              .poll(() => page.locator("#search-results a").evaluateAll((els) => els.map((e) => e.textContent)), {
                timeout: 10_000,
              })
              .toEqual(matches.map((t) => t.name));
            expect(await page.locator("#search-results a").first().getAttribute("href")).toBe(
              `./v1/software/${matches[0]!.slug}${suffix}`,
            );
            expect(await page.locator("#search-status").textContent()).toMatch(/^1 tool with words starting with/);
          }
        }
      } finally {
        await page.close();
        await files.stop();
        await exported.remove();
      }
    });

    it("on an aligned export (--pages aligned), every card and search result opens a file that is there", async () => {
      const exported = await tempDir("msapi-docs-aligned-");
      // Limits 3 and 50: the first card's limit=5 page and the category card's limit=20 page are not exported.
      const files = await servePlainFiles(exported.path, site.dist, [3, 50]);
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      try {
        await page.goto(`${files.url}/`, { waitUntil: "load", timeout: 30_000 });
        await expect.poll(() => page.locator("#try.files").count(), { timeout: 10_000 }).toBe(1);
        const requests = tryRequests(site.catalog, site.table);
        // The cards are rewritten once the limits file is read: poll until the first card no longer names limit 5.
        await expect
          .poll(() => page.locator("#try li a").first().getAttribute("href"), { timeout: 10_000 })
          .toBe("./v1/software/pages/all/50/0.json");
        // It opens a page of 50, and says so.
        expect(await page.locator("#try li a").first().locator(".shows").textContent()).toBe(
          "The first 50 tools, in name order",
        );
        const hrefs = await page.locator("#try li a").evaluateAll((els) => els.map((e) => e.getAttribute("href")!));
        expect(hrefs).toEqual(
          requests.map(
            (r) =>
              `./${r.file.replace(/\/(\d+)\/0\.json$/, (_, limit) => (limit === "3" || limit === "50" ? `/${limit}/0.json` : "/50/0.json"))}`,
          ),
        );
        for (const href of hrefs) {
          const res = await page.goto(new URL(href, `${files.url}/`).href, { timeout: 10_000 });
          expect(res?.status(), href).toBe(200);
          expect(await res!.text(), href).toBe(await readFile(join(site.dist, href), "utf8"));
        }
        await page.goto(`${files.url}/`, { waitUntil: "load", timeout: 30_000 });
        await searchMail(page);
        for (const href of await page
          .locator("#search-results a")
          .evaluateAll((els) => els.map((e) => e.getAttribute("href")!))) {
          const res = await page.goto(new URL(href, `${files.url}/`).href, { timeout: 10_000 });
          expect(res?.status(), href).toBe(200);
        }
      } finally {
        await page.close();
        await files.stop();
        await exported.remove();
      }
    });

    it("served by the API, the cards keep their request addresses", async () => {
      const { page } = await desktopPage();
      await page.waitForLoadState("networkidle", { timeout: 30_000 });
      const requests = tryRequests(site.catalog, site.table);
      const hrefs = await page.locator("#try li a").evaluateAll((els) => els.map((e) => e.getAttribute("href")));
      expect(hrefs).toEqual(requests.map((r) => `.${r.target}`));
      expect(await page.locator("#try.files").count()).toBe(0);
    });

    for (const width of [375, 420]) {
      it(`at ${width} px wide nothing overflows sideways: no horizontal scroll, every try-it card inside the viewport`, async () => {
        const page = await browser.newPage({
          viewport: { width, height: 800 },
          deviceScaleFactor: 1,
          isMobile: true,
          hasTouch: true,
        });
        await page.goto(`${server.url}/`, { waitUntil: "load", timeout: 30_000 });
        await page.locator('[id$="operation/listSoftware"]').first().waitFor({ state: "attached", timeout: 30_000 });
        await page.waitForLoadState("networkidle", { timeout: 15_000 });
        type Box = { left: number; right: number; top: number; bottom: number };
        const layout = await page.evaluate<{ scrollWidth: number; innerWidth: number; cards: Box[] }>(`({
          scrollWidth: document.documentElement.scrollWidth,
          innerWidth: window.innerWidth,
          cards: [...document.querySelectorAll("#try li")].map((li) => {
            const r = li.getBoundingClientRect();
            return { left: r.left, right: r.right, top: r.top, bottom: r.bottom };
          }),
        })`);
        expect(layout.innerWidth).toBe(width);
        expect(layout.scrollWidth).toBeLessThanOrEqual(layout.innerWidth);
        expect(layout.cards.length).toBeGreaterThan(0);
        for (const c of layout.cards) {
          expect(c.left).toBeGreaterThanOrEqual(0);
          expect(c.right).toBeLessThanOrEqual(width);
        }
        // One column: no two cards share a row, and none overlaps the next.
        for (let i = 1; i < layout.cards.length; i++)
          expect(layout.cards[i]!.top).toBeGreaterThanOrEqual(layout.cards[i - 1]!.bottom);
        if (width === 375) await page.screenshot({ path: shot("mobile-375"), fullPage: false });
        else await page.screenshot({ path: shot(`mobile-${width}`) });
        await page.close();
      });
    }
  });

  it.runIf(!hasChromium && process.env.CI !== "true")("SKIPPED: no Chromium — the browser test did not run", () => {
    console.warn(
      `\n*** docs page browser test SKIPPED: no Chromium at ${CHROMIUM} (set CHROMIUM_PATH; with CI=true this fails) ***\n`,
    );
  });
});

/** `npm run export -- --host serve` of a build, served by the real `serve` package as `npx serve DIR` does (with the export's serve.json). */
async function serveWithServe(into: string, distDir: string): Promise<{ url: string; stop: () => Promise<void> }> {
  const out = join(into, "public");
  await makeStaticCopy(distDir, out, "serve");
  const serve = await startServe(out);
  return { url: serve.origin, stop: serve.stop };
}

/** `npm run export` of a build, served by Python's http.server: a plain file host (no routes, no queries). */
async function servePlainFiles(
  into: string,
  distDir: string,
  alignedLimits?: number[],
): Promise<{ url: string; stop: () => Promise<void> }> {
  const out = join(into, "public");
  await makeStaticCopy(distDir, out, "static", alignedLimits);
  const port = await freePort();
  const child = spawn(
    "/usr/bin/python3",
    ["-m", "http.server", String(port), "--bind", "127.0.0.1", "--directory", out],
    {
      stdio: "ignore",
    },
  );
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 100; i++) {
    if (
      await fetch(`${url}/index.html`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    stop: async () => {
      child.kill("SIGTERM");
      await new Promise((r) => child.once("exit", r));
    },
  };
}
