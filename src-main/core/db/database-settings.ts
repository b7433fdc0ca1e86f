/**
 * How Cairn's Postgres is made and run: the initdb and server settings every database gets. Apart
 * from database.ts (which opens it) so the templates' fingerprint (database-template.ts) covers them.
 */

/**
 * initdb's settings for a new database. Write-ahead-log segments of 1 MB instead of 16: the log
 * keeps at least its current segment after a checkpoint, so with 16 MB segments every data
 * directory carried 16.8 MB of log however small its index (real-docs, 13.1 MB of text: 16.8 MB of
 * log after maintenance). With 1 MB segments a 200,000-row insert left 143 MB of log and its
 * checkpoint 1.0 MB. Fixed at creation: a database made before keeps its 16 MB segments.
 */
export const INITDB_PARAMS = ['--wal-segsize=1'];

/**
 * The write-ahead log's bounds. PGlite runs Postgres single-user, with no checkpointer: a checkpoint
 * happens only when the log outgrows max_wal_size, 1 GB by default, so the log grew by a 16 MB
 * segment every few syncs until it reached 1 GB (issue #25 item 7: a data directory growing with
 * every sync). Past 128 MB a checkpoint lets it go, and so does the checkpoint after maintenance
 * (index/space-maintenance.ts). wal_recycle off: a checkpoint removes the segments it no longer
 * needs instead of renaming them for later, which kept a bulk sync's log on disk (real-docs, 1,298
 * documents: 84 MB of log after maintenance with recycling, 17 MB without).
 */
export const WAL_LIMITS = ['-c', 'max_wal_size=128MB', '-c', 'min_wal_size=32MB', '-c', 'wal_recycle=off'];

/**
 * initdb makes template0 and template1, the databases CREATE DATABASE copies; Cairn never creates a
 * database (PGlite opens `postgres`), and the two took 14.9 MB of every data directory. They are
 * dropped once, on the first open (database.ts).
 */
export const UNUSED_DATABASES = ['template0', 'template1'];
