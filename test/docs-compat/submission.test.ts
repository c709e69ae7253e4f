import { describeSubmissionDocExamples } from './support/submission-examples-b';

// doc/api/submission.md (devicemagic/forms_api_docs, every stored version): each example request sent, each example answer's shape held.
describeSubmissionDocExamples('doc/api/submission.md', { database: true, authorsJson: true, authorsXml: true, instanceXml: true, userPost: true, devicePost: ['.json'] });
