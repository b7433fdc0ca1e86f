#!/usr/bin/env node
// `npm start`: the desktop app when Electron's binary is here (fetching it once if it is not),
// otherwise the same UI from the headless host in the browser, so the main job always runs.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const forwarded = process.argv.slice(2);
const FETCH_TIMEOUT_MS = 120_000;

/** What `require('electron')` resolves to, or null when the binary is absent (it would throw). */
function electronBinary() {
  const packageDir = join(root, 'node_modules', 'electron');
  const pathFile = join(packageDir, 'path.txt');
  if (!existsSync(pathFile)) return null;
  const binary = join(packageDir, 'dist', readFileSync(pathFile, 'utf8').trim());
  return existsSync(binary) ? binary : null;
}

/** Runs Electron's own installer once (npm skips it when install scripts are not approved). */
function fetchElectron() {
  const installer = join(root, 'node_modules', 'electron', 'install.js');
  if (!existsSync(installer)) return 'the electron package is not installed (run npm install)';
  const result = spawnSync(process.execPath, [installer], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'pipe'],
    timeout: FETCH_TIMEOUT_MS,
    encoding: 'utf8',
  });
  if (result.error)
    return result.error.code === 'ETIMEDOUT' ? 'its download timed out' : result.error.message;
  if (result.status !== 0) {
    const lines = (result.stderr || '')
      .split('\n')
      .map((line) => line.trim())
      .filter(Boolean);
    return (
      lines.find((line) => /error/i.test(line) && !line.startsWith('at ')) ??
      lines[0] ??
      `its installer exited with code ${result.status}`
    );
  }
  return null;
}

// One failed download is remembered for a day, so an offline `npm start` does not wait on it each time.
const fetchMemo = join(root, '.cache', 'electron-fetch.json');
const DAY_MS = 24 * 3_600_000;

function recentFetchFailure() {
  try {
    const memo = JSON.parse(readFileSync(fetchMemo, 'utf8'));
    return Date.now() - memo.failedAt < DAY_MS ? memo.reason : null;
  } catch {
    return null;
  }
}

function rememberFetchFailure(reason) {
  try {
    mkdirSync(dirname(fetchMemo), { recursive: true });
    writeFileSync(fetchMemo, JSON.stringify({ failedAt: Date.now(), reason }));
  } catch {
    // Only a convenience: without the memo the next start simply tries again.
  }
}

function newestMtime(dir) {
  let newest = 0;
  if (!existsSync(dir)) return newest;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

/** True when a bundle is missing or older than any source it is built from. */
function needsBuild(bundles) {
  if (bundles.some((bundle) => !existsSync(join(root, bundle)))) return true;
  const oldest = Math.min(...bundles.map((bundle) => statSync(join(root, bundle)).mtimeMs));
  return ['src-main', 'src-preload', 'src-renderer', 'src-shared'].some(
    (dir) => newestMtime(join(root, dir)) > oldest,
  );
}

function build() {
  console.log('Building Cairn (electron-vite build)…');
  const result = spawnSync(
    process.execPath,
    [join(root, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js'), 'build'],
    { cwd: root, stdio: 'inherit' },
  );
  if (result.status !== 0) process.exit(result.status ?? 1);
}

/** Starts a child with our stdio and passes its exit code and Ctrl+C through. */
function run(command, args) {
  const child = spawn(command, args, { cwd: root, stdio: 'inherit' });
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

let binary = electronBinary();
let reason = null;
if (!binary && process.env.ELECTRON_SKIP_BINARY_DOWNLOAD === '1') {
  reason = 'ELECTRON_SKIP_BINARY_DOWNLOAD is set';
} else if (!binary && (reason = recentFetchFailure())) {
  reason = `${reason}; retried automatically after a day, or delete ${fetchMemo}`;
} else if (!binary) {
  console.log('Electron is not downloaded yet; fetching it once…');
  reason = fetchElectron();
  binary = electronBinary();
  if (!binary) rememberFetchFailure(reason ?? 'unknown reason');
}

if (binary) {
  if (needsBuild(['out/main/index.js', 'out/preload/index.cjs', 'out/renderer/index.html'])) build();
  run(binary, ['.', ...forwarded]);
} else {
  console.log(
    `Cairn's desktop window needs Electron, which could not be installed (${reason ?? 'unknown reason'}).`,
  );
  console.log('Serving the same app to your browser instead; press Ctrl+C to stop.');
  if (needsBuild(['out/renderer/index.html'])) build();
  run(process.execPath, [join(root, 'bin', 'cairn.js'), 'serve', '--open', ...forwarded]);
}
