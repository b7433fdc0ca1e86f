/**
 * Conversations and their messages. Each assistant message keeps the answer as it was shown: the
 * sources given to the model, the citations used, dropped markers, the error if any, and token
 * usage, so a reopened conversation shows exactly what was answered then.
 */
export const sql = /* sql */ `
CREATE TABLE conversations (
  id          text PRIMARY KEY,
  title       text NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX conversations_updated_idx ON conversations (updated_at DESC);

CREATE TABLE messages (
  id                 text PRIMARY KEY,
  conversation_id    text NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
  -- Insertion order: created_at can tie within one transaction.
  seq                bigserial NOT NULL,
  role               text NOT NULL CHECK (role IN ('user', 'assistant')),
  text               text NOT NULL DEFAULT '',
  status             text NOT NULL DEFAULT 'done' CHECK (status IN ('pending', 'done')),
  mode               text CHECK (mode IN ('model', 'extractive')),
  incomplete         boolean NOT NULL DEFAULT false,
  -- The query actually sent to retrieval (a follow-up rewritten with the conversation).
  retrieval_query    text,
  sources            jsonb NOT NULL DEFAULT '[]'::jsonb,
  citations          jsonb NOT NULL DEFAULT '[]'::jsonb,
  dropped_markers    jsonb NOT NULL DEFAULT '[]'::jsonb,
  error              jsonb,
  model              text,
  prompt_tokens      integer,
  completion_tokens  integer,
  total_tokens       integer,
  created_at         timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX messages_conversation_idx ON messages (conversation_id, seq);
`;
