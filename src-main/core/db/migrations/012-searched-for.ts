/**
 * The searches an answer's retrieval ran (a follow-up's standalone rewrite, the question itself,
 * or the query the user edited), shown under the answer as "searched for" (ChatAnswer.searchedFor).
 * A JSON array of strings; null for answers stored before it was kept.
 */
export const sql = /* sql */ `
ALTER TABLE messages ADD COLUMN searched_for jsonb;
`;
