/**
 * The error code of the failure in `sync_error` (src-shared/errors.ts ErrorCode), written and
 * cleared with it, so the UI can say in its own language what went wrong; the English sentence
 * stays beside it for names and numbers. Rows from before this migration keep a null code.
 */
export const sql = /* sql */ `
ALTER TABLE connections ADD COLUMN sync_error_code text;
`;
