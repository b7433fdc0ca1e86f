/** Runs `main` in-process with captured output, for CLI tests. */
import { Writable } from 'node:stream';
import type { Cairn } from '../core/app/cairn';
import type { CliCommand, CliIo, OpenedCairn } from '../cli/command';
import { main } from '../cli/main';
import type { OpenCairnOptions } from '../cli/open-cairn';

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

function capture(sink: string[], isTTY: boolean): CliIo['stdout'] {
  const stream = new Writable({
    write(chunk: Buffer | string, _encoding, callback) {
      sink.push(chunk.toString());
      callback();
    },
  });
  return Object.assign(stream, { isTTY, columns: 100 });
}

export async function runCli(
  argv: string[],
  options: {
    cairn?: Cairn;
    /** Reaches Cairn some other way (e.g. a socket client): used instead of `cairn`. */
    connect?: () => Promise<OpenedCairn>;
    env?: NodeJS.ProcessEnv;
    tty?: boolean;
    signal?: AbortSignal;
    opened?: OpenCairnOptions[];
    commands?: CliCommand[];
  } = {},
): Promise<CliRun> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(argv, {
    io: { stdout: capture(out, options.tty ?? false), stderr: capture(err, false), env: options.env ?? {} },
    signal: options.signal ?? new AbortController().signal,
    ...(options.commands ? { commands: options.commands } : {}),
    ...(options.connect ? { open: options.connect } : {}),
    ...(!options.connect && (options.cairn || options.opened)
      ? {
          open: async (opening: OpenCairnOptions) => {
            options.opened?.push(opening);
            if (!options.cairn) throw new Error('no Cairn in this test');
            // The test owns its Cairn across commands: main() must not dispose it after one.
            return { ...options.cairn, dispose: async () => {} };
          },
        }
      : {}),
  });
  return { code, stdout: out.join(''), stderr: err.join('') };
}
