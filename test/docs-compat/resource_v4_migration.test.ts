import { describeResourceDocExamples } from './support/resource-examples-b';

// doc/api/resource_v4_migration.md: the v3 example (content_type) on v3, the v4 example (mime_type) on v4, and the poll.
describeResourceDocExamples('doc/api/resource_v4_migration.md', { v3Writes: true, v4: true });
