/**
 * The semantic index is built in the background, after the keyword index (spaces/semantic-index.ts):
 * a sync writes text only, and every document whose chunks still lack a vector in the space being
 * filled waits in `embedding_queue` (the store adds the documents it writes, a new space adds every
 * document). The queue is what makes the next batch cheap to find, in priority order: recently
 * opened (`documents.opened_at`, set when a document is read back for the preview) or modified
 * upstream first. A document removed takes its place with it (cascade); one the provider refused
 * counts its attempts and waits until `retry_at` (a rewrite of it starts again from 0).
 */
export const sql = /* sql */ `
ALTER TABLE documents ADD COLUMN opened_at timestamptz;
CREATE TABLE embedding_queue (
  document_id bigint PRIMARY KEY REFERENCES documents(id) ON DELETE CASCADE,
  attempts    integer NOT NULL DEFAULT 0,
  retry_at    timestamptz
);
`;
