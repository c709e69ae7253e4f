export { buildProgram } from './program';
export { exitCodes, CliError, type ExitCode } from './exit-codes';
export { resolveConnection, defaultUrl, type Connection, type ConnectionOptions } from './connection';
