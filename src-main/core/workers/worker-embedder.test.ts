import { afterEach, describe, expect, it } from 'vitest';
import { ensureTinyModel } from '../../testing/models/test-models';
import { createLocalModel } from '../inference/local-model';
import type { LocalModelSpec } from '../inference/runtime-spec';
import { WorkerEmbedder } from './worker-embedder';
import { WorkerHost } from './worker-host';

function tinySpec(dir: string, onnx = 'model.onnx'): LocalModelSpec {
  return {
    threads: 1,
    embedder: {
      dir,
      onnx,
      tokenizer: 'tokenizer.json',
      output: 'last_hidden_state',
      pooling: 'mean',
      normalize: true,
      maxTokens: 128,
      maxWindows: 1,
      queryPrefix: '',
      documentPrefix: '',
    },
    reranker: {
      dir,
      onnx: 'reranker.onnx',
      tokenizer: 'tokenizer.json',
      output: 'logits',
      maxTokens: 128,
      maxQueryTokens: 32,
    },
  };
}

const hosts: WorkerHost[] = [];
function host(spec: LocalModelSpec, name = 'tiny'): WorkerHost {
  const created = new WorkerHost({ name, recipe: { factory: 'local-onnx', options: spec } });
  hosts.push(created);
  return created;
}

afterEach(async () => {
  await Promise.all(hosts.splice(0).map((h) => h.dispose()));
});

describe('WorkerEmbedder over WorkerHost', () => {
  it('embeds in a worker thread exactly what the model gives in-process, for both lanes', async () => {
    const { dir } = ensureTinyModel();
    const spec = tinySpec(dir);
    const texts = ['my car is broken', '汽车坏掉了', 'invoice for the meeting', '会议纪要'];
    const local = await createLocalModel(spec);
    const expected = await local.embed(texts, 'document');
    await local.dispose();
    const embedder = new WorkerEmbedder({
      space: { provider: 'local', model: 'tiny', dimensions: 64 },
      documents: host(spec, 'documents'),
      queries: host(spec, 'queries'),
      slice: 3,
    });
    const documents = await embedder.embed(texts, { kind: 'document' });
    const query = await embedder.embed([texts[0]!], { kind: 'query' });
    expect({
      documents: documents.vectors.map((v) => Array.from(v)),
      query: Array.from(query.vectors[0]!),
      lengths: documents.vectors.map((v) => v.length),
    }).toEqual({
      documents: expected.map((v) => Array.from(v)),
      query: Array.from(expected[0]!),
      lengths: [64, 64, 64, 64],
    });
  });

  it('reports a model that cannot load as a failed call, and works again once the files are right', async () => {
    const { dir } = ensureTinyModel();
    const broken = host(tinySpec(dir, 'missing.onnx'));
    await expect(broken.call('embed', [['car'], 'document'])).rejects.toMatchObject({
      message: expect.stringMatching(/missing\.onnx/),
    });
    const fixed = host(tinySpec(dir));
    await expect(fixed.call<Float32Array[]>('embed', [['car'], 'document'])).resolves.toHaveLength(1);
  });

  it('rejects a cancelled call at once and keeps serving the next one', async () => {
    const { dir } = ensureTinyModel();
    const worker = host(tinySpec(dir));
    await worker.whenReady();
    const controller = new AbortController();
    const slow = worker.call(
      'embed',
      [Array.from({ length: 64 }, (_, i) => `car ${i} `.repeat(40)), 'document'],
      {
        signal: controller.signal,
      },
    );
    controller.abort();
    await expect(slow).rejects.toMatchObject({ code: 'CANCELLED' });
    await expect(worker.call<Float32Array[]>('embed', [['vacation'], 'query'])).resolves.toHaveLength(1);
  });
});
