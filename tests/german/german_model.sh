#!/usr/bin/env bash
# CTest entry german_model (issue 49): nothing in the code path assumes French. Trains a tiny
# English->German model and its German->English reverse on a few German sentences that reorder
# (verb-final clauses, participles, separable verbs, compounds), declares the reverse in the
# metadata, and runs every command of alignscope-cli on them and the app's screenshot mode: each
# must succeed, name the languages where it names any, and split no German word at an apostrophe.
#
#   german_model.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build=$(realpath "$1") source=$(realpath "$2")
cli=$build/app/alignscope-cli gui=$build/app/alignscope
fail() { echo "german_model.sh: $*" >&2; exit 1; }
work=$(mktemp -d -t alignscope-german.XXXXXX)
trap 'rm -rf "$work"' EXIT
cd "$work"
export QT_QPA_PLATFORM=offscreen

# The pairs ten times over (a training corpus), and reversed for the German -> English model.
for _ in $(seq 10); do cat "$source/tests/german/pairs.tsv"; done >corpus.tsv
awk -F'\t' '{print $2 "\t" $1}' corpus.tsv >corpus.de-en.tsv
tiny=(--decoder conditional --embedding 16 --encoder-hidden 16 --decoder-hidden 16 --attention-size 16 --readout 16
      --batch 16 --steps 400 --train-threads 1 --valid-fraction 0 --valid-bleu 0 --no-progress)
"$cli" train --corpus corpus.tsv -o en-de.pt --name tiny-en-de --source-language en --target-language de \
  --tokenizer sentencepiece --vocab-size 400 --joint "${tiny[@]}" >train.log 2>&1 || { cat train.log; fail "train en-de failed"; }
# The reverse reads and writes the same joint pieces, as a declared reverse model must.
"$cli" train --corpus corpus.de-en.tsv -o de-en.pt --name tiny-de-en --source-language de --target-language en \
  --tokenizer-from en-de.pt "${tiny[@]}" >>train.log 2>&1 || { cat train.log; fail "train de-en failed"; }
"$cli" train --corpus corpus.tsv -o en-de-b.pt --name tiny-en-de-b --source-language en --target-language de --seed 7 \
  --tokenizer-from en-de.pt "${tiny[@]}" >>train.log 2>&1 || { cat train.log; fail "train of a second en-de model failed"; }
# The reverse model declared as the bundled models declare theirs.
/usr/bin/python3 "$source/scripts/model_metadata.py" en-de.pt reverse_model='"de-en.pt"' -o en-de.pt >/dev/null \
  || fail "model_metadata.py could not declare the reverse model"

"$cli" inspect --model en-de.pt >inspect.txt || fail "inspect: $(cat inspect.txt)"
grep -q "^languages: *en -> de$" inspect.txt || fail "inspect does not name the languages: $(grep -i languages inspect.txt)"
"$cli" inspect --model en-de.pt --json | grep -q '"target_language": "de"' || fail "inspect --json lacks target_language"

cut -f1 "$source/tests/german/pairs.tsv" >sources.txt
"$cli" translate --model en-de.pt -i sources.txt -o translations.txt --no-progress || fail "translate failed"
[[ $(wc -l <translations.txt) -eq $(wc -l <sources.txt) ]] || fail "translate wrote $(wc -l <translations.txt) lines"
"$cli" translate --model en-de.pt --beam 3 -i sources.txt -o beam.txt --no-progress || fail "translate --beam failed"

awk -F'\t' '{print $1 " ||| " $2}' "$source/tests/german/pairs.tsv" >pairs.txt
"$cli" align --model en-de.pt -i pairs.txt -o links.txt --no-progress || fail "align failed"
"$cli" align --model en-de.pt --links agreement-grow-diag-final-and -i pairs.txt -o agreement.txt --no-progress \
  || fail "align with the declared reverse model failed"
"$cli" align --model en-de.pt --format json -i pairs.txt -o links.json --no-progress || fail "align --format json failed"
"$cli" aer --gold links.txt --hyp agreement.txt >aer.txt || fail "aer failed: $(cat aer.txt)"
"$cli" compare --model en-de.pt --with en-de-b.pt --source "I have read the book." >compare.json || fail "compare failed"
head -5 "$source/tests/german/pairs.tsv" >test.tsv
"$cli" compare --model en-de.pt --with en-de-b.pt --test test.tsv >compare-test.txt || fail "compare --test failed"
"$cli" evaluate --model en-de.pt --test test.tsv --json evaluate.json >/dev/null || fail "evaluate failed"
"$cli" plot-bleu --eval evaluate.json -o bleu.png >/dev/null || fail "plot-bleu failed"
"$cli" trace --model en-de.pt -i pairs.txt -o trace.jsonl || fail "trace failed"
"$cli" split --corpus corpus.tsv --train-out train.tsv --test-out held.tsv 2>/dev/null || fail "split failed"
for format in png svg json csv pharaoh; do
  "$cli" export --model en-de.pt --format "$format" --no-progress -o "export-$format" -i pairs.txt || fail "export --format $format failed"
done
grep -q '"target_language": *"de"' export-json/*.json || fail "the JSON export does not name the target language"
"$cli" update-code en-de.pt -o updated.pt >/dev/null || fail "update-code failed"

# The app's screenshot mode on the model, stepping, with the encoder panel and the words view.
"$gui" --model en-de.pt --source "I know that he has read the book." --steps 4 --screenshot gui.png --size 1024x768 \
  2>gui.log || fail "alignscope --screenshot failed: $(cat gui.log)"
"$gui" --model en-de.pt --source "I'll call you tomorrow." --target "Ich rufe dich morgen an." --words \
  --screenshot words.png --size 1280x720 2>>gui.log || fail "alignscope --words --screenshot failed: $(cat gui.log)"
[[ -s gui.png && -s words.png ]] || fail "no screenshots"
echo "german_model: trained en-de and de-en, every alignscope-cli command and the app's screenshots passed"
