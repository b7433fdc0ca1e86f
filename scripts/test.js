#!/usr/bin/env node
// `npm test`: type-check, lint, unit/integration tests (vitest) and the e2e suite (Playwright in
// Debian's Chromium), then ONE closing line that counts every test: "tests: N passed, N failed, N skipped".
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
// Outside test-results/: Playwright empties its output folder when it starts.
const reports = join(root, '.cache', 'test-reports');
rmSync(reports, { recursive: true, force: true });
mkdirSync(reports, { recursive: true });

const only = process.argv.slice(2);
// The three static checks are independent and mostly single-threaded: they run side by side, each
// one's output printed whole when it ends (docs/decisions/test-speed.md).
const steps = [
  { name: 'typecheck', cmd: ['npx', 'tsc', '-b'], together: true },
  { name: 'lint', cmd: ['npx', 'eslint', '.'], together: true },
  { name: 'format', cmd: ['npx', 'prettier', '--check', '--log-level', 'warn', '.'], together: true },
  {
    name: 'unit',
    cmd: [
      'npx',
      'vitest',
      'run',
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${join(reports, 'vitest.json')}`,
    ],
  },
  {
    name: 'e2e',
    cmd: ['npx', 'playwright', 'test'],
    env: { PLAYWRIGHT_JSON_OUTPUT_NAME: join(reports, 'playwright.json') },
  },
].filter((step) => only.length === 0 || only.includes(step.name));

// The e2e suite drives Debian's Chromium; without it, say what to install instead of a launch stack trace.
const chromium = process.env.CAIRN_CHROMIUM ?? '/usr/bin/chromium';

// The unit tests build the local-model test fixtures with Debian's Python ONNX tooling (src-main/testing/models).
const python = process.env.CAIRN_PYTHON ?? '/usr/bin/python3';
const pythonModules = ['onnx', 'numpy', 'sentencepiece', 'regex'];
function pythonToolsMissing() {
  const probe = spawnSync(python, ['-c', pythonModules.map((m) => `import ${m}`).join('; ')], {
    stdio: 'ignore',
  });
  return probe.status !== 0;
}

let failedSteps = [];

/** Runs a step with its output captured, and prints it under the step's header once it ends. */
function runCaptured(step) {
  return new Promise((done) => {
    const child = spawn(step.cmd[0], step.cmd.slice(1), {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, ...step.env },
    });
    const output = [];
    child.stdout.on('data', (chunk) => output.push(chunk));
    child.stderr.on('data', (chunk) => output.push(chunk));
    child.on('error', (error) => output.push(Buffer.from(`${error.message}\n`)));
    child.on('close', (status) => {
      process.stdout.write(`\n=== ${step.name}: ${step.cmd.join(' ')}\n`);
      process.stdout.write(Buffer.concat(output));
      if (status !== 0) failedSteps.push(step.name);
      done();
    });
  });
}

const together = steps.filter((step) => step.together);
await Promise.all(together.map(runCaptured));

for (const step of steps.filter((step) => !step.together)) {
  process.stdout.write(`\n=== ${step.name}: ${step.cmd.join(' ')}\n`);
  if (step.name === 'e2e' && !existsSync(chromium)) {
    process.stdout.write(
      `e2e needs Chromium at ${chromium}: run \`sudo apt-get install -y chromium fonts-noto-cjk\` (what .ci/run does) or set CAIRN_CHROMIUM.\n`,
    );
    failedSteps.push(step.name);
    continue;
  }
  if (step.name === 'unit' && pythonToolsMissing()) {
    process.stdout.write(
      `The local-model tests build their tiny ONNX model with ${python} and ${pythonModules.join(', ')}: run \`sudo apt-get install -y python3-onnx python3-sentencepiece python3-regex\` (what .ci/run does) or set CAIRN_PYTHON. Those tests fail until then.\n`,
    );
    failedSteps.push('unit (python3-onnx missing)');
  }
  const result = spawnSync(step.cmd[0], step.cmd.slice(1), {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, ...step.env },
  });
  if (result.status !== 0) failedSteps.push(step.name);
}

const counts = { passed: 0, failed: 0, skipped: 0 };
const vitestReport = join(reports, 'vitest.json');
if (existsSync(vitestReport)) {
  const report = JSON.parse(readFileSync(vitestReport, 'utf8'));
  counts.passed += report.numPassedTests ?? 0;
  counts.failed += report.numFailedTests ?? 0;
  counts.skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
}
const playwrightReport = join(reports, 'playwright.json');
if (existsSync(playwrightReport)) {
  const stats = JSON.parse(readFileSync(playwrightReport, 'utf8')).stats ?? {};
  counts.passed += (stats.expected ?? 0) + (stats.flaky ?? 0);
  counts.failed += stats.unexpected ?? 0;
  counts.skipped += stats.skipped ?? 0;
}
if (failedSteps.length) process.stdout.write(`\nFailed steps: ${failedSteps.join(', ')}\n`);
process.stdout.write(
  `\ntests: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped\n`,
);
process.exit(failedSteps.length ? 1 : 0);
