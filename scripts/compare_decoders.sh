#!/usr/bin/env bash
# The controlled comparison of docs/alignment.md ("Decoders"): Bahdanau's decoder against the
# conditional one, at one small size, on the same data, links, seed and number of updates, with and
# without guided alignment; on the CPU (about 40 minutes for a pair on 2 cores, two at once).
#
#   bash scripts/compare_decoders.sh [--out DIR] [--epochs 6 | --steps N] [--unguided]
#
# 1. The Tatoeba training split (scripts/make_en_fr_corpus.sh; its test split is not trained on) and
#    its fast_align links (`python3 -m alignscope guide`, 30 % of lines lower-cased and tokenised).
# 2. alignscope-cli train, the default model's pieces, embedding 128, encoder 128 per direction,
#    decoder 256: exp-guided-{bahdanau,conditional}.pt (weight 1), with --unguided also
#    exp-plain-{bahdanau,conditional}.pt, and the latter stored as float16 as en-fr-tatoeba-conditional.pt
#    (the file models/ ships for lesson 6).
# 3. AER of each model's attention on the Tatoeba pairs of both gold halves (scripts/alignment_table.sh,
#    GOLD_CORPUS=tatoeba) and cased BLEU (beam 5) on the Tatoeba test split.
set -euo pipefail
cd "$(dirname "$0")/.."
out=work/decoders length=(--epochs 6) unguided=0 corpus=work/en-fr-corpus
while (($#)); do
  case "$1" in
    --out) out=$2; shift 2 ;;
    --epochs) length=(--epochs "$2"); shift 2 ;;
    --steps) length=(--steps "$2"); shift 2 ;;
    --unguided) unguided=1; shift ;;
    *) echo "compare_decoders.sh: unknown option '$1'" >&2; exit 2 ;;
  esac
done
cli=${ALIGNSCOPE_CLI:-build/app/alignscope-cli}
py=${PYTHON:-python3}
export PYTHONPATH=$PWD/python${PYTHONPATH:+:$PYTHONPATH}
mkdir -p "$out"
[[ -f "$corpus/tatoeba-train.tsv" ]] || bash scripts/make_en_fr_corpus.sh "$corpus"
if [[ ! -f "$out/tatoeba.guided.links" ]]; then
  "$py" -m alignscope guide --data "$corpus/tatoeba-train.tsv" --out-corpus "$out/tatoeba.guided.tsv" \
    --out-links "$out/tatoeba.guided.links" --source-language en --target-language fr --tokenized-share 0.3 \
    --seed 1 --device cpu --processes "$(nproc)"
fi
train() {  # NAME DECODER [ARGS...]
  local name=$1 decoder=$2; shift 2
  "$cli" train --corpus "$out/tatoeba.guided.tsv" --out "$out/$name.pt" --tokenizer-from models/en-fr-subword.pt \
    --decoder "$decoder" --embedding 128 --encoder-hidden 128 --decoder-hidden 256 --attention-size 128 --readout 128 \
    --batch 64 --lr 1e-3 "${length[@]}" --seed 1 --train-threads 1 --valid-fraction 0.01 --test-fraction 0 \
    --dropout 0.2 --label-smoothing 0.1 --max-len 60 --clip 1 --valid-bleu 0 --no-progress \
    --corpus-name "Tatoeba English-French (manythings.org fra-eng, 2019-04-07), the training split of scripts/make_en_fr_corpus.sh, 30 % of lines lower-cased and tokenised (python3 -m alignscope guide)" \
    --corpus-licence "Tatoeba: CC BY 2.0 FR; Sentence pairs from the Tatoeba Project (tatoeba.org), via www.manythings.org/anki" \
    "$@" >"$out/$name.log" 2>&1
}
names=()
for decoder in bahdanau conditional; do
  train "exp-guided-$decoder" "$decoder" --guided-alignment "$out/tatoeba.guided.links" --guided-weight 1 &
  names+=("exp-guided-$decoder")
done
wait
if ((unguided)); then
  for decoder in bahdanau conditional; do train "exp-plain-$decoder" "$decoder" & names+=("exp-plain-$decoder"); done
  wait
fi
if ((unguided)); then  # models/en-fr-tatoeba-conditional.pt (lesson 6): the unguided conditional model, float16
  "$py" - "$out/exp-plain-conditional.pt" "$out/en-fr-tatoeba-conditional.pt" <<'PY'
import sys
import alignscope
model, sv, tv, info = alignscope.load(sys.argv[1])
meta = {k: v for k, v in info["metadata"].items() if k not in ("architecture", "created_by", "stored_dtype")}
meta["name"] = "en-fr-tatoeba-conditional"
meta["float16_from"] = ("alignscope-cli train's float32 file, stored as float16 by alignscope.export(half=True) "
                        "(scripts/compare_decoders.sh)")
alignscope.export(model.eval(), sv, tv, sys.argv[2], name=meta["name"], metadata=meta,
                  src_tokenizer=info["src_tokenizer"], tgt_tokenizer=info["tgt_tokenizer"], half=True)
PY
fi
triples=()
for name in "${names[@]}"; do triples+=("$out/$name.pt" attention argmax "$out/$name.pt" attention itermax); done
for half in dev test; do
  echo "## $half half, Tatoeba pairs"
  GOLD_CORPUS=tatoeba bash scripts/alignment_table.sh "$half" "${triples[@]}"
done
echo "## Tatoeba test split, cased BLEU, beam 5"
for name in "${names[@]}"; do
  printf '%s: ' "$name"
  "$cli" evaluate -m "$out/$name.pt" --test "$corpus/tatoeba-test.tsv" --beam 5 --tokenize 13a --no-progress \
    --json "$out/$name.bleu.json" | awk '$1 == "beam" { print $3 }'
done
