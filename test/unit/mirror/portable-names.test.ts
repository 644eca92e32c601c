// A mirror's file names hold on any system (Windows, zip, git on Windows) and read back to their one target.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fileOfTarget, portableName, targetOfPortableName } from "../../../scripts/mirror/update-mirror.ts";

describe("a mirror copy's file names", () => {
  it("write a query's characters Windows refuses as %XX, and nothing else", () => {
    expect(fileOfTarget("/v1", "/v1/software?limit=99&offset=9&category=seo")).toBe(
      "v1/software%3Flimit=99&offset=9&category=seo.json",
    );
    expect(fileOfTarget("/v1", "/v1/search?q=mail")).toBe("v1/search%3Fq=mail.json");
    expect(fileOfTarget("/v1", "/v1/software/mailwave")).toBe("v1/software/mailwave.json");
    expect(fileOfTarget("/v1", "/v1/export/catalog.json")).toBe("v1/export/catalog.json");
    expect(portableName('a<b>c:d"e|f?g*h%i\u0001')).toBe("a%3Cb%3Ec%3Ad%22e%7Cf%3Fg%2Ah%25i%01");
  });

  it("read back to exactly the name they were made from, with no character Windows refuses", () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom(...'az09-_.=&/%<>:"\\|?*é\u0001\u001f'), maxLength: 40 }),
        (name) => {
          const portable = portableName(name);
          // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are among those Windows refuses
          return !/[<>:"\\|?*\u0000-\u001f]/.test(portable) && targetOfPortableName(portable) === name;
        },
      ),
      { numRuns: 300 },
    );
  });
});
