/**
 * One jest run for the whole monorepo. Workspace packages are mapped to their TypeScript
 * sources, so tests never depend on a prior build.
 */
const services = ['gateway', 'directory', 'embedded', 'resources', 'push', 'notifier', 'delivery'];

/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/packages', '<rootDir>/services', '<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  testPathIgnorePatterns: ['/node_modules/', '/dist/'],
  transform: {
    '^.+\\.[tj]s$': [
      '@swc/jest',
      { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'commonjs' } },
    ],
  },
  // stream-json and stream-chain are ES modules only: jest (unlike Node ≥ 20.19) cannot
  // require() them untransformed.
  transformIgnorePatterns: ['/node_modules/(?!(stream-json|stream-chain)/)'],
  moduleNameMapper: Object.fromEntries([
    ...services.map((s) => [`^@formcast/${s}$`, `<rootDir>/services/${s}/src`]),
    ['^@formcast/([a-z-]+)$', '<rootDir>/packages/$1/src'],
  ]),
  testTimeout: 30000,
  // Two workers on 2 cores (jest's default would be one): the whole suite in ~8 minutes
  // instead of ~15–30. Its load once exposed timing races (mended; docs/testing.md).
  maxWorkers: 2,
  // The drills and the other long suites start first, so the run does not end on one of them.
  testSequencer: '<rootDir>/test/support/slow-suites-first.js',
};
