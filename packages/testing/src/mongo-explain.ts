/**
 * What MongoDB's `explain()` says a query's winning plan reads: the index names of its
 * IXSCAN stages (and `_id_` for an IDHACK / EXPRESS id lookup), and whether it scans the
 * collection. For the Mongo suites' index checks: each query a request makes names the
 * index it uses in a comment, and the suite checks the server agrees.
 */
export interface PlanReads {
  indexes: string[];
  collectionScan: boolean;
}

export function planReads(explained: unknown): PlanReads {
  const indexes = new Set<string>();
  let collectionScan = false;
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (typeof node !== 'object' || node === null) return;
    const record = node as Record<string, unknown>;
    if (record['stage'] === 'COLLSCAN') collectionScan = true;
    if (record['stage'] === 'IDHACK' || (typeof record['stage'] === 'string' && record['stage'].startsWith('EXPRESS'))) indexes.add('_id_');
    if (typeof record['indexName'] === 'string') indexes.add(record['indexName']);
    for (const [key, value] of Object.entries(record)) {
      // The plans the planner rejected are not what runs.
      if (key !== 'rejectedPlans') visit(value);
    }
  };
  visit(explained);
  return { indexes: [...indexes].sort(), collectionScan };
}
