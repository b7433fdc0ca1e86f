/**
 * The folder scenario's steps in a bench worker process (`bench-worker.ts folder|folder-large|
 * folder-idle --out F [options]`), each writing its result as JSON to --out.
 */
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { runFolderScenario, runIdleWatchScenario } from './folder-scenario';
import { LARGE_FILE_KINDS, runLargeFileScenario, type LargeFileKind } from './folder-large';

export async function runFolderStep(step: string, args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      'work-dir': { type: 'string' },
      out: { type: 'string' },
      seed: { type: 'string', default: '1' },
      markdown: { type: 'string', default: '2000' },
      pdfs: { type: 'string', default: '200' },
      'pdf-pages': { type: 'string', default: '10' },
      samples: { type: 'string', default: '20' },
      burst: { type: 'string', default: '1000' },
      bytes: { type: 'string', default: '20000000' },
      kind: { type: 'string', default: 'markdown' },
      files: { type: 'string', default: '10000' },
      'idle-seconds': { type: 'string', default: '30' },
    },
  });
  const workDir = values['work-dir'];
  if (!workDir || !values.out) throw new Error(`usage: bench-worker ${step} --work-dir D --out F [options]`);
  const seed = Number(values.seed);
  let result: unknown;
  if (step === 'folder')
    result = await runFolderScenario({
      workDir,
      seed,
      markdownFiles: Number(values.markdown),
      pdfFiles: Number(values.pdfs),
      pdfPages: Number(values['pdf-pages']),
      watchSamples: Number(values.samples),
      burstFiles: Number(values.burst),
    });
  else if (step === 'folder-large') {
    const kind = values.kind as LargeFileKind;
    if (!LARGE_FILE_KINDS.includes(kind))
      throw new Error(`--kind is one of ${LARGE_FILE_KINDS.join(', ')}, not ${values.kind}`);
    result = await runLargeFileScenario({ workDir, seed, bytes: Number(values.bytes), kind });
  } else if (step === 'folder-idle')
    result = await runIdleWatchScenario({
      workDir,
      files: Number(values.files),
      idleSeconds: Number(values['idle-seconds']),
    });
  else throw new Error(`Unknown folder step "${step}" (folder, folder-large, folder-idle).`);
  writeFileSync(values.out, JSON.stringify(result, null, 2));
}
