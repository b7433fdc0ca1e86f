/** Process and disk facts the benchmark reports. */
import { readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import os from 'node:os';

/** Peak resident set size of this process so far (getrusage ru_maxrss, KiB on Linux). */
export function peakRssMb(): number {
  return process.resourceUsage().maxRSS / 1024;
}

/**
 * Starts a new peak: from here on peakRssMb() is the highest RSS since this call. Linux resets a
 * process' high-water mark (VmHWM, which ru_maxrss reads) when "5" is written to its clear_refs.
 * False where that is not possible (another system): peakRssMb() then keeps the whole process' peak.
 */
export function restartPeakRss(): boolean {
  try {
    writeFileSync('/proc/self/clear_refs', '5');
    return true;
  } catch {
    return false;
  }
}

export interface MemorySample {
  atS: number;
  /** What the process was doing (e.g. the busy pipeline stages). */
  label: string;
  rssMb: number;
  heapUsedMb: number;
  /** C++ objects bound to JS plus ArrayBuffers (PGlite's WASM memory is one). */
  externalMb: number;
  arrayBuffersMb: number;
}

/**
 * Samples process.memoryUsage() every `everyMs` (a heap snapshot at 1 GB is too heavy to take
 * mid-run), logs each sample through `log` and keeps the one with the highest RSS: which stage
 * holds the peak, and whether it is the JS heap or buffers (PGlite's WASM memory).
 */
export function sampleMemory(
  everyMs: number,
  label: () => string,
  log: (line: string) => void,
): { stop(): MemorySample | null } {
  const started = performance.now();
  const mb = (bytes: number) => Math.round(bytes / 2 ** 20);
  let peak: MemorySample | null = null;
  const take = () => {
    const usage = process.memoryUsage();
    const sample: MemorySample = {
      atS: Math.round((performance.now() - started) / 1000),
      label: label(),
      rssMb: mb(usage.rss),
      heapUsedMb: mb(usage.heapUsed),
      externalMb: mb(usage.external),
      arrayBuffersMb: mb(usage.arrayBuffers),
    };
    if (!peak || sample.rssMb > peak.rssMb) peak = sample;
    log(
      `memory at ${sample.atS} s (${sample.label}): RSS ${sample.rssMb} MB, heap ${sample.heapUsedMb} MB, external ${sample.externalMb} MB (array buffers ${sample.arrayBuffersMb} MB)`,
    );
  };
  const timer = setInterval(take, everyMs);
  timer.unref();
  return {
    stop() {
      clearInterval(timer);
      take();
      return peak;
    },
  };
}

/** Bytes under a directory (files only, following no links). 0 when it does not exist. */
export function directorySize(path: string): number {
  let total = 0;
  let entries;
  try {
    entries = readdirSync(path, { withFileTypes: true });
  } catch {
    return 0;
  }
  for (const entry of entries) {
    const full = join(path, entry.name);
    if (entry.isDirectory()) total += directorySize(full);
    else if (entry.isFile()) total += statSync(full).size;
  }
  return total;
}

export interface MachineFacts {
  cpus: number;
  cpuModel: string;
  totalMemoryGb: number;
  node: string;
  platform: string;
  /** 1, 5 and 15 minute load averages: on a shared machine, read every number against these. */
  loadAverage: number[];
}

export function machineFacts(): MachineFacts {
  const cpus = os.cpus();
  return {
    cpus: os.availableParallelism?.() ?? cpus.length,
    cpuModel: cpus[0]?.model ?? 'unknown',
    totalMemoryGb: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    platform: `${process.platform}-${process.arch}`,
    loadAverage: os.loadavg().map((l) => Math.round(l * 100) / 100),
  };
}
