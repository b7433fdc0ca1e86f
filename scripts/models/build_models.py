#!/usr/bin/env python3
"""
Builds ONNX test models for Cairn's local-model work, with no real weights.

  /usr/bin/python3 scripts/build_models.py tiny --out models/tiny
      A tiny BERT-like embedder (input_ids, attention_mask, token_type_ids -> last_hidden_state),
      a tiny XLM-R-style cross-encoder reranker (input_ids, attention_mask -> logits), a WordPiece
      tokenizer.json, config/tokenizer_config/special_tokens_map, and manifest.json with SHA-256s.
      A few hundred KB, deterministic (same bytes every run). The embedder is built so that mean
      pooling gives a bag of *concepts*: synonyms across languages share one embedding row, so a
      query worded differently from a document ("car" vs "汽车") still finds it. The reranker
      scores a (query, passage) pair by the overlap of their concepts. Good for end-to-end tests
      (pull -> load -> tokenize -> pool -> normalise -> index -> search -> rerank), useless for
      quality.

  /usr/bin/python3 scripts/build_models.py arch --model bge-small-zh-v1.5 [--int8] --out models
      A random-weight ONNX graph with exactly the architecture of a real model (layers, hidden
      size, heads, intermediate size, vocabulary, max positions, the same inputs and outputs as the
      Hugging Face/Optimum exports). Runs at the real model's speed; its outputs are noise.
      --int8 builds the dynamic-quantised variant the way onnxruntime's quantize_dynamic does
      (DynamicQuantizeLinear -> MatMulInteger -> Cast -> Mul, int8 weights; uint8 word-embedding
      table + DequantizeLinear after the Gather), since the Python onnxruntime quantizer is not
      installable here. Large models (bge-m3: ~2.3 GB fp32) are written with external data
      (model.onnx + model.onnx_data). Generate on demand; never commit them.

  /usr/bin/python3 scripts/build_models.py list
"""
import argparse
import hashlib
import json
import math
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

OPSET = 17  # LayerNormalization is a standard op from 17; python3-onnx 1.12 (Debian 12) supports 17.

# Architectures, from each model's config.json on the Hugging Face Hub (sources in
# /work/notes/local-models.md). kind: bert = BertModel (absolute positions 0..n-1, token_type_ids
# input); xlmr = XLMRobertaModel (positions = padding_idx + cumulative count of non-pad tokens,
# type_vocab_size 1, no token_type_ids input in the Optimum export).
ARCHS = {
    'bge-small-zh-v1.5': dict(kind='bert', layers=4, hidden=512, heads=8, inter=2048, vocab=21128,
                              max_pos=512, type_vocab=2, eps=1e-12, head='embed'),
    'multilingual-e5-small': dict(kind='bert', layers=12, hidden=384, heads=12, inter=1536, vocab=250037,
                                  max_pos=512, type_vocab=2, eps=1e-12, head='embed'),
    'bge-m3': dict(kind='xlmr', layers=24, hidden=1024, heads=16, inter=4096, vocab=250002,
                   max_pos=8194, type_vocab=1, eps=1e-5, head='embed'),
    'bge-reranker-v2-m3': dict(kind='xlmr', layers=24, hidden=1024, heads=16, inter=4096, vocab=250002,
                               max_pos=8194, type_vocab=1, eps=1e-5, head='rerank'),
    'bge-reranker-base': dict(kind='xlmr', layers=12, hidden=768, heads=12, inter=3072, vocab=250002,
                              max_pos=514, type_vocab=1, eps=1e-5, head='rerank'),
    # jina-reranker-v2-base-multilingual is an XLM-R-base-sized model (278M) with custom code
    # (flash attention, max 1024 positions); the same matrix shapes as bge-reranker-base, so the
    # bge-reranker-base graph stands in for its speed (see notes).
    # A small multilingual cross-encoder: cross-encoder/mmarco-mMiniLMv2-L12-H384-v1 (XLM-R vocab,
    # 12 layers, hidden 384).
    'mmarco-mMiniLMv2-L12-H384': dict(kind='xlmr', layers=12, hidden=384, heads=12, inter=1536, vocab=250002,
                                      max_pos=514, type_vocab=1, eps=1e-5, head='rerank'),
    # Its 6-layer sibling nreimers/mmarco-mMiniLMv2-L6-H384-v1 (same shapes, half the layers).
    'mmarco-mMiniLMv2-L6-H384': dict(kind='xlmr', layers=6, hidden=384, heads=12, inter=1536, vocab=250002,
                                     max_pos=514, type_vocab=1, eps=1e-5, head='rerank'),
}

FLOAT_MIN = float(np.finfo(np.float32).min)


class Graph:
    """Accumulates nodes and initializers; names are unique by construction."""

    def __init__(self, rng, int8=False, per_channel=False):
        self.nodes, self.inits, self.n = [], [], 0
        self.rng, self.int8, self.per_channel = rng, int8, per_channel
        self.params = 0

    def name(self, base):
        self.n += 1
        return f'{base}_{self.n}'

    def const(self, array, base='c'):
        name = self.name(base)
        self.inits.append(numpy_helper.from_array(np.asarray(array), name))
        return name

    def weight(self, shape, std=0.02, base='w', value=None):
        array = value if value is not None else (self.rng.standard_normal(shape, dtype=np.float32) * std)
        self.params += int(np.prod(shape))
        return self.const(array.astype(np.float32), base)

    def op(self, op_type, inputs, base=None, outputs=1, **attrs):
        outs = [self.name(base or op_type.lower()) for _ in range(outputs)]
        self.nodes.append(helper.make_node(op_type, inputs, outs, **attrs))
        return outs[0] if outputs == 1 else outs

    # --- building blocks -------------------------------------------------------------------
    def linear(self, x, d_in, d_out, base, w=None, b=None):
        """x @ W + b, fp32 or dynamically quantised like onnxruntime.quantization.quantize_dynamic."""
        W = w if w is not None else self.rng.standard_normal((d_in, d_out), dtype=np.float32) * 0.02
        self.params += W.size + d_out
        bias = self.const((b if b is not None else np.zeros(d_out, np.float32)).astype(np.float32), base + '_b')
        if not self.int8:
            y = self.op('MatMul', [x, self.const(W.astype(np.float32), base + '_w')], base + '_mm')
            return self.op('Add', [y, bias], base)
        # Symmetric int8 weights (QuantType.QInt8, zero point 0), per tensor or per output column.
        if self.per_channel:
            scale = np.maximum(np.abs(W).max(axis=0), 1e-8) / 127.0
            zp = np.zeros(d_out, np.int8)
        else:
            scale = np.array(max(float(np.abs(W).max()), 1e-8) / 127.0, np.float32)
            zp = np.array(0, np.int8)
        Wq = np.clip(np.round(W / scale), -127, 127).astype(np.int8)
        xq, xs, xz = self.op('DynamicQuantizeLinear', [x], base + '_dq', outputs=3)
        acc = self.op('MatMulInteger', [xq, self.const(Wq, base + '_wq'), xz, self.const(zp, base + '_wzp')], base + '_mmi')
        f = self.op('Cast', [acc], base + '_cast', to=TensorProto.FLOAT)
        s = self.op('Mul', [xs, self.const(scale.astype(np.float32), base + '_ws')], base + '_scale')
        y = self.op('Mul', [f, s], base + '_deq')
        return self.op('Add', [y, bias], base)

    def embedding(self, ids, rows, dim, base, table=None):
        T = table if table is not None else self.rng.standard_normal((rows, dim), dtype=np.float32) * 0.02
        self.params += T.size
        if not self.int8 or rows < 4096:
            return self.op('Gather', [self.const(T.astype(np.float32), base + '_table'), ids], base)
        # Like quantize_dynamic's Gather handling: uint8 table, dequantise only the gathered rows.
        lo, hi = float(T.min()), float(T.max())
        scale = (hi - lo) / 255.0 or 1.0
        zp = int(np.clip(round(-lo / scale), 0, 255))
        Tq = np.clip(np.round(T / scale) + zp, 0, 255).astype(np.uint8)
        g = self.op('Gather', [self.const(Tq, base + '_tableq'), ids], base + '_gq')
        return self.op('DequantizeLinear', [g, self.const(np.array(scale, np.float32)), self.const(np.array(zp, np.uint8))], base)

    def layer_norm(self, x, dim, eps, base, gamma=None, beta=None):
        self.params += 2 * dim
        g = self.const((gamma if gamma is not None else np.ones(dim, np.float32)).astype(np.float32), base + '_g')
        b = self.const((beta if beta is not None else np.zeros(dim, np.float32)).astype(np.float32), base + '_beta')
        return self.op('LayerNormalization', [x, g, b], base, axis=-1, epsilon=eps)

    def gelu(self, x):
        # The erf form torch exports (x * 0.5 * (1 + erf(x / sqrt 2))); onnxruntime fuses it to Gelu.
        d = self.op('Div', [x, self.const(np.array(math.sqrt(2.0), np.float32))])
        e = self.op('Erf', [d])
        a = self.op('Add', [e, self.const(np.array(1.0, np.float32))])
        m = self.op('Mul', [x, a])
        return self.op('Mul', [m, self.const(np.array(0.5, np.float32))], 'gelu')


def encoder(g, cfg, ids, mask, type_ids, weights=None):
    """BERT/XLM-R encoder in the op pattern of a torch.onnx export. Returns last_hidden_state."""
    H, nh, I = cfg['hidden'], cfg['heads'], cfg['inter']
    hd = H // nh
    weights = weights or {}
    word = g.embedding(ids, cfg['vocab'], H, 'word', table=weights.get('word'))
    if cfg['kind'] == 'bert':
        pos_ids_all = g.const(np.arange(cfg['max_pos'], dtype=np.int64)[None, :], 'position_ids')
        seq = g.op('Shape', [ids], start=1, end=2)
        pos_ids = g.op('Slice', [pos_ids_all, g.const(np.array([0], np.int64)), seq, g.const(np.array([1], np.int64))])
        pos = g.embedding(pos_ids, cfg['max_pos'], H, 'pos', table=weights.get('pos'))
        typ = g.embedding(type_ids, cfg['type_vocab'], H, 'type', table=weights.get('type'))
        x = g.op('Add', [g.op('Add', [word, typ]), pos])
    else:
        # RoBERTa: position = padding_idx (1) + cumulative count of non-pad tokens, pad -> 1.
        not_pad = g.op('Cast', [g.op('Not', [g.op('Equal', [ids, g.const(np.array(1, np.int64))])])], to=TensorProto.INT64)
        inc = g.op('Mul', [g.op('CumSum', [not_pad, g.const(np.array(1, np.int64))]), not_pad])
        pos_ids = g.op('Add', [inc, g.const(np.array(1, np.int64))])
        pos = g.embedding(pos_ids, cfg['max_pos'], H, 'pos', table=weights.get('pos'))
        typ_row = weights.get('type')
        typ_row = typ_row[0] if typ_row is not None else g.rng.standard_normal(H, dtype=np.float32) * 0.02
        g.params += H
        x = g.op('Add', [g.op('Add', [word, g.const(typ_row.astype(np.float32), 'type_row')]), pos])
    x = g.layer_norm(x, H, cfg['eps'], 'emb_ln')

    # Extended attention mask: (1 - mask) * float_min, shape [B, 1, 1, S].
    m = g.op('Cast', [g.op('Unsqueeze', [mask, g.const(np.array([1, 2], np.int64))])], to=TensorProto.FLOAT)
    ext = g.op('Mul', [g.op('Sub', [g.const(np.array(1.0, np.float32)), m]), g.const(np.array(FLOAT_MIN, np.float32))], 'ext_mask')
    heads_shape = g.const(np.array([0, 0, nh, hd], np.int64), 'heads_shape')
    merge_shape = g.const(np.array([0, 0, H], np.int64), 'merge_shape')
    inv = g.const(np.array(math.sqrt(hd), np.float32), 'sqrt_hd')
    for layer in range(cfg['layers']):
        L = weights.get('layers', [{}] * cfg['layers'])[layer]
        q = g.op('Transpose', [g.op('Reshape', [g.linear(x, H, H, f'l{layer}_q', L.get('q')), heads_shape])], perm=[0, 2, 1, 3])
        k = g.op('Transpose', [g.op('Reshape', [g.linear(x, H, H, f'l{layer}_k', L.get('k')), heads_shape])], perm=[0, 2, 3, 1])
        v = g.op('Transpose', [g.op('Reshape', [g.linear(x, H, H, f'l{layer}_v', L.get('v')), heads_shape])], perm=[0, 2, 1, 3])
        scores = g.op('Add', [g.op('Div', [g.op('MatMul', [q, k]), inv]), ext])
        probs = g.op('Softmax', [scores], axis=-1)
        ctx = g.op('Reshape', [g.op('Transpose', [g.op('MatMul', [probs, v])], perm=[0, 2, 1, 3]), merge_shape])
        attn = g.linear(ctx, H, H, f'l{layer}_o', L.get('o'))
        x = g.layer_norm(g.op('Add', [attn, x]), H, cfg['eps'], f'l{layer}_ln1')
        ff = g.gelu(g.linear(x, H, I, f'l{layer}_ff1', L.get('ff1')))
        ff = g.linear(ff, I, H, f'l{layer}_ff2', L.get('ff2'))
        x = g.layer_norm(g.op('Add', [ff, x]), H, cfg['eps'], f'l{layer}_ln2')
    return x


def encoder_fused(g, cfg, ids, mask, type_ids):
    """The same maths with onnxruntime contrib ops (com.microsoft Attention, SkipLayerNormalization,
    BiasGelu): what onnxruntime.transformers.optimizer would write offline. fp32 only; BERT kind only.
    Used to measure how much an offline-optimised graph would gain over the plain export."""
    H, nh, I = cfg['hidden'], cfg['heads'], cfg['inter']
    word = g.embedding(ids, cfg['vocab'], H, 'word')
    pos_ids_all = g.const(np.arange(cfg['max_pos'], dtype=np.int64)[None, :], 'position_ids')
    seq = g.op('Shape', [ids], start=1, end=2)
    pos_ids = g.op('Slice', [pos_ids_all, g.const(np.array([0], np.int64)), seq, g.const(np.array([1], np.int64))])
    pos = g.embedding(pos_ids, cfg['max_pos'], H, 'pos')
    typ = g.embedding(type_ids, cfg['type_vocab'], H, 'type')
    x = g.layer_norm(g.op('Add', [g.op('Add', [word, typ]), pos]), H, cfg['eps'], 'emb_ln')
    mask32 = g.op('Cast', [mask], to=TensorProto.INT32)
    ms = lambda *shape: g.rng.standard_normal(shape, dtype=np.float32) * 0.02
    for layer in range(cfg['layers']):
        g.params += 4 * H * H + 4 * H + 2 * H * I + I + H + 4 * H
        qkv_w = g.const(ms(H, 3 * H), f'l{layer}_qkv_w')
        qkv_b = g.const(np.zeros(3 * H, np.float32), f'l{layer}_qkv_b')
        n = g.name('attn')
        g.nodes.append(helper.make_node('Attention', [x, qkv_w, qkv_b, mask32], [n], domain='com.microsoft', num_heads=nh))
        attn = g.op('MatMul', [n, g.const(ms(H, H), f'l{layer}_o_w')])
        n2 = g.name('sln')
        g.nodes.append(helper.make_node('SkipLayerNormalization', [attn, x, g.const(np.ones(H, np.float32)), g.const(np.zeros(H, np.float32)), g.const(np.zeros(H, np.float32))], [n2], domain='com.microsoft', epsilon=cfg['eps']))
        x = n2
        ff = g.op('MatMul', [x, g.const(ms(H, I), f'l{layer}_ff1_w')])
        n3 = g.name('bgelu')
        g.nodes.append(helper.make_node('BiasGelu', [ff, g.const(np.zeros(I, np.float32))], [n3], domain='com.microsoft'))
        ff2 = g.op('MatMul', [n3, g.const(ms(I, H), f'l{layer}_ff2_w')])
        n4 = g.name('sln')
        g.nodes.append(helper.make_node('SkipLayerNormalization', [ff2, x, g.const(np.ones(H, np.float32)), g.const(np.zeros(H, np.float32)), g.const(np.zeros(H, np.float32))], [n4], domain='com.microsoft', epsilon=cfg['eps']))
        x = n4
    return x


def rerank_head(g, x, H):
    """XLMRobertaClassificationHead: <s> token -> dense -> tanh -> out_proj (1 label)."""
    cls = g.op('Gather', [x, g.const(np.array(0, np.int64))], axis=1)
    h = g.op('Tanh', [g.linear(cls, H, H, 'cls_dense')])
    return g.linear(h, H, 1, 'cls_out')


def make_model(g, cfg, head, out_name, out_shape, with_type_ids):
    inputs = [helper.make_tensor_value_info('input_ids', TensorProto.INT64, ['batch_size', 'sequence_length']),
              helper.make_tensor_value_info('attention_mask', TensorProto.INT64, ['batch_size', 'sequence_length'])]
    if with_type_ids:
        inputs.append(helper.make_tensor_value_info('token_type_ids', TensorProto.INT64, ['batch_size', 'sequence_length']))
    # Rename the last node's output to the public name.
    g.nodes[-1].output[0] = out_name
    outputs = [helper.make_tensor_value_info(out_name, TensorProto.FLOAT, out_shape)]
    graph = helper.make_graph(g.nodes, head, inputs, outputs, g.inits)
    opsets = [helper.make_opsetid('', OPSET)]
    if any(n.domain == 'com.microsoft' for n in g.nodes):
        opsets.append(helper.make_opsetid('com.microsoft', 1))
    model = helper.make_model(graph, opset_imports=opsets, producer_name='cairn-build-models')
    model.ir_version = 8  # onnxruntime 1.30 reads IR <= 10; 8 matches opset 17.
    return model


def build_arch(name, out_dir, int8, per_channel, seed, fused=False):
    cfg = ARCHS[name]
    rng = np.random.default_rng(seed)
    g = Graph(rng, int8=int8, per_channel=per_channel)
    with_type_ids = cfg['kind'] == 'bert'
    ids, mask = 'input_ids', 'attention_mask'
    if fused:
        assert cfg['kind'] == 'bert' and not int8, '--fused: BERT kind, fp32 only'
        x = encoder_fused(g, cfg, ids, mask, 'token_type_ids')
    else:
        x = encoder(g, cfg, ids, mask, 'token_type_ids' if with_type_ids else None)
    if cfg['head'] == 'rerank':
        rerank_head(g, x, cfg['hidden'])
        model = make_model(g, cfg, name, 'logits', ['batch_size', 1], with_type_ids)
    else:
        g.op('Identity', [x])
        model = make_model(g, cfg, name, 'last_hidden_state', ['batch_size', 'sequence_length', cfg['hidden']], with_type_ids)
    suffix = ('int8pc' if per_channel else 'int8') if int8 else ('fp32fused' if fused else 'fp32')
    target = os.path.join(out_dir, name, suffix)
    os.makedirs(target, exist_ok=True)
    path = os.path.join(target, 'model.onnx')
    for stale in ('model.onnx', 'model.onnx_data'):
        if os.path.exists(os.path.join(target, stale)):
            os.remove(os.path.join(target, stale))
    size = sum(t.raw_data.__len__() if t.raw_data else 0 for t in model.graph.initializer)
    if size > 1_900_000_000:
        onnx.save_model(model, path, save_as_external_data=True, all_tensors_to_one_file=True,
                        location='model.onnx_data', size_threshold=1024)
    else:
        onnx.save_model(model, path)
    files = [f for f in os.listdir(target) if f.startswith('model.onnx')]
    total = sum(os.path.getsize(os.path.join(target, f)) for f in files)
    info = dict(model=name, precision=suffix, params=g.params, bytes=total, files=sorted(files), **cfg)
    with open(os.path.join(target, 'arch.json'), 'w') as f:
        json.dump(info, f, indent=2)
    print(json.dumps({k: info[k] for k in ('model', 'precision', 'params', 'bytes', 'files')}))


# --------------------------------------------------------------------------------------------
# The tiny test model
# --------------------------------------------------------------------------------------------

SPECIALS = ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]']
# Concept groups: every token in a group shares one embedding row, so mean pooling maps synonyms
# (and their Chinese counterparts, one CJK character per token as BERT splits them) together.
CONCEPTS = [
    ['car', 'cars', 'automobile', 'vehicle', '汽', '车'],
    ['doctor', 'physician', '医', '师'],
    ['invoice', 'bill', 'receipt', '发', '票'],
    ['meeting', 'meetings', '会', '议'],
    ['holiday', 'vacation', 'leave', '假', '期'],
    ['password', 'credential', '密', '码'],
    ['budget', 'cost', 'expense', '预', '算', '费', '用'],
    ['contract', 'agreement', '合', '同'],
    ['server', 'machine', '服', '务', '器'],
    ['reimbursement', 'refund', '报', '销'],
    ['weather', 'forecast', '天', '气'],
    ['search', 'retrieval', '搜', '索', '检'],
]
FILLER_WORDS = ['the', 'a', 'an', 'of', 'to', 'and', 'in', 'is', 'for', 'how', 'what', 'my', 'do', 'i', 'on', 'with',
                'new', 'report', 'team', 'project', 'please', 'submit', 'office', 'plan', 'policy', 'apply', 'reset',
                'broken', 'book', 'next', 'week', 'quarter', 'sign', 'travel', 'rain']
FILLER_ZH = list('的了是在我有和就不人都一上也很到说要去你会着没看好自己这么什那请如何提交下周季度签订出差雨申重置坏掉预约')


def tiny_vocab():
    vocab = list(SPECIALS)
    seen = set(vocab)

    def add(token):
        if token not in seen:
            seen.add(token)
            vocab.append(token)
    for group in CONCEPTS:
        for token in group:
            add(token)
    for token in FILLER_WORDS + FILLER_ZH:
        add(token)
    for ch in 'abcdefghijklmnopqrstuvwxyz0123456789':
        add(ch)
    for ch in 'abcdefghijklmnopqrstuvwxyz0123456789':
        add('##' + ch)
    for ch in '.,!?;:\'"()-/，。！？；：、（）“”':
        add(ch)
    return vocab


def tiny_tokenizer_json(vocab):
    ids = {t: i for i, t in enumerate(vocab)}
    added = [dict(id=ids[t], content=t, single_word=False, lstrip=False, rstrip=False, normalized=False, special=True) for t in SPECIALS]
    return {
        'version': '1.0',
        'truncation': None,
        'padding': None,
        'added_tokens': added,
        'normalizer': {'type': 'BertNormalizer', 'clean_text': True, 'handle_chinese_chars': True, 'strip_accents': None, 'lowercase': True},
        'pre_tokenizer': {'type': 'BertPreTokenizer'},
        'post_processor': {
            'type': 'TemplateProcessing',
            'single': [{'SpecialToken': {'id': '[CLS]', 'type_id': 0}}, {'Sequence': {'id': 'A', 'type_id': 0}}, {'SpecialToken': {'id': '[SEP]', 'type_id': 0}}],
            'pair': [{'SpecialToken': {'id': '[CLS]', 'type_id': 0}}, {'Sequence': {'id': 'A', 'type_id': 0}}, {'SpecialToken': {'id': '[SEP]', 'type_id': 0}},
                     {'Sequence': {'id': 'B', 'type_id': 1}}, {'SpecialToken': {'id': '[SEP]', 'type_id': 1}}],
            'special_tokens': {t: {'id': t, 'ids': [ids[t]], 'tokens': [t]} for t in ('[CLS]', '[SEP]')},
        },
        'decoder': {'type': 'WordPiece', 'prefix': '##', 'cleanup': True},
        'model': {'type': 'WordPiece', 'unk_token': '[UNK]', 'continuing_subword_prefix': '##', 'max_input_chars_per_word': 100, 'vocab': ids},
    }


def build_tiny(out_dir, seed=12):
    rng = np.random.default_rng(seed)
    vocab = tiny_vocab()
    V, H, nh, I, P = len(vocab), 64, 2, 128, 128
    concept_of = {}
    for c, group in enumerate(CONCEPTS):
        for token in group:
            concept_of[token] = c
    # Concept rows are random (nearly orthogonal) vectors of norm ~8. Every other token (stop
    # words, characters, specials) is a weak shared 'filler' direction plus a little noise (norm
    # ~0.2, so even a long run of unknown words cannot outweigh one concept word: a text sharing
    # no concept with another stays dissimilar to it), and a text without any concept still has
    # a direction.
    concept_vecs = rng.standard_normal((len(CONCEPTS), H)).astype(np.float32)
    filler = rng.standard_normal(H).astype(np.float32)
    concepts = np.zeros((V, H), np.float32)
    for i, t in enumerate(vocab):
        if t in concept_of:
            concepts[i] = concept_vecs[concept_of[t]]
        else:
            concepts[i] = filler * 0.02 + rng.standard_normal(H).astype(np.float32) * 0.01
    word = rng.standard_normal((V, H)).astype(np.float32)
    cfg = dict(kind='bert', layers=2, hidden=H, heads=nh, inter=I, vocab=V, max_pos=P, type_vocab=2, eps=1e-12, head='embed')
    small = lambda *shape: (rng.standard_normal(shape).astype(np.float32) * 0.002)
    layers = [dict(q=small(H, H), k=small(H, H), v=small(H, H), o=small(H, H), ff1=small(H, I), ff2=small(I, H)) for _ in range(cfg['layers'])]
    weights = dict(word=word, pos=small(P, H), type=small(2, H), layers=layers)
    os.makedirs(out_dir, exist_ok=True)

    # Embedder: last_hidden_state; pool with the attention mask (mean), then L2-normalise.
    # A real (tiny) BERT encoder runs, but its LayerNorm-ed output would drown the lexical signal,
    # so last_hidden_state = concepts[input_ids] + 0.02 * encoder(...): a BERT-shaped graph whose
    # mean-pooled output is a bag of concepts.
    g = Graph(rng)
    x = encoder(g, cfg, 'input_ids', 'attention_mask', 'token_type_ids', weights)
    lexical = g.op('Gather', [g.const(concepts, 'concepts'), 'input_ids'])
    g.op('Add', [lexical, g.op('Mul', [x, g.const(np.array(0.02, np.float32))])])
    onnx.save_model(make_model(g, cfg, 'cairn-tiny-embedder', 'last_hidden_state', ['batch_size', 'sequence_length', H], True),
                    os.path.join(out_dir, 'model.onnx'))

    # Reranker: XLM-R-style inputs (input_ids, attention_mask) -> logits [B, 1]. The score is a
    # scaled cosine between the concept vectors of segment A (before the first [SEP]) and segment
    # B (after it), computed in the graph, so tests can check that reranking reorders by meaning.
    r = Graph(rng)
    table = r.const(concepts, 'concepts')
    emb = r.op('Gather', [table, 'input_ids'])                                     # [B,S,H]
    sep = r.op('Cast', [r.op('Equal', ['input_ids', r.const(np.array(vocab.index('[SEP]'), np.int64))])], to=TensorProto.FLOAT)
    seps_before = r.op('Sub', [r.op('CumSum', [sep, r.const(np.array(1, np.int64))]), sep])  # SEPs strictly before each token
    maskf = r.op('Cast', ['attention_mask'], to=TensorProto.FLOAT)
    special = r.op('Cast', [r.op('Less', ['input_ids', r.const(np.array(len(SPECIALS), np.int64))])], to=TensorProto.FLOAT)
    content = r.op('Mul', [maskf, r.op('Sub', [r.const(np.array(1.0, np.float32)), special])])
    in_a = r.op('Mul', [content, r.op('Cast', [r.op('Equal', [seps_before, r.const(np.array(0.0, np.float32))])], to=TensorProto.FLOAT)])
    in_b = r.op('Mul', [content, r.op('Cast', [r.op('Greater', [seps_before, r.const(np.array(0.0, np.float32))])], to=TensorProto.FLOAT)])
    axes2 = r.const(np.array([2], np.int64))
    axes1 = r.const(np.array([1], np.int64))
    qa = r.op('ReduceSum', [r.op('Mul', [emb, r.op('Unsqueeze', [in_a, axes2])]), axes1], keepdims=0)  # [B,H]
    pb = r.op('ReduceSum', [r.op('Mul', [emb, r.op('Unsqueeze', [in_b, axes2])]), axes1], keepdims=0)
    dot = r.op('ReduceSum', [r.op('Mul', [qa, pb]), axes1], keepdims=1)
    na = r.op('Sqrt', [r.op('Add', [r.op('ReduceSum', [r.op('Mul', [qa, qa]), axes1], keepdims=1), r.const(np.array(1e-6, np.float32))])])
    nb = r.op('Sqrt', [r.op('Add', [r.op('ReduceSum', [r.op('Mul', [pb, pb]), axes1], keepdims=1), r.const(np.array(1e-6, np.float32))])])
    cos = r.op('Div', [dot, r.op('Mul', [na, nb])])
    r.op('Mul', [r.op('Sub', [cos, r.const(np.array(0.3, np.float32))]), r.const(np.array(10.0, np.float32))])  # logit: cos 0.3 -> 0
    onnx.save_model(make_model(r, cfg, 'cairn-tiny-reranker', 'logits', ['batch_size', 1], False), os.path.join(out_dir, 'reranker.onnx'))

    with open(os.path.join(out_dir, 'tokenizer.json'), 'w', encoding='utf-8') as f:
        json.dump(tiny_tokenizer_json(vocab), f, ensure_ascii=False, indent=None, separators=(',', ':'))
    with open(os.path.join(out_dir, 'vocab.txt'), 'w', encoding='utf-8') as f:
        f.write('\n'.join(vocab) + '\n')
    config = dict(architectures=['BertModel'], model_type='bert', hidden_size=H, num_hidden_layers=cfg['layers'], num_attention_heads=nh,
                  intermediate_size=I, vocab_size=V, max_position_embeddings=P, type_vocab_size=2, layer_norm_eps=1e-12, pad_token_id=0,
                  hidden_act='gelu')
    with open(os.path.join(out_dir, 'config.json'), 'w') as f:
        json.dump(config, f, indent=2)
    with open(os.path.join(out_dir, 'tokenizer_config.json'), 'w') as f:
        json.dump(dict(tokenizer_class='BertTokenizer', do_lower_case=True, tokenize_chinese_chars=True, model_max_length=P,
                       cls_token='[CLS]', sep_token='[SEP]', pad_token='[PAD]', unk_token='[UNK]', mask_token='[MASK]'), f, indent=2)
    with open(os.path.join(out_dir, 'special_tokens_map.json'), 'w') as f:
        json.dump(dict(cls_token='[CLS]', sep_token='[SEP]', pad_token='[PAD]', unk_token='[UNK]', mask_token='[MASK]'), f, indent=2)
    files = {}
    for name in sorted(os.listdir(out_dir)):
        if name == 'manifest.json':
            continue
        data = open(os.path.join(out_dir, name), 'rb').read()
        files[name] = dict(size=len(data), sha256=hashlib.sha256(data).hexdigest())
    manifest = dict(
        id='cairn-tiny-zh-en', description='Test-only model made by build_models.py; random weights with synonym groups shared.',
        dimensions=H, maxTokens=P, pooling='mean', normalize=True, queryPrefix='', documentPrefix='',
        embedder=dict(file='model.onnx', inputs=['input_ids', 'attention_mask', 'token_type_ids'], output='last_hidden_state'),
        reranker=dict(file='reranker.onnx', inputs=['input_ids', 'attention_mask'], output='logits'),
        concepts=CONCEPTS, files=files)
    with open(os.path.join(out_dir, 'manifest.json'), 'w') as f:
        json.dump(manifest, f, ensure_ascii=False, indent=2)
    print(json.dumps(dict(out=out_dir, vocab=V, files={k: v['size'] for k, v in files.items()})))


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest='cmd', required=True)
    t = sub.add_parser('tiny')
    t.add_argument('--out', default='models/tiny')
    a = sub.add_parser('arch')
    a.add_argument('--model', action='append', help='one of ' + ', '.join(ARCHS) + ' (repeatable; default all)')
    a.add_argument('--int8', action='store_true')
    a.add_argument('--per-channel', action='store_true', help='int8 with per-column weight scales')
    a.add_argument('--fused', action='store_true', help='fp32 with onnxruntime contrib ops (Attention, SkipLayerNormalization, BiasGelu)')
    a.add_argument('--out', default='models')
    a.add_argument('--seed', type=int, default=1)
    sub.add_parser('list')
    args = p.parse_args()
    if args.cmd == 'tiny':
        build_tiny(args.out)
    elif args.cmd == 'list':
        for name, cfg in ARCHS.items():
            print(name, json.dumps(cfg))
    else:
        for name in args.model or list(ARCHS):
            if name not in ARCHS:
                sys.exit(f'unknown model {name}; one of {", ".join(ARCHS)}')
            build_arch(name, args.out, args.int8 or args.per_channel, args.per_channel, args.seed, args.fused)


if __name__ == '__main__':
    main()
