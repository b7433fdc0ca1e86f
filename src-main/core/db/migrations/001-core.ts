/**
 * Core schema. Released migrations are never edited; add a new numbered file instead.
 * Embedding vectors live in one table per embedding space (created by the vector index module),
 * so two models' vectors can never meet in one search and a re-embed can fill a new space while
 * the old one keeps serving.
 */
export const sql = /* sql */ `
CREATE EXTENSION IF NOT EXISTS vector;

CREATE TABLE connections (
  id            text PRIMARY KEY,
  platform      text NOT NULL,
  name          text NOT NULL,
  mode          text NOT NULL CHECK (mode IN ('rag', 'direct')),
  config        jsonb NOT NULL DEFAULT '{}'::jsonb,
  secret_ref    text,
  sync_status   text NOT NULL DEFAULT 'idle' CHECK (sync_status IN ('idle', 'syncing', 'synced', 'failed')),
  sync_error    text,
  last_sync_at  timestamptz,
  next_sync_at  timestamptz,
  created_at    timestamptz NOT NULL DEFAULT now(),
  UNIQUE (name)
);

CREATE TABLE documents (
  id                bigserial PRIMARY KEY,
  connection_id     text NOT NULL REFERENCES connections(id) ON DELETE CASCADE,
  external_id       text NOT NULL,
  title             text NOT NULL,
  knowledge_base    text NOT NULL DEFAULT '',
  url               text,
  remote_updated_at timestamptz,
  revision          text,
  content_hash      text NOT NULL,
  content           text NOT NULL,
  indexed_at        timestamptz NOT NULL DEFAULT now(),
  chunk_count       integer NOT NULL DEFAULT 0,
  UNIQUE (connection_id, external_id)
);

CREATE TABLE chunks (
  id             bigserial PRIMARY KEY,
  document_id    bigint NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
  connection_id  text NOT NULL,
  ord            integer NOT NULL,
  heading_path   text NOT NULL DEFAULT '',
  content        text NOT NULL,
  char_start     integer NOT NULL,
  char_end       integer NOT NULL,
  -- Analysed keyword text: CJK segmented into words, Latin lower-cased and stemmed, space-joined.
  search_text    text NOT NULL DEFAULT '',
  UNIQUE (document_id, ord)
);
CREATE INDEX chunks_connection_idx ON chunks (connection_id);

CREATE TABLE sync_runs (
  id             bigserial PRIMARY KEY,
  connection_id  text NOT NULL REFERENCES connections(id) ON DELETE CASCADE,
  status         text NOT NULL CHECK (status IN ('running', 'succeeded', 'partial', 'failed', 'cancelled')),
  started_at     timestamptz NOT NULL DEFAULT now(),
  finished_at    timestamptz,
  counters       jsonb NOT NULL DEFAULT '{}'::jsonb,
  errors         jsonb NOT NULL DEFAULT '[]'::jsonb,
  error          jsonb,
  timings        jsonb NOT NULL DEFAULT '{}'::jsonb
);
CREATE INDEX sync_runs_connection_idx ON sync_runs (connection_id, started_at DESC);

CREATE TABLE index_meta (
  key    text PRIMARY KEY,
  value  jsonb NOT NULL
);

CREATE TABLE settings (
  key    text PRIMARY KEY,
  value  jsonb NOT NULL
);
`;
