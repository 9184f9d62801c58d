/** Units and service integration tests, against the real store and the real Redis. */
module.exports = {
  testEnvironment: 'node',
  roots: [
    '<rootDir>/packages',
    '<rootDir>/services',
    '<rootDir>/gateway',
    '<rootDir>/shell',
    '<rootDir>/mf-landing',
    '<rootDir>/mf-courses',
    '<rootDir>/mf-editor',
    '<rootDir>/mf-player',
    '<rootDir>/mf-crm',
    '<rootDir>/mf-dashboard',
  ],
  testMatch: ['**/src/**/*.test.ts', '**/src/**/*.test.tsx'],
  testPathIgnorePatterns: ['/node_modules/', '/dist/'],
  // Packages published only as ES modules (Node 20 requires them natively; jest's loader needs them transformed).
  transformIgnorePatterns: ['/node_modules/(?!(openid-client|oauth4webapi|jose|ldapts|oidc-provider)/)'],
  transform: {
    '^.+\\.(t|j)sx?$': [
      '@swc/jest',
      { jsc: { parser: { syntax: 'typescript', tsx: true }, transform: { react: { runtime: 'automatic' } }, target: 'es2022' } },
    ],
  },
  moduleNameMapper: {
    '^@portal/ui/richText$': '<rootDir>/packages/ui/src/richText',
    '^@portal/web-core/query$': '<rootDir>/packages/web-core/src/queryClient',
    '^@portal/web-core/(media|assignments|lists)$': '<rootDir>/packages/web-core/src/$1',
    '^@portal/contracts/(roles|media)$': '<rootDir>/packages/contracts/src/$1',
    '^@portal/(contracts|quiz-engine|service-kit|devstack|ui|web-core|routes)$': '<rootDir>/packages/$1/src',
    '^@portal/devstack/(.*)$': '<rootDir>/packages/devstack/src/$1',
    '^@portal/svc-(auth|content|progress|crm|audit)/(.*)$': '<rootDir>/services/$1/src/$2',
  },
  // Each test file compiles its modules anew; this runtime hands V8 the code it compiled for an earlier file,
  // keeps what the worker has read, and ends each file's AsyncLocalStorages with it (decision 110).
  runtime: '<rootDir>/jest.runtime.js',
  globalSetup: '<rootDir>/packages/devstack/src/jest-global-setup.ts',
  globalTeardown: '<rootDir>/packages/devstack/src/jest-global-teardown.ts',
  testTimeout: 30000,
  // Three workers on the two cores: the tests wait on the store, Redis and the processes they start,
  // and two workers left the cores 13% idle (one run 387 s); three, 5% idle (368 s). Decision 107.
  maxWorkers: 3,
  // Each test file leaves its modules behind in its worker: at 2–3 GB a worker's tests took a fifth
  // longer (decision 106). A worker past this is replaced between files.
  workerIdleMemoryLimit: '512MB',
};
