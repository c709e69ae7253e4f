export * from './unique-name';
export * from './wait-for';
export * from './container-engine';
export * from './mongo-for-tests';
export * from './describe-with-mongo';
export * from './delete-test-topology';
export * from './gate';
export * from './mongo-test-databases';
