/**
 * When the platform refused a connection's stored user authorisation for good (Feishu/Lark
 * 20026/20037/20064/20073). Kept on the row so the card says "expired" after a restart too, not
 * "authorized" until the next refresh fails; cleared by a sign-in or an edit of the credentials.
 */
export const sql = /* sql */ `
ALTER TABLE connections ADD COLUMN user_auth_lost_at timestamptz;
`;
