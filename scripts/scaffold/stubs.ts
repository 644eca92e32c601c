// The stub of a new content file: valid as it stands (it builds and is published), with short placeholders to fill in.
import type { CategoryContent, ToolContent } from "../content/schema.ts";

export interface ToolStubInput {
  name: string;
  slug: string;
  /** `$schema`: the content schema, relative to the file's folder, so editors validate as one types */
  schemaRef: string;
  categories: string[];
}

/** Every field of a tool, in the order of the existing files; unknowns are null or empty, never invented. */
export function toolStub({ name, slug, schemaRef, categories }: ToolStubInput): ToolContent {
  return {
    $schema: schemaRef,
    name,
    slug,
    shortDescription: `TODO: what ${name} does, in one sentence.`,
    // .example is reserved (RFC 2606): a placeholder that can never point at a real vendor.
    websiteUrl: `https://${slug}.example/`,
    logoUrl: null,
    rating: null,
    freeTrialDays: null,
    moneyBackDays: null,
    pricingPlans: [],
    hasApi: false,
    hasMcpServer: false,
    hasZapier: false,
    hasMake: false,
    pros: [],
    cons: [],
    pricingLastVerified: null,
    categories,
  };
}

export function categoryStub({ name, slug, schemaRef }: Omit<ToolStubInput, "categories">): CategoryContent {
  return { $schema: schemaRef, name, slug };
}
