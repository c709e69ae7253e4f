import { describeSubmissionImageDocExamples } from './support/submission-image-examples-c';

// doc/api/v3/submission_image.md (devicemagic/forms_api_docs, every stored version: the device's
// and the user's upload, get_md5, and the examples' curl): each example sent, each answer held.
describeSubmissionImageDocExamples('doc/api/v3/submission_image.md');
