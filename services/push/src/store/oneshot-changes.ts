import type { Oneshot } from '../domain/records';

/** What a transition may change of a oneshot; the other fields are written once, by create. */
const changeableFields = [
  'name',
  'description',
  'payload',
  'state',
  'updatedAt',
  'scheduledAt',
  'releasedAt',
  'location',
  'address',
  'geofenceRadius',
] as const;
type ChangeableField = (typeof changeableFields)[number];
const changeable = new Set<keyof Oneshot>(changeableFields);

/** What to write: the payload only when the transition replaced it. */
export type OneshotChanges = Pick<Oneshot, Exclude<ChangeableField, 'payload'>> & Partial<Pick<Oneshot, 'payload'>>;

export interface OneshotWrite {
  oneshot: Oneshot;
  changes: OneshotChanges;
}

/**
 * What to write for each oneshot a transition returned, given those it was handed. The
 * payload is written only when the transition replaced it: it may be megabytes of images,
 * which a revocation or a completion leaves as they are. A transition that returns a
 * oneshot it was not handed, or changes a field only create writes, is a bug: it throws.
 */
export function oneshotWrites(loaded: Array<Oneshot | null>, changed: Oneshot[]): OneshotWrite[] {
  const before = new Map(loaded.flatMap((oneshot) => (oneshot ? [[oneshot.id, oneshot] as const] : [])));
  return changed.map((oneshot) => {
    const was = before.get(oneshot.id);
    if (!was) throw new Error(`Oneshot ${oneshot.id} was not loaded for this change`);
    const fixed = (Object.keys(was) as Array<keyof Oneshot>).find((field) => !changeable.has(field) && was[field] !== oneshot[field]);
    if (fixed) throw new Error(`A transition changed ${fixed} of oneshot ${oneshot.id}, which only create writes`);
    const { payload, ...kept } = pickChangeable(oneshot);
    const changes: OneshotChanges = payload === was.payload ? kept : { ...kept, payload };
    return { oneshot, changes };
  });
}

function pickChangeable(oneshot: Oneshot): Pick<Oneshot, ChangeableField> {
  const { name, description, payload, state, updatedAt, scheduledAt, releasedAt, location, address, geofenceRadius } = oneshot;
  return { name, description, payload, state, updatedAt, scheduledAt, releasedAt, location, address, geofenceRadius };
}
