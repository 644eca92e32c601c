// A tool's file as the content cache recalls it (content-cache.ts): the fields every build reads of every tool
// (validation across files, placeholders, the catalog's orders and counts, the find index) are parsed; the others
// stay the file's value as JSON text until one of them is read, then the text is parsed once. A rebuild renders only
// what its changed files touch, so most tools' texts are never parsed, and the collector no longer copies and marks
// every object of 15,384 tools' values (a price-edit rebuild: 0.95 s against 1.02 s, alternating).
import type { ToolContent } from "./schema.ts";

/** What every build reads of every tool: kept parsed. */
export const PARSED_TOOL_FIELDS = [
  "name",
  "slug",
  "categories",
  "rating",
  "hasMcpServer",
  "hasApi",
  "hasZapier",
  "hasMake",
] as const satisfies readonly (keyof ToolContent)[];

/** The others, read from the text. Every field of a tool is in one of the two lists (recalled-tool.test.ts). */
export const TEXT_TOOL_FIELDS = [
  "$schema",
  "shortDescription",
  "websiteUrl",
  "logoUrl",
  "freeTrialDays",
  "moneyBackDays",
  "pricingPlans",
  "pros",
  "cons",
  "pricingLastVerified",
  "internalNotes",
] as const satisfies readonly (keyof ToolContent)[];

export type ParsedToolFields = Partial<Pick<ToolContent, (typeof PARSED_TOOL_FIELDS)[number]>>;

/** What the content cache keeps of a tool: the parsed fields, each plan's price, the whole value as JSON. */
export type RecalledParts = [fields: ParsedToolFields, prices: (number | null)[], text: string];

const TEXT = Symbol("the file's value as JSON");
const VALUE = Symbol("the file's value, once parsed");
const PRICES = Symbol("each plan's price");

/** Own properties: the parsed fields and the symbols (copied by Object.assign); the other fields: getters below. */
class RecalledTool {
  declare [TEXT]: string;
  declare [PRICES]: (number | null)[];
  declare [VALUE]?: ToolContent;
}
for (const field of TEXT_TOOL_FIELDS)
  Object.defineProperty(RecalledTool.prototype, field, {
    get(this: RecalledTool) {
      this[VALUE] ??= JSON.parse(this[TEXT]) as ToolContent;
      return this[VALUE][field];
    },
  });

export function recalledTool([fields, prices, text]: RecalledParts): ToolContent {
  const tool = Object.assign(new RecalledTool(), fields);
  tool[TEXT] = text;
  tool[PRICES] = prices;
  return tool as unknown as ToolContent;
}

const isRecalled = (value: unknown): value is RecalledTool => value instanceof RecalledTool;

/** The parts the cache keeps of a tool's value, parsed or recalled. */
export function recalledParts(value: ToolContent): RecalledParts {
  const fields: Record<string, unknown> = {};
  for (const field of PARSED_TOOL_FIELDS) if (Object.hasOwn(value, field)) fields[field] = value[field];
  return [fields as ParsedToolFields, planPrices(value), isRecalled(value) ? value[TEXT] : JSON.stringify(value)];
}

/** A file's whole value: a recalled tool's parsed from its text (for code that walks every field). */
export const wholeValue = (value: unknown): unknown =>
  isRecalled(value) ? (value[VALUE] ??= JSON.parse(value[TEXT]) as ToolContent) : value;

/** Each plan's price, in order, without parsing a recalled tool's text. */
export const planPrices = (tool: ToolContent): (number | null)[] =>
  isRecalled(tool) ? tool[PRICES] : tool.pricingPlans.map((plan) => plan.price);

/** A shallow copy that reads as the tool does (a recalled one's other fields still from its text). */
export const copyOfTool = <T extends ToolContent>(tool: T): T =>
  isRecalled(tool) ? Object.assign(new RecalledTool(), tool) : Object.assign({}, tool);
