# model_layers/draw.py — shapes that real models run, drawn at random (a fixed seed), for judging the final
# chooser and kernel beyond the bench's shapes: the projections of seven open models' transformer layers
# (QKV, attention output, the FFN's fused gate and up, its down, and the vocabulary head) at token counts
# M drawn log-uniformly from 1 to 8192 (decode batches, ragged prefill chunks, whole prompts).  Earlier lists
# each held one class (decode_shapes.txt, pair_alone_shapes.txt, ...); this one mixes them as a serving
# model meets them.  Shapes of chooser_fit.txt and heldout_shapes.txt are drawn again.
#   python3 step10_autotune/experiments/model_layers/draw.py [COUNT] [SEED] [M_MIN M_MAX] > shapes.txt
# (M_MIN, M_MAX: the token counts' range, 1 and 8192 unless given; shapes_prefill.txt: 24 2 256 4096)
# The dimensions are the models' published configurations (hidden size, query and key/value heads x head
# size, FFN width, vocabulary); N x K of a layer is its weight's, M the tokens in flight.  No GPU.
import math, os, random, sys

MODELS = {   # hidden, query dim, key/value dim (per K or V), FFN width, vocabulary
    'llama3_8b':    (4096, 4096, 1024, 14336, 128256),
    'llama3_70b':   (8192, 8192, 1024, 28672, 128256),
    'qwen2.5_7b':   (3584, 3584, 512, 18944, 152064),
    'qwen2.5_14b':  (5120, 5120, 1024, 13824, 152064),
    'mistral_nemo': (5120, 4096, 1024, 14336, 131072),
    'gemma2_9b':    (3584, 4096, 2048, 14336, 256000),
    'phi3_mini':    (3072, 3072, 3072, 8192, 32064),
}

def layers(h, q, kv, ffn, vocab):   # name, N, K
    return [('qkv', q + 2 * kv, h), ('o', h, q), ('gate_up', 2 * ffn, h), ('down', h, ffn), ('lm_head', vocab, h)]

def skip_list():   # the fit's and the held-out list's shapes (step10_autotune/*.txt)
    step = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    seen = set()
    for f in ('chooser_fit.txt', 'heldout_shapes.txt'):
        for line in open(os.path.join(step, f)):
            w = line.split('#')[0].split()
            if len(w) >= 3: seen.add(tuple(int(x) for x in w[:3]))
    return seen

def main():
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 24
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 20261129
    m_lo, m_hi = (int(sys.argv[3]), int(sys.argv[4])) if len(sys.argv) > 4 else (1, 8192)
    rng = random.Random(seed)
    seen, out = skip_list(), []
    while len(out) < count:
        model = rng.choice(sorted(MODELS))
        name, n, k = rng.choice(layers(*MODELS[model]))
        if name == 'lm_head' and rng.random() < 0.6: continue   # one per forward pass, not five
        m = int(round(math.exp(rng.uniform(math.log(m_lo), math.log(m_hi)))))
        if (m, n, k) in seen: continue
        seen.add((m, n, k))
        out.append((m, n, k, model, name))
    print('# step10_autotune/experiments/model_layers: %d shapes drawn by draw.py %s (no GPU ran them first)'
          % (count, ' '.join(sys.argv[1:]) or '24 20261129'))
    print('# M     N       K       model layer   GFLOP')
    for m, n, k, model, name in out:
        print('%-6d %-7d %-7d # %s %s  %.1f' % (m, n, k, model, name, 2.0 * m * n * k / 1e9))

main()
