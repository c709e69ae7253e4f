import { describeResourceDocExamples } from './support/resource-examples-b';

// doc/api/resource.md (devicemagic/forms_api_docs, every stored version): each example request sent, each example answer's shape held.
describeResourceDocExamples('doc/api/resource.md', { list: ['/api/v3/resources.json', '/api/v3/resources.xml'], download: [''], describe: true, v3Writes: true, deleteV1: true });
