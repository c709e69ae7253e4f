/**
 * Why SQLite cannot run on this Node, or undefined when it can. better-sqlite3 12 aborts the
 * process on Node 24 (`Assertion failed: (env) != nullptr` in RemoveEnvironmentCleanupHook,
 * from Statement::~Statement during a collection: Node 24's ObjectWrap, which 12 subclasses):
 * seen here on 24.18.1 and 24.21.0, within seconds of `npm start`. better-sqlite3 13 moved to
 * Node-API and runs there, but needs Node 22 or later (it crashes on Node 20). Until Formcast
 * leaves Node 20, a process refuses to open SQLite on Node 24 at start, saying so, rather than
 * aborting at a random moment under load. MongoDB (MONGO_URL) is not concerned.
 */
export function sqliteRuntimeProblem(nodeVersion: string, betterSqlite3Version: string): string | undefined {
  const node = nodeVersion.replace(/^v/, '');
  const nodeMajor = Number(node.split('.')[0]);
  const addonMajor = Number(betterSqlite3Version.split('.')[0]);
  if (nodeMajor >= 24 && addonMajor < 13) {
    return (
      `SQLite storage cannot run on Node ${node}: better-sqlite3 ${betterSqlite3Version} aborts the process on Node 24 ` +
      '(a known defect, fixed in better-sqlite3 13, which needs Node 22 or later). Run Formcast on Node 20 or 22, or give it MongoDB (MONGO_URL).'
    );
  }
  return undefined;
}

/** Throws sqliteRuntimeProblem's reason for the running Node and the installed better-sqlite3. */
export function refuseUnsupportedSqliteRuntime(): void {
  const { version } = require('better-sqlite3/package.json') as { version: string };
  const problem = sqliteRuntimeProblem(process.version, version);
  if (problem) throw new Error(problem);
}
