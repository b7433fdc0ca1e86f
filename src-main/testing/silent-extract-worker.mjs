// A stand-in extract worker that takes every file and never answers: what a reader stuck in a
// loop looks like to ExtractorWorkers (extractor-workers.test.ts checks the stall timeout).
import { parentPort } from 'node:worker_threads';

parentPort?.on('message', () => {});
