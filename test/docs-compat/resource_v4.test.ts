import { describeResourceDocExamples } from './support/resource-examples-b';

// doc/api/resource_v4.md: create and update queued (202 with the job), the poll's queued, completed and failed answers.
describeResourceDocExamples('doc/api/resource_v4.md', { v4: true });
