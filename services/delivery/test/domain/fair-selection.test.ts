import { selectFairly, type DueCandidate, type InFlight } from '../../src/domain/fair-selection';

const none = (): InFlight => ({ byDestination: new Map(), byOrganization: new Map() });
const due = (id: number, orgId: number, destinationId: number): DueCandidate => ({ id, orgId, destinationId });
const ids = (chosen: DueCandidate[]) => chosen.map((candidate) => candidate.id);

describe('choosing due deliveries fairly', () => {
  it('lets organizations take turns, in the order of their oldest due delivery', () => {
    const candidates = [due(1, 10, 100), due(2, 10, 100), due(3, 10, 100), due(4, 20, 200), due(5, 30, 300)];
    expect(ids(selectFairly(candidates, none(), { slots: 4, perDestination: 10, perOrganization: 10 }))).toEqual([1, 4, 5, 2]);
  });

  it('passes over a destination at its limit, but not the same organization\'s other destinations', () => {
    const candidates = [due(1, 10, 100), due(2, 10, 100), due(3, 10, 101), due(4, 20, 200)];
    const inFlight = { byDestination: new Map([[100, 2]]), byOrganization: new Map([[10, 2]]) };
    expect(ids(selectFairly(candidates, inFlight, { slots: 10, perDestination: 2, perOrganization: 10 }))).toEqual([3, 4]);
  });

  it('passes over an organization at its limit, so one organization never takes every slot', () => {
    const candidates = [due(1, 10, 100), due(2, 10, 101), due(3, 10, 102), due(4, 10, 103), due(5, 20, 200)];
    expect(ids(selectFairly(candidates, none(), { slots: 10, perDestination: 5, perOrganization: 2 }))).toEqual([1, 5, 2]);
  });

  it('never takes more than the free slots, and counts what it takes against the limits', () => {
    const candidates = [due(1, 10, 100), due(2, 10, 100), due(3, 10, 100)];
    expect(ids(selectFairly(candidates, none(), { slots: 2, perDestination: 5, perOrganization: 5 }))).toEqual([1, 2]);
    expect(ids(selectFairly(candidates, none(), { slots: 5, perDestination: 2, perOrganization: 5 }))).toEqual([1, 2]);
    expect(selectFairly([], none(), { slots: 5, perDestination: 2, perOrganization: 5 })).toEqual([]);
  });
});
