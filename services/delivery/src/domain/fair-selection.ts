/** A delivery due now, as the store lists them for the worker to choose from. */
export interface DueCandidate {
  id: number;
  orgId: number;
  destinationId: number;
}

/** Attempts under way (leased by any replica), by destination and by organization. */
export interface InFlight {
  byDestination: Map<number, number>;
  byOrganization: Map<number, number>;
}

export interface ConcurrencyLimits {
  /** Attempts this worker may start now (its free slots). */
  slots: number;
  perDestination: number;
  perOrganization: number;
}

/**
 * Which due deliveries to attempt now, so that one organization or one destination never
 * holds up another: organizations take turns, one delivery each per turn, in the order of
 * their oldest due delivery; a destination or an organization at its limit of attempts
 * under way is passed over. `candidates` come oldest first; so does each one's share.
 */
export function selectFairly(candidates: DueCandidate[], inFlight: InFlight, limits: ConcurrencyLimits): DueCandidate[] {
  const byOrganization = new Map<number, DueCandidate[]>();
  for (const candidate of candidates) {
    const queue = byOrganization.get(candidate.orgId);
    if (queue) queue.push(candidate);
    else byOrganization.set(candidate.orgId, [candidate]);
  }
  const destinationLoad = new Map(inFlight.byDestination);
  const organizationLoad = new Map(inFlight.byOrganization);
  const chosen: DueCandidate[] = [];
  let queues = [...byOrganization.values()];
  while (chosen.length < limits.slots && queues.length > 0) {
    const stillWaiting: DueCandidate[][] = [];
    for (const queue of queues) {
      if (chosen.length >= limits.slots) break;
      const orgId = queue[0]!.orgId;
      if ((organizationLoad.get(orgId) ?? 0) >= limits.perOrganization) continue;
      const index = queue.findIndex((candidate) => (destinationLoad.get(candidate.destinationId) ?? 0) < limits.perDestination);
      if (index < 0) continue;
      const [candidate] = queue.splice(index, 1) as [DueCandidate];
      chosen.push(candidate);
      organizationLoad.set(orgId, (organizationLoad.get(orgId) ?? 0) + 1);
      destinationLoad.set(candidate.destinationId, (destinationLoad.get(candidate.destinationId) ?? 0) + 1);
      if (queue.length > 0) stillWaiting.push(queue);
    }
    queues = stillWaiting;
  }
  return chosen;
}
