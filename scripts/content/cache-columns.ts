// Records stored field by field, for the content cache (content-cache.ts): V8's deserializer makes each object of a
// stored value through the runtime, many times slower than a loop of object literals, while an array of strings or
// numbers it reads almost as fast as bytes. A field whose values repeat (a placeholder's kind, a category slug, the
// context every tool's texts were made under) is stored as a table and indexes: each value read once, then shared;
// a field whose values are arrays, as their lengths and their items one after another.

/**
 * The values of one field, in record order: as they are; as indexes into a table of the distinct ones; or, arrays
 * (or none, undefined), as each one's length (-1: none) and all their items as one column.
 */
export type Column = { values: unknown[] } | { table: unknown[]; at: number[] } | { counts: number[]; items: Column };

/** Tabled when the distinct values are at most this share of all. */
const REPEATED = 1 / 4;

export function toColumn(values: readonly unknown[]): Column {
  if (values.some(Array.isArray) && values.every((v) => v === undefined || Array.isArray(v))) {
    const { counts, items } = toLists(values as readonly (readonly unknown[] | undefined)[]);
    return { counts, items: toColumn(items) };
  }
  const index = new Map<unknown, number>();
  for (const value of values) if (!index.has(value)) index.set(value, index.size);
  if (index.size > values.length * REPEATED) return { values: [...values] };
  return { table: [...index.keys()], at: values.map((value) => index.get(value)!) };
}

export function columnValues(column: Column): unknown[] {
  if ("values" in column) return column.values;
  if ("table" in column) return column.at.map((i) => column.table[i]);
  return listsOf(column.counts, columnValues(column.items));
}

/** Lists (or none, undefined) one after another: each one's length (-1: none), and all their items. */
export function toLists<T>(lists: readonly (readonly T[] | undefined)[]): { counts: number[]; items: T[] } {
  return { counts: lists.map((l) => (l ? l.length : -1)), items: lists.flatMap((l) => l ?? []) };
}

/** Lists one after another back as lists: `counts` as toLists makes them. */
export function listsOf<T>(counts: readonly number[], items: readonly T[]): (T[] | undefined)[] {
  let at = 0;
  return counts.map((count) => {
    if (count < 0) return undefined;
    at += count;
    return items.slice(at - count, at);
  });
}

/**
 * Records, field by field, in the order of `fields`, which is the order their fields are read back in. A field a
 * record lacks is stored as undefined (no JSON value is) and read back absent; a record itself may be undefined.
 */
export interface Columns {
  fields: string[];
  present: boolean[];
  columns: Column[];
}

/** `fields`: by default every field of any record, in the order first seen. */
export function toColumns(records: readonly (object | undefined)[], fields?: readonly string[]): Columns {
  const named = fields ? [...fields] : [...new Set(records.flatMap((r) => (r ? Object.keys(r) : [])))];
  return {
    fields: named,
    present: records.map((r) => r !== undefined),
    columns: named.map((field) =>
      toColumn(records.map((r) => (r && Object.hasOwn(r, field) ? (r as Record<string, unknown>)[field] : undefined))),
    ),
  };
}

export function fromColumns<T extends object>({ fields, present, columns }: Columns): (T | undefined)[] {
  const values = columns.map(columnValues);
  return present.map((here, i) => {
    if (!here) return undefined;
    const record: Record<string, unknown> = {};
    for (let f = 0; f < fields.length; f++) {
      const value = values[f]![i];
      if (value !== undefined) record[fields[f]!] = value;
    }
    return record as T;
  });
}
