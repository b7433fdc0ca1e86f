/** Process and disk facts the benchmark reports. */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import os from 'node:os';

/** Peak resident set size of this process so far (getrusage ru_maxrss, KiB on Linux). */
export function peakRssMb(): number {
  return process.resourceUsage().maxRSS / 1024;
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
