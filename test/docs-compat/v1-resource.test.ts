import { describeResourceDocExamples } from './support/resource-examples-b';

// doc/api/v1/resource.md: its requests name /api/resources.json and .xml, the download and the delete on /api/resources/:id.
describeResourceDocExamples('doc/api/v1/resource.md', { list: ['/api/resources.json', '/api/resources.xml', '/api/v3/resources.json', '/api/v3/resources.xml'], download: ['', '.json'], deleteV1: true });
