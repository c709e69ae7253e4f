import { planReads } from '../src';

describe('planReads', () => {
  it('names the indexes of the winning plan, not of the rejected ones', () => {
    // The shape of MongoDB 7's explain('queryPlanner') of a find (trimmed).
    const explained = {
      queryPlanner: {
        winningPlan: { stage: 'FETCH', inputStage: { stage: 'IXSCAN', indexName: 'orgId_1_formId_1__id_1', keyPattern: { orgId: 1, formId: 1, _id: 1 } } },
        rejectedPlans: [{ stage: 'COLLSCAN' }, { stage: 'FETCH', inputStage: { stage: 'IXSCAN', indexName: 'orgId_1__id_1' } }],
      },
    };
    expect(planReads(explained)).toEqual({ indexes: ['orgId_1_formId_1__id_1'], collectionScan: false });
  });

  it('sees a collection scan, an id lookup, and the plans of an aggregation and of the slot-based engine', () => {
    expect(planReads({ queryPlanner: { winningPlan: { stage: 'COLLSCAN' }, rejectedPlans: [] } })).toEqual({ indexes: [], collectionScan: true });
    expect(planReads({ queryPlanner: { winningPlan: { stage: 'EXPRESS_IXSCAN' } } }).indexes).toEqual(['_id_']);
    const aggregation = {
      stages: [
        { $cursor: { queryPlanner: { winningPlan: { queryPlan: { stage: 'PROJECTION_SIMPLE', inputStage: { stage: 'IXSCAN', indexName: 'status_1_nextAttemptAt_1' } } } } } },
        { $setWindowFields: {} },
      ],
    };
    expect(planReads(aggregation)).toEqual({ indexes: ['status_1_nextAttemptAt_1'], collectionScan: false });
  });
});
