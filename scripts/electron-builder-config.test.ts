import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

// electron-builder's own JSON schema and YAML parser (both ship with it), so this checks what it would check.
const require = createRequire(import.meta.url);
const root = join(import.meta.dirname, '..');

describe('electron-builder.yml', () => {
  it('is valid against electron-builder’s schema and keeps PGlite’s files out of the asar', () => {
    const yaml = require('js-yaml') as { load(text: string): unknown };
    const Ajv = require('ajv') as new (options: object) => {
      compile(schema: object): ((data: unknown) => boolean) & { errors?: unknown };
    };
    const config = yaml.load(readFileSync(join(root, 'electron-builder.yml'), 'utf8')) as Record<
      string,
      unknown
    >;
    const schema = JSON.parse(readFileSync(require.resolve('app-builder-lib/scheme.json'), 'utf8')) as object;
    const validate = new Ajv({ allErrors: true, strict: false }).compile(schema);
    const valid = validate(config);
    expect(validate.errors ?? null).toBeNull();
    const platformFiles = (name: string) => (config[name] as { files?: string[] }).files;
    expect({
      valid,
      unpacked: config.asarUnpack,
      // Each platform keeps only its own onnxruntime binaries.
      ortExcluded: [platformFiles('linux'), platformFiles('mac'), platformFiles('win')],
      targets: [
        (config.linux as { target: string[] }).target,
        (config.mac as { target: string }).target,
        (config.win as { target: string }).target,
      ],
    }).toEqual({
      valid: true,
      unpacked: ['node_modules/@electric-sql/**'],
      ortExcluded: [
        ['!node_modules/onnxruntime-node/bin/napi-v6/{darwin,win32}/**'],
        ['!node_modules/onnxruntime-node/bin/napi-v6/{linux,win32}/**'],
        ['!node_modules/onnxruntime-node/bin/napi-v6/{darwin,linux}/**'],
      ],
      targets: [['AppImage', 'deb'], 'dmg', 'nsis'],
    });
  });
});
