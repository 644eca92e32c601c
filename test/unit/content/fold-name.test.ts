// Names fold as search reads them: accents dropped, case ignored; plain ASCII takes a shortcut that must agree.
import { expect, it } from "vitest";
import { foldName } from "../../../scripts/content/fold-name.ts";

const slowFold = (text: string) => text.normalize("NFKD").replace(/\p{M}/gu, "").toLowerCase();

it("folds every ASCII character as the full fold does", () => {
  const ascii = Array.from({ length: 128 }, (_, i) => String.fromCharCode(i)).join("");
  expect(foldName(ascii)).toBe(slowFold(ascii));
  expect(foldName("ACME Mail 2")).toBe("acme mail 2");
});

it("drops accents and folds compatibility forms outside ASCII", () => {
  expect(foldName("Crème Brûlée")).toBe("creme brulee");
  expect(foldName("ﬁnd Ｍail")).toBe("find mail");
  expect(foldName("Ünïcode ÅB")).toBe(slowFold("Ünïcode ÅB"));
});
