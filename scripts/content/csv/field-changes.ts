// What an import changes in one content file, field by field: `pricingPlans[1].price: 9 → 11`, so a dry run can be
// read before anything is written. Lists are compared entry by entry, objects key by key (their order aside).

export interface FieldChange {
  /** the field, as content errors name it: `pricingPlans[1].price`, `pros[2]`, `name` */
  path: string;
  /** the value before; absent when the field (or list entry) is new */
  from?: unknown;
  /** the value after; absent when the field (or list entry) is gone */
  to?: unknown;
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);

/** The fields that differ between two versions of a file's data (`$schema` aside: the import keeps a file's own). */
export function fieldChanges(before: unknown, after: unknown, path = ""): FieldChange[] {
  if (Array.isArray(before) && Array.isArray(after))
    return Array.from({ length: Math.max(before.length, after.length) }, (_, i) =>
      fieldChanges(i < before.length ? before[i] : undefined, i < after.length ? after[i] : undefined, `${path}[${i}]`),
    ).flat();
  if (isObject(before) && isObject(after)) {
    const keys = [...new Set([...Object.keys(after), ...Object.keys(before)])].filter((k) => path || k !== "$schema");
    return keys.flatMap((k) => fieldChanges(before[k], after[k], path ? `${path}.${k}` : k));
  }
  if (before === after) return [];
  const change: FieldChange = { path };
  if (before !== undefined) change.from = before;
  if (after !== undefined) change.to = after;
  return [change];
}

const LONGEST = 60;

/** A value as the report shows it: JSON, cut short past 60 characters; `(none)` for an absent one. */
export function shownValue(value: unknown): string {
  if (value === undefined) return "(none)";
  const text = JSON.stringify(value);
  return text.length > LONGEST ? `${text.slice(0, LONGEST - 1)}…` : text;
}

/** `mailwave: pricingPlans[1].price: 9 → 11` */
export const describeFieldChange = (slug: string, c: FieldChange) =>
  `${slug}: ${c.path}: ${shownValue(c.from)} → ${shownValue(c.to)}`;
