// The objects bodies hold, made in the order of their contract's field list (scripts/schemas/field-lists.ts): a
// renderer says only where a field comes from when it is not the source's own field of that name.

/**
 * How to take each field of `Out` from a `T`: required for a field `T` has not, or has with another type; optional
 * for the others, which are taken as they are unless given (a field of the same name may still need another source).
 */
export type FieldSources<T, Out> = {
  [K in keyof Out as K extends keyof T ? (T[K] extends Out[K] ? never : K) : K]-?: (source: T) => Out[K];
} & { [K in keyof Out]?: (source: T) => Out[K] };

/**
 * A function that makes an `Out` of a `T`: the fields of `fields`, in that order, each from `sources` or `T`'s own.
 *
 * It is compiled once into one object literal, as a hand-written one would be: the build makes ~15,000 summaries,
 * details and catalog body items at the landscape's size, and a loop of keyed stores made each object about 1.5×
 * slower to make and to serialize. The field names are the contract's constants, quoted as JSON strings.
 */
export function fieldPicker<T extends object, Out>(
  fields: readonly (keyof Out & string)[],
  sources: FieldSources<T, Out>,
): (source: T) => Out {
  const given = sources as Partial<Record<string, (source: T) => unknown>>;
  const getters = fields.map((field) => given[field]);
  const values = fields.map((field, i) => {
    const name = JSON.stringify(field);
    return `${name}: ${getters[i] ? `getters[${i}](source)` : `source[${name}]`}`;
  });
  return new Function("getters", `return (source) => ({ ${values.join(", ")} });`)(getters);
}
