/** The one table of HTTP statuses by error code, shared with services that report statuses per item (bulk dispatch). */
export { errorStatus } from '@formcast/contracts';
