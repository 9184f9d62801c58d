/** `{ [field]: { from, to } }` when an edit changed the field, else nothing: the changes an audit event tells. */
export const changed = <K extends string, T>(field: K, from: T, to: T) =>
  (from !== to ? { [field]: { from, to } } : {}) as Partial<Record<K, { from: T; to: T }>>;
