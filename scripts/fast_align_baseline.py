#!/usr/bin/env python3
"""fast_align baseline word aligner, written in pure Python and used only for measurement.

This script reimplements the fast_align model in Python. We use it for the baseline
measurement in docs/alignment.md, so that our neural aligners can be compared with a
standard statistical aligner. It is not part of the product, and nothing in the build
or the app uses it. It needs the Python 3 standard library and, for grow-diag-final-and, python/alignscope/links.py
(the package's own symmetrisation).

Reference: C. Dyer, V. Chahuneau, N. A. Smith. "A Simple, Fast, and Effective
Reparameterization of IBM Model 2". NAACL-HLT 2013. The code follows the released
implementation (github.com/clab/fast_align: src/fast_align.cc, src/da.h, src/ttables.h,
and src/atools.cc for the symmetrisation).

Model and settings. These match `fast_align -d -o -v` for each direction and
`atools -c grow-diag-final-and` for the symmetrisation:
  * The alignment prior is diagonal (favor_diagonal). The null probability is p0 = 0.08.
    For target position j (1-based) in a sentence pair with m target words and n
    source words, p(a_j = i) is proportional to exp(-lambda * |i/n - j/m|), and the
    non-null prior is scaled to sum to 1 - p0. The normaliser is computed in closed
    form, as da.h does.
  * The tension lambda starts at 4.0. By default (--tension-mode fast_align) it is
    optimised exactly as the released fast_align.cc does it: after the E-step of every
    non-final iteration except the first, it takes 8 gradient steps
    lambda += 20 * (empirical feature - model feature), clamped to [0.1, 14].
    This deliberately keeps the released code's known quirks: the empirical feature
    uses the 0-based target position, and ComputeDLogZ calls ComputeZ with m and n
    swapped (clab/fast_align issue #11). `--tension-mode corrected` uses the exact
    gradient instead.
    `--tension-mode fixed` keeps lambda = 4.0.
  * The lexical table t(f|e) includes a NULL source word. It uses variational Bayes
    with a symmetric Dirichlet prior alpha = 0.01 (fast_align -v):
    t(f|e) = exp(psi(c(e,f) + alpha) - psi(sum_f' (c(e,f') + alpha))), where the sum
    runs over the f' seen with e. psi is fast_align's own digamma approximation,
    reimplemented below.
  * There are 5 iterations, counted as fast_align counts them. Iteration 1 uses a
    uniform t = 1e-9, iterations 1-4 are EM/VB updates, and iteration 5 only outputs
    the Viterbi alignment: the argmax per target word, with NULL winning ties and
    NULL links dropped.
  * Forward: English -> French, so each French word picks an English word or NULL.
    Reverse: French -> English, with the links then flipped. The two are symmetrised
    with grow-diag-final-and exactly as fast_align's atools does it: start from the
    intersection; grow-diag over the 8 neighbours, passing over the remaining union
    points in (i, j) order until nothing changes and adding a point when it has an
    aligned neighbour and either of its words is unaligned; then final-and, which adds
    forward points and then reverse points whose two words are both unaligned.
  * Words are the whitespace words of each side as written (Python str.split(),
    which also splits on U+00A0 and U+202F). Links are 0-based Pharaoh `i-j` with the
    English (source) index first, one line per test pair, in order. For the lexical
    model only, each word is lowercased and stripped of leading and trailing Unicode
    punctuation (category P*). A word that would become empty (a lone "?") keeps its
    lowercased form. The word indexing is unchanged.
  * Training data is TRAIN plus the TEST pairs. fast_align is unsupervised and is
    normally run on the training and test bitext together, which is the standard and
    fair protocol for AER evaluation. By default (--exclude-test) every TRAIN line that
    equals a test pair is dropped first, and the test set is then appended once, so no
    pair is counted twice. All 120 gold pairs occur in the Tatoeba fra-eng.txt.
    Pairs with an empty side are skipped, where fast_align would stop with an error.

Command that produced the figures in docs/alignment.md (run from the repository
root; single process, system python3 3.11):
  python3 scripts/fast_align_baseline.py --train ../shared/data/fra-eng.txt \\
      --test docs/alignment-gold/pairs.tsv --out /tmp/fa/gdfa.txt \\
      --both-out-prefix /tmp/fa/fa
The run trained on 163,871 pairs: the 163,751 TRAIN pairs left after removing the 120
test pairs, plus the 120 test pairs. It took 80 s wall time in total (about 40 s per
direction) as one process on a shared 2-core machine, with a peak RSS of 0.45 GB. The
final tension was 2.64 forward and 4.16 reverse. Scores against
docs/alignment-gold/gold.txt, summed over the 120 pairs (|S| = 795, |P| = 1085), were
identical from a standalone scorer and from `alignscope-cli aer`:
                           AER     precision  recall   links
  forward (en->fr)       11.91%    88.67%    87.42%    909
  reverse (fr->en)       10.50%    90.97%    87.92%    853
  intersection           12.11%    97.40%    79.62%    691
  grow-diag-final-and     9.01%    88.17%    94.59%   1014
For reference, grow-diag-final-and scored 9.33% AER with --tension-mode corrected
(final lambda 9.66 / 9.64) and 8.59% with --tension-mode fixed (lambda = 4).
"""

import argparse
import math
import os
import sys
import time
import unicodedata
from operator import mul

P0_DEFAULT = 0.08
ALPHA_DEFAULT = 0.01
TENSION_DEFAULT = 4.0
UNINIT_PROB = 1e-9  # TTable::prob before the first normalisation
U32 = 0xFFFFFFFF    # emulate C++ unsigned wrap-around in da.h


# ---------------------------------------------------------------- data
def read_tsv(path):
    """Return a list of (english, french) strings and the count of malformed lines."""
    pairs, bad = [], 0
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            line = line.rstrip("\r\n")
            parts = line.split("\t")
            if len(parts) < 2:
                bad += 1
                continue
            pairs.append((parts[0], parts[1]))
    return pairs, bad


def make_normaliser():
    cache = {}

    def is_punct(ch):
        return unicodedata.category(ch).startswith("P")

    def norm(w):
        r = cache.get(w)
        if r is None:
            lw = w.lower()
            a, b = 0, len(lw)
            while a < b and is_punct(lw[a]):
                a += 1
            while b > a and is_punct(lw[b - 1]):
                b -= 1
            r = lw[a:b] if b > a else lw
            cache[w] = r
        return r

    return norm


class Vocab:
    def __init__(self, first_id):
        self.ids = {}
        self.next = first_id

    def __call__(self, w):
        i = self.ids.get(w)
        if i is None:
            i = self.ids[w] = self.next
            self.next += 1
        return i


# ---------------------------------------------------------------- da.h
def feature(i, j, m, n):
    # i = target position, j = source position, m = target length, n = source length
    return -abs(j / n - i / m)


def unnormalized_prob(i, j, m, n, lam):
    return math.exp(feature(i, j, m, n) * lam)


def compute_z(i, m, n, lam):
    split = float(i) * n / m
    fl = int(split)
    ce = fl + 1
    ratio = math.exp(-lam / n)
    num_top = (n - fl) & U32
    ezt = ezb = 0.0
    if num_top:
        ezt = unnormalized_prob(i, ce, m, n, lam) * (1.0 - ratio ** num_top) / (1.0 - ratio)
    if fl:
        ezb = unnormalized_prob(i, fl, m, n, lam) * (1.0 - ratio ** fl) / (1.0 - ratio)
    return ezb + ezt


def _ags(a_1, g_1, r, d, n):
    # arithmetico_geometric_series exactly as in da.h
    g_np1 = g_1 * r ** n
    a_n = d * (n - 1) + a_1
    x_1 = a_1 * g_1
    g_2 = g_1 * r
    rm1 = r - 1
    return (a_n * g_np1 - x_1) / rm1 - d * (g_np1 - g_2) / (rm1 * rm1)


def compute_dlogz_fast_align(i, m, n, lam):
    """da.h ComputeDLogZ, verbatim (including ComputeZ(i, n, m, ...))."""
    z = compute_z(i, n, m, lam)
    split = float(i) * n / m
    fl = int(split)
    ce = fl + 1
    ratio = math.exp(-lam / n)
    d = -1.0 / n
    num_top = (n - fl) & U32
    pct = pcb = 0.0
    if num_top:
        pct = _ags(feature(i, ce, m, n), unnormalized_prob(i, ce, m, n, lam), ratio, d, num_top)
    if fl:
        pcb = _ags(feature(i, fl, m, n), unnormalized_prob(i, fl, m, n, lam), ratio, d, fl)
    return (pct + pcb) / z


def compute_dlogz_exact(i, m, n, lam):
    """E[feature] under the normalised diagonal prior, summed directly."""
    z = 0.0
    e = 0.0
    for j in range(1, n + 1):
        ft = feature(i, j, m, n)
        u = math.exp(ft * lam)
        z += u
        e += u * ft
    return e / z


# ---------------------------------------------------------------- ttables.h
def digamma(x):
    """Md::digamma from fast_align's ttables.h."""
    result = 0.0
    while x < 7:
        result -= 1 / x
        x += 1
    x -= 1.0 / 2.0
    xx = 1.0 / x
    xx2 = xx * xx
    xx4 = xx2 * xx2
    result += (math.log(x) + (1. / 24.) * xx2 - (7.0 / 960.0) * xx4
               + (31.0 / 8064.0) * xx4 * xx2 - (127.0 / 30720.0) * xx4 * xx4)
    return result


def normalize_vb(counts, n_src, alpha):
    """counts: list over target words f of {e: c(e, f)}. Returns t as the same layout."""
    tot = [0.0] * n_src
    for cf in counts:
        for e, c in cf.items():
            tot[e] += c + alpha
    dg_tot = [digamma(t) if t else digamma(1.0) for t in tot]
    exp = math.exp
    dg = digamma
    return [{e: exp(dg(c + alpha) - dg_tot[e]) for e, c in cf.items()} for cf in counts]


def normalize_ml(counts, n_src):
    tot = [0.0] * n_src
    for cf in counts:
        for e, c in cf.items():
            tot[e] += c
    tot = [t if t else 1.0 for t in tot]
    return [{e: c / tot[e] for e, c in cf.items()} for cf in counts]


# ---------------------------------------------------------------- fast_align.cc
class FastAlign:
    """One direction. Source ids are 1..n_src-1 (0 = NULL), target ids are 0..n_trg-1."""

    def __init__(self, sents, n_src, n_trg, iterations=5, p0=P0_DEFAULT,
                 tension=TENSION_DEFAULT, tension_mode="fast_align",
                 alpha=ALPHA_DEFAULT, variational_bayes=True, name="", log=sys.stderr):
        self.sents = sents  # list of (src_ids tuple, trg_ids tuple)
        self.n_src = n_src
        self.n_trg = n_trg
        self.iterations = iterations
        self.p0 = p0
        self.tension = tension
        self.tension_mode = tension_mode
        self.alpha = alpha
        self.vb = variational_bayes
        self.name = name
        self.log = log
        self.t = None  # None = uninitialised (every prob is 1e-9)
        self._prior_cache = {}
        self._prior_tension = None
        size_counts = {}
        toks = 0
        for src, trg in sents:
            k = (len(trg), len(src))
            size_counts[k] = size_counts.get(k, 0) + 1
            toks += len(trg)
        self.size_counts = size_counts
        self.toks = toks

    def _msg(self, s):
        print("[%s] %s" % (self.name, s), file=self.log, flush=True)

    # prior rows for a (m, n) shape at the current tension:
    # (list over j of [p(a_j=i) for i=1..n], list over j of [feature for emp_feat])
    def _prior(self, m, n):
        if self._prior_tension != self.tension:
            self._prior_cache = {}
            self._prior_tension = self.tension
        ent = self._prior_cache.get((m, n))
        if ent is None:
            lam = self.tension
            not_null = 1.0 - self.p0
            rows, feats = [], []
            for j in range(m):
                az = compute_z(j + 1, m, n, lam) / not_null
                rows.append([unnormalized_prob(j + 1, i, m, n, lam) / az for i in range(1, n + 1)])
                # fast_align.cc: Feature(j, i, ...) with the 0-based j
                jf = j if self.tension_mode == "fast_align" else j + 1
                feats.append([feature(jf, i, m, n) for i in range(1, n + 1)])
            ent = (rows, feats)
            self._prior_cache[(m, n)] = ent
        return ent

    def _estep(self, want_feat):
        t = self.t
        p0 = self.p0
        log = math.log
        prior = self._prior
        if t is None:
            counts = [dict() for _ in range(self.n_trg)]
        else:
            counts = [dict.fromkeys(tf, 0.0) for tf in t]
        ll = 0.0
        c0 = 0.0
        emp = 0.0
        for src, trg in self.sents:
            rows, feats = prior(len(trg), len(src))
            for f, row, frow in zip(trg, rows, feats):
                cf = counts[f]
                if t is None:
                    ps = [UNINIT_PROB * a for a in row]
                    p_null = UNINIT_PROB * p0
                    s = sum(ps, p_null)
                    c = p_null / s
                    c0 += c
                    cf[0] = cf.get(0, 0.0) + c
                    for e, p in zip(src, ps):
                        cf[e] = cf.get(e, 0.0) + p / s
                else:
                    tf = t[f]
                    ps = [tf[e] * a for e, a in zip(src, row)]
                    p_null = tf[0] * p0
                    s = sum(ps, p_null)
                    c = p_null / s
                    c0 += c
                    cf[0] += c
                    for e, p in zip(src, ps):
                        cf[e] += p / s
                if want_feat:
                    emp += sum(map(mul, ps, frow)) / s
                ll += log(s)
        return counts, ll, c0, emp

    def _optimize_tension(self, emp_feat):
        if self.tension_mode == "fast_align":
            dlogz = compute_dlogz_fast_align
        else:
            dlogz = compute_dlogz_exact
        for ii in range(8):
            mod_feat = 0.0
            for (m, n), cnt in self.size_counts.items():
                for j in range(1, m + 1):
                    mod_feat += cnt * dlogz(j, m, n, self.tension)
            mod_feat /= self.toks
            self._msg("  %d  model al-feat: %.6f (tension=%.6f)" % (ii + 1, mod_feat, self.tension))
            self.tension += (emp_feat - mod_feat) * 20.0
            if self.tension <= 0.1:
                self.tension = 0.1
            if self.tension > 14:
                self.tension = 14.0
        self._msg("     final tension: %.6f" % self.tension)

    def train(self):
        """Run iterations 1..I-1 (the E/M updates); iteration I is align()."""
        optimize = self.tension_mode in ("fast_align", "corrected")
        for it in range(self.iterations - 1):
            t0 = time.time()
            want_feat = optimize and it > 0
            counts, ll, c0, emp = self._estep(want_feat)
            emp /= self.toks
            self._msg("ITERATION %d: log_e likelihood %.2f, posterior p0 %.4f%s (%.1fs E-step)"
                      % (it + 1, ll, c0 / self.toks,
                         (", posterior al-feat %.6f" % emp) if want_feat else "",
                         time.time() - t0))
            if want_feat:
                self._optimize_tension(emp)
            t1 = time.time()
            if self.vb:
                self.t = normalize_vb(counts, self.n_src, self.alpha)
            else:
                self.t = normalize_ml(counts, self.n_src)
            del counts
            self._msg("  normalised in %.1fs" % (time.time() - t1))

    def align(self, sent):
        """Viterbi alignment of one (src, trg) pair: list of (src_pos, trg_pos), 0-based."""
        src, trg = sent
        rows, _ = self._prior(len(trg), len(src))
        t = self.t
        links = []
        for j, (f, row) in enumerate(zip(trg, rows)):
            if t is None:
                ps = [UNINIT_PROB * a for a in row]
                best_p = UNINIT_PROB * self.p0
            else:
                tf = t[f]
                ps = [tf[e] * a for e, a in zip(src, row)]
                best_p = tf[0] * self.p0
            best = 0
            for i, p in enumerate(ps, 1):
                if p > best_p:
                    best = i
                    best_p = p
            if best > 0:
                links.append((best - 1, j))
        return links


# ---------------------------------------------------------------- atools.cc
# grow-diag-final-and is the package's (python/alignscope/links.py, standard library only): the
# guided-alignment models are trained on links joined by that same code.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
from alignscope.links import grow_diag_final_and  # noqa: E402


def pharaoh(links):
    return " ".join("%d-%d" % ij for ij in sorted(links))


# ---------------------------------------------------------------- main
def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--train", required=True, help="English<TAB>French training pairs")
    ap.add_argument("--test", required=True, help="English<TAB>French pairs to align")
    ap.add_argument("--out", required=True, help="grow-diag-final-and Pharaoh links")
    ap.add_argument("--iterations", type=int, default=5, help="fast_align -I (default 5)")
    ap.add_argument("--exclude-test", action=argparse.BooleanOptionalAction, default=True,
                    help="drop TRAIN lines equal to a test pair before appending the test "
                         "set once (default on)")
    ap.add_argument("--both-out-prefix", default=None,
                    help="also write PREFIX.forward.txt, PREFIX.reverse.txt, PREFIX.intersect.txt")
    ap.add_argument("--p0", type=float, default=P0_DEFAULT)
    ap.add_argument("--alpha", type=float, default=ALPHA_DEFAULT)
    ap.add_argument("--tension", type=float, default=TENSION_DEFAULT, help="initial lambda")
    ap.add_argument("--tension-mode", choices=("fast_align", "corrected", "fixed"),
                    default="fast_align")
    ap.add_argument("--no-vb", action="store_true", help="plain EM instead of -v")
    args = ap.parse_args(argv)
    if args.iterations < 1:
        ap.error("--iterations must be >= 1")

    t_start = time.time()
    norm = make_normaliser()
    train, bad_tr = read_tsv(args.train)
    test, bad_te = read_tsv(args.test)
    if bad_te:
        sys.exit("malformed lines in %s: %d" % (args.test, bad_te))
    n_dup = 0
    if args.exclude_test:
        test_set = set(test)
        kept = [p for p in train if p not in test_set]
        n_dup = len(train) - len(kept)
        train = kept
    # fast_align is unsupervised: train on TRAIN + TEST together (standard for AER).
    corpus = train + test
    test_start = len(train)

    ev, fv = Vocab(1), Vocab(0)  # English / French ids for the forward direction
    fv_src, ev_trg = Vocab(1), Vocab(0)  # French / English ids for the reverse direction
    fwd_sents, rev_sents = [], []
    test_idx = []  # index into fwd_sents/rev_sents for each test pair (None if empty side)
    skipped = 0
    for k, (en, fr) in enumerate(corpus):
        ew = [norm(w) for w in en.split()]
        fw = [norm(w) for w in fr.split()]
        if not ew or not fw:
            if k >= test_start:
                test_idx.append(None)
            skipped += 1
            continue
        if k >= test_start:
            test_idx.append(len(fwd_sents))
        fwd_sents.append((tuple(ev(w) for w in ew), tuple(fv(w) for w in fw)))
        rev_sents.append((tuple(fv_src(w) for w in fw), tuple(ev_trg(w) for w in ew)))
    print("train %d pairs (%d malformed lines, %d duplicates of test pairs removed), "
          "test %d pairs, corpus %d pairs (%d skipped: empty side); "
          "vocab en %d fr %d; read in %.1fs"
          % (len(train), bad_tr, n_dup, len(test), len(fwd_sents), skipped,
             ev.next - 1, fv.next, time.time() - t_start), file=sys.stderr, flush=True)

    kw = dict(iterations=args.iterations, p0=args.p0, tension=args.tension,
              tension_mode=args.tension_mode, alpha=args.alpha,
              variational_bayes=not args.no_vb)
    results = {}
    for name, sents, n_src, n_trg in (("forward", fwd_sents, ev.next, fv.next),
                                      ("reverse", rev_sents, fv_src.next, ev_trg.next)):
        t0 = time.time()
        model = FastAlign(sents, n_src, n_trg, name=name, **kw)
        model.train()
        out = []
        for idx in test_idx:
            if idx is None:
                out.append(set())
                continue
            links = model.align(sents[idx])
            if name == "reverse":  # src = French, trg = English: flip to English-first
                links = [(j, i) for i, j in links]
            out.append(set(links))
        results[name] = out
        print("[%s] done in %.1fs (final tension %.4f)" % (name, time.time() - t0, model.tension),
              file=sys.stderr, flush=True)
        del model

    gdfa = [grow_diag_final_and(f, r) for f, r in zip(results["forward"], results["reverse"])]
    with open(args.out, "w", encoding="utf-8") as fh:
        for links in gdfa:
            fh.write(pharaoh(links) + "\n")
    if args.both_out_prefix:
        for suffix, rows in (("forward", results["forward"]), ("reverse", results["reverse"]),
                             ("intersect", [f & r for f, r in zip(results["forward"],
                                                                  results["reverse"])])):
            with open("%s.%s.txt" % (args.both_out_prefix, suffix), "w", encoding="utf-8") as fh:
                for links in rows:
                    fh.write(pharaoh(links) + "\n")
    print("total time %.1fs" % (time.time() - t_start), file=sys.stderr, flush=True)


if __name__ == "__main__":
    main()
