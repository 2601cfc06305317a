#!/usr/bin/env bash
# The recipe of en-fr-subword-guided (issue 36): the guided conditional model trained on toward the
# links of AlignScope's own best aligner (scripts/make_self_guided_corpus.sh: attention x occlusion of
# the default pair, agreement-intersection) instead of fast_align's. Short: a few passes over a
# sample of 16,000 pairs (about 410,000 target pieces a pass; a GPU does one in seconds, one CPU
# thread here at about 1,800 pieces/s in 4 minutes); the translation loss trains on as before.
#
#   bash scripts/train_self_guided.sh [--device cpu|cuda] [--epochs E | --steps N] [--minutes M] [--guided-weight W] [--lr LR]
#                                     [--init-from MODEL] [--reverse] [--self DIR] [--out DIR]
#
# Writes OUT/en-fr-subword-guided.pt (float16) and a checkpoint every --checkpoint-every updates in
# OUT/NAME.ckpt (resumable: a second call continues from the newest). --init-from: by default the guided
# model scripts/train_conditional.sh writes (the previous en-fr-subword-guided). --reverse: French ->
# English on the same pairs and links reversed (fr-en-subword-guided.pt; give --init-from).
set -euo pipefail
cd "$(dirname "$0")/.."
device=cpu epochs=8 weight=3 lr=3e-4 steps="" minutes="" init=work/guided/en-fr-subword-conditional.pt self=work/self out=work/self-guided every=100 reverse=0
while (($#)); do
  case "$1" in
    --device) device=$2; shift 2 ;;
    --epochs) epochs=$2; shift 2 ;;
    --guided-weight) weight=$2; shift 2 ;;
    --lr) lr=$2; shift 2 ;;
    --minutes) minutes=$2; shift 2 ;;
    --steps) steps=$2; shift 2 ;;
    --init-from) init=$2; shift 2 ;;
    --self) self=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --reverse) reverse=1; shift ;;
    --checkpoint-every) every=$2; shift 2 ;;
    *) echo "train_self_guided.sh: unknown option '$1'" >&2; exit 2 ;;
  esac
done
[[ -f "$self/self.links" ]] || { echo "train_self_guided.sh: no links in '$self' (bash scripts/make_self_guided_corpus.sh --mix FILE --out $self)" >&2; exit 2; }
py=${PYTHON:-python3}
export PYTHONPATH=$PWD/python${PYTHONPATH:+:$PYTHONPATH}
mkdir -p "$out"
name=en-fr-subword-guided data=$self/self.tsv links=$self/self.links
if ((reverse)); then
  name=fr-en-subword-guided data=$out/self.fr-en.tsv links=$out/self.fr-en.links
  bash scripts/reverse_pairs.sh "$self/self.tsv" "$self/self.links" "$data" "$links"
fi
length=(--epochs "$epochs")
[[ -n "$steps" ]] && length=(--steps "$steps")  # a run's updates again, in the same data order
[[ -n "$minutes" ]] && length+=(--max-minutes "$minutes")
"$py" -m alignscope train --device "$device" --batch-tokens 4000 --max-len 60 --dropout 0.2 --smoothing 0.1 \
  --clip 1.0 --lr "$lr" --seed 3 --log-every 50 --half "${length[@]}" \
  --name "$name" --out "$out/$name.pt" --data "$data" \
  --init-from "$init" --decoder conditional --guided-alignment "$links" --guided-weight "$weight" \
  --checkpoint-dir "$out/$name.ckpt" --checkpoint-every "$every" --keep-checkpoints 0 --resume
