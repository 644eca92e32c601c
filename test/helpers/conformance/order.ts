// O1 written independently of the build: lower-cased name by UTF-16 code units (`<`), ties by slug.
export interface Named {
  name: string;
  slug: string;
}

export function compareByName(a: Named, b: Named): number {
  const x = a.name.toLowerCase();
  const y = b.name.toLowerCase();
  if (x !== y) return x < y ? -1 : 1;
  return a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0;
}

/** O3: lowest price first, null prices last, ties by O1. */
export function compareByPrice(
  a: Named & { lowestPrice: number | null },
  b: Named & { lowestPrice: number | null },
): number {
  if (a.lowestPrice !== b.lowestPrice) {
    if (a.lowestPrice === null) return 1;
    if (b.lowestPrice === null) return -1;
    return a.lowestPrice - b.lowestPrice;
  }
  return compareByName(a, b);
}
