// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ok } from '@shared/errors';
import type { ModelsSnapshot, ModelView } from '@shared/models';
import { fakeBackend, settings } from '../../test/fake-api';
import { renderWithStore } from '../../test/render';
import { applyEvent } from '../../store/apply-event';
import { LocalModelsSection } from './LocalModelsSection';

afterEach(cleanup);

function model(id: string, fields: Partial<ModelView> = {}): ModelView {
  return {
    id,
    kind: 'embedder',
    name: `${id} (int8)`,
    summary: { en: 'Recommended for Chinese notes.', zh: '推荐：适合中文笔记。' },
    licence: 'MIT',
    languages: ['zh', 'en'],
    dimensions: 512,
    downloadBytes: 24_450_334,
    recommended: 'default',
    speed: { cpuMsPerChunk: 56.9, cpuMsPerPair: null },
    quality: [{ metric: 'C-MTEB retrieval', value: '61.77', source: 'FlagEmbedding' }],
    downloadable: true,
    unverifiedFiles: [],
    unavailableReason: null,
    installed: null,
    download: null,
    inUse: false,
    reembed: { chunks: 12_000, seconds: 820, vectorBytes: 24_576_000 },
    ...fields,
  };
}

function snapshot(models: ModelView[]): ModelsSnapshot {
  return {
    models,
    dir: '/data/models',
    source: { kind: 'huggingface', url: 'https://huggingface.co', fromEnv: false },
    cores: 2,
  };
}

describe('the local models section', () => {
  it('downloads with a moving progress bar, then offers to switch with the re-embed cost', async () => {
    let current = snapshot([model('bge-small-zh-v1.5')]);
    const backend = fakeBackend({
      'models.list': () => ok(current),
      'models.pull': () => ok(undefined),
      'models.detectOllama': () => ok({ baseUrl: 'http://127.0.0.1:11434', reachable: false, models: [] }),
      'settings.update': () =>
        ok(
          settings({
            embedding: {
              provider: 'local',
              baseUrl: '',
              model: 'bge-small-zh-v1.5',
              dimensions: 512,
              hasApiKey: false,
            },
          }),
        ),
    });
    const { store } = renderWithStore(<LocalModelsSection settings={settings()} />, backend);
    const card = await screen.findByTestId('model-bge-small-zh-v1.5');
    expect(
      within(card).getByText(
        /24\.5 MB download · 512 dimensions · zh, en · Licence MIT · ≈ 17\.6 chunks\/s per core/,
      ),
    ).toBeTruthy();
    current = snapshot([
      model('bge-small-zh-v1.5', {
        download: {
          state: 'running',
          phase: 'downloading',
          doneBytes: 0,
          totalBytes: 24_450_334,
          error: null,
        },
      }),
    ]);
    fireEvent.click(within(card).getByRole('button', { name: 'Download' }));
    await waitFor(() => expect(backend.calls.some((c) => c.channel === 'models.pull')).toBe(true));
    act(() =>
      applyEvent(store, 'models.progress', {
        id: 'bge-small-zh-v1.5',
        phase: 'downloading',
        doneBytes: 12_225_167,
        totalBytes: 24_450_334,
      }),
    );
    await waitFor(() =>
      expect(within(card).getByRole('progressbar').getAttribute('aria-valuenow')).toBe('12225167'),
    );
    current = snapshot([
      model('bge-small-zh-v1.5', {
        installed: { at: '2026-12-01T10:00:00Z', bytes: 24_450_334, verified: true, origin: 'download' },
      }),
    ]);
    act(() => applyEvent(store, 'models.changed', current));
    await within(card).findByText(
      /Switching re-embeds 12,000 chunks in the background \(about 14 min, 24\.6 MB of vectors\)/,
    );
    fireEvent.click(within(card).getByRole('button', { name: 'Use for search' }));
    await waitFor(() =>
      expect(backend.calls.find((c) => c.channel === 'settings.update')?.input).toEqual({
        embedding: { provider: 'local', model: 'bge-small-zh-v1.5', baseUrl: '' },
      }),
    );
  });

  it('shows a failed download’s reason, an import-only model’s command, and Ollama’s embedding models in Chinese', async () => {
    const backend = fakeBackend({
      'models.list': () =>
        ok(
          snapshot([
            model('bge-m3', {
              download: {
                state: 'failed',
                phase: 'downloading',
                doneBytes: 0,
                totalBytes: null,
                error: { code: 'CHECKSUM_MISMATCH', message: 'onnx/model_quantized.onnx has SHA-256 …' },
              },
            }),
            model('bge-reranker-v2-m3', {
              kind: 'reranker',
              downloadable: false,
              dimensions: null,
              recommended: 'slow-best',
              speed: { cpuMsPerChunk: null, cpuMsPerPair: 599 },
            }),
          ]),
        ),
      'models.detectOllama': () =>
        ok({
          baseUrl: 'http://127.0.0.1:11434',
          reachable: true,
          models: [{ name: 'bge-m3:latest', dimensions: 1024 }],
        }),
    });
    renderWithStore(<LocalModelsSection settings={settings({ language: 'zh' })} />, backend, {
      settings: settings({ language: 'zh' }),
    });
    const failed = await screen.findByTestId('model-bge-m3');
    expect(within(failed).getByText('下载的文件与预期不符（校验和不匹配）')).toBeTruthy();
    expect(within(failed).getByRole('button', { name: '重新下载' })).toBeTruthy();
    expect(
      within(screen.getByTestId('model-bge-reranker-v2-m3')).getByText(
        /cairn models import bge-reranker-v2-m3/,
      ),
    ).toBeTruthy();
    expect(
      await within(await screen.findByTestId('ollama')).findByRole('button', {
        name: '使用 bge-m3:latest（1,024 维）',
      }),
    ).toBeTruthy();
  });

  it('offers to rerank only with a reranker installed: none installed says searches are not reranked', async () => {
    const reranker = (installed: ModelView['installed']) =>
      model('bge-reranker-base', {
        kind: 'reranker',
        dimensions: null,
        recommended: 'fast',
        speed: { cpuMsPerChunk: null, cpuMsPerPair: 80 },
        installed,
      });
    let current = snapshot([model('bge-small-zh-v1.5'), reranker(null)]);
    const backend = fakeBackend({
      'models.list': () => ok(current),
      'models.detectOllama': () => ok({ baseUrl: 'http://127.0.0.1:11434', reachable: false, models: [] }),
    });
    // The setting says on (its default): with nothing installed, the section must not say so.
    const { store } = renderWithStore(<LocalModelsSection settings={settings()} />, backend);
    expect((await screen.findByTestId('rerank-none')).textContent).toBe(
      'No reranker is installed, so searches are not reranked. Download one below to rerank the top results on this computer.',
    );
    expect(
      screen.queryByRole('checkbox', { name: 'Rerank search results with the installed reranker' }),
    ).toBeNull();
    current = snapshot([
      model('bge-small-zh-v1.5'),
      reranker({ at: '2026-12-01T10:00:00Z', bytes: 110_000_000, verified: true, origin: 'download' }),
    ]);
    act(() => applyEvent(store, 'models.changed', current));
    const toggle = await screen.findByRole('checkbox', {
      name: 'Rerank search results with the installed reranker',
    });
    expect((toggle as HTMLInputElement).checked).toBe(true);
    expect(screen.queryByTestId('rerank-none')).toBeNull();
  });
});
