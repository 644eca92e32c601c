// The four CSV files of a catalog and their columns. A column is named after the content field it holds, so an error
// names the same field in a CSV file as in a JSON one. tools.csv: one row per tool; plans.csv: one row per pricing
// plan, in the tool's order; categories.csv: one row per category; site.csv: one row, the site settings.
import type { CellKind } from "./cells.ts";

export interface Column {
  /** the header cell, and the content field it fills */
  name: string;
  kind: CellKind;
  /** a file may leave the column out (its cells are then empty) */
  optional?: true;
}

export interface Sheet {
  file: "tools.csv" | "plans.csv" | "categories.csv" | "site.csv";
  /** what one row is, for messages */
  row: string;
  columns: readonly Column[];
}

export const TOOLS: Sheet = {
  file: "tools.csv",
  row: "tool",
  columns: [
    { name: "slug", kind: "text" },
    { name: "name", kind: "text" },
    { name: "shortDescription", kind: "text" },
    { name: "websiteUrl", kind: "text" },
    { name: "logoUrl", kind: "nullable-text" },
    { name: "rating", kind: "nullable-number" },
    { name: "freeTrialDays", kind: "nullable-integer" },
    { name: "moneyBackDays", kind: "nullable-integer" },
    { name: "hasApi", kind: "boolean" },
    { name: "hasMcpServer", kind: "boolean" },
    { name: "hasZapier", kind: "boolean" },
    { name: "hasMake", kind: "boolean" },
    { name: "pros", kind: "list" },
    { name: "cons", kind: "list" },
    { name: "pricingLastVerified", kind: "nullable-date" },
    { name: "categories", kind: "list" },
    { name: "internalNotes", kind: "optional-text", optional: true },
  ],
};

/** The column of plans.csv that names the plan's tool by its slug. */
export const PLAN_TOOL_COLUMN = "tool";

export const PLANS: Sheet = {
  file: "plans.csv",
  row: "plan",
  columns: [
    { name: PLAN_TOOL_COLUMN, kind: "text" },
    { name: "name", kind: "text" },
    { name: "price", kind: "nullable-number" },
    { name: "billing", kind: "text" },
    { name: "features", kind: "list" },
  ],
};

export const CATEGORIES: Sheet = {
  file: "categories.csv",
  row: "category",
  columns: [
    { name: "slug", kind: "text" },
    { name: "name", kind: "text" },
    { name: "topToolPick", kind: "optional-text", optional: true },
    { name: "editorialNotes", kind: "optional-text", optional: true },
  ],
};

export const SITE: Sheet = {
  file: "site.csv",
  row: "site",
  columns: [
    { name: "siteUrl", kind: "text" },
    { name: "apiBaseUrl", kind: "text" },
    { name: "basePath", kind: "optional-text", optional: true },
    { name: "cacheMaxAge", kind: "optional-integer", optional: true },
    { name: "cacheStaleWhileRevalidate", kind: "optional-integer", optional: true },
  ],
};

export const SHEETS = [TOOLS, PLANS, CATEGORIES, SITE] as const;
