import { describeResourceDocExamples } from './support/resource-examples-b';

// doc/api/v3/resource.md (every stored version): describe in JSON and XML, create and update with 202.
describeResourceDocExamples('doc/api/v3/resource.md', { describe: true, v3Writes: true });
