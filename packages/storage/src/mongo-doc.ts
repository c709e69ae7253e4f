/**
 * A record as MongoDB keeps it: its id field as `_id`, and a Date for each ISO timestamp
 * named in `Dates` (a Date or null where the record's timestamp may be null). Document types
 * derive from the domain records with it, so a field is declared once.
 */
export type MongoDocWithId<R, Id extends keyof R, Dates extends keyof R = never> = Omit<R, Id | Dates> & { _id: R[Id] } & {
  [K in Dates]: null extends R[K] ? Date | null : Date;
};

/** The usual case: a record whose id is its integer `id`. */
export type MongoDoc<R extends { id: number }, Dates extends keyof R = never> = MongoDocWithId<R, 'id', Dates>;

/** A schema field every document has: `{ type, required: true }` (mongoose's required refuses '' too: a string that may be empty is not one). */
export function requiredField<T>(type: T): { type: T; required: true } {
  return { type, required: true };
}

/** The schema fields of a document's integer id (from the `counters` collection). */
export const idField = { _id: requiredField(Number) } as const;

/** The schema fields of a document's id and organization, which every organization-scoped document has. */
export const orgScopedFields = { ...idField, orgId: requiredField(Number) } as const;
