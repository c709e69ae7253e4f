import { refuseUnsupportedSqliteRuntime, sqliteRuntimeProblem } from '../src/sqlite-runtime';

describe('the Node versions SQLite storage runs on', () => {
  it.each([
    ['v20.19.0', '12.11.1'],
    ['v20.20.2', '12.11.1'],
    ['v22.23.3', '12.11.1'],
    ['v23.11.1', '12.11.1'],
    ['v24.21.0', '13.2.0'],
  ])('runs on Node %s with better-sqlite3 %s', (node, addon) => {
    expect(sqliteRuntimeProblem(node, addon)).toBeUndefined();
  });

  it.each([
    ['v24.18.1', '12.11.1'],
    ['v24.21.0', '12.11.1'],
    ['v26.3.0', '12.9.0'],
  ])('refuses Node %s with better-sqlite3 %s, saying why and what to run instead', (node, addon) => {
    const problem = sqliteRuntimeProblem(node, addon);
    expect(problem).toContain(`cannot run on Node ${node.slice(1)}`);
    expect(problem).toContain(`better-sqlite3 ${addon} aborts the process on Node 24`);
    expect(problem).toContain('Run Formcast on Node 20 or 22, or give it MongoDB (MONGO_URL)');
  });

  it('lets this process open SQLite (the suite runs on a Node it supports)', () => {
    expect(() => refuseUnsupportedSqliteRuntime()).not.toThrow();
  });
});
