import { describeSubmissionDocExamples } from './support/submission-examples-b';

// doc/api/v3/users/submission.md (devicemagic/forms_api_docs, every stored version): each example request sent, each example answer's shape held.
describeSubmissionDocExamples('doc/api/v3/users/submission.md', { authorsJson: true, authorsXml: true, userPost: true });
