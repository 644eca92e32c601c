// A slug from a display name, by the content schema's slug rule: lower-case letters and digits in words joined by "-".
import { SLUG_PATTERN } from "../content/schema.ts";

const slugRule = new RegExp(SLUG_PATTERN);

/** "Acme Mail" → "acme-mail", "Señal & Co." → "senal-co"; undefined when nothing of the name is left. */
export function slugFromName(name: string): string | undefined {
  const slug = name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "") // accents, split off by NFKD
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
  return slugRule.test(slug) ? slug : undefined;
}

export const isSlug = (value: string) => slugRule.test(value);
