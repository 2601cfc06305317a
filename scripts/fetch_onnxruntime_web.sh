#!/bin/bash
# Fetches the live page's pinned npm packages into build/ (issue 57, docs/live-page.md); idempotent:
# a package whose folder already holds this version's files (its STAMP names version and hash) is
# not fetched again, so scripts/test.sh calls it on every run. Not vendored: onnxruntime-web's one
# WebAssembly build is 14 MB (3.7 MB gzipped), a binary the repository would carry again at every
# version bump. Each npm tarball is checked against the registry's integrity hash pinned here, so a
# changed package is refused. A failed fetch fails (exit 1) saying what to do; nothing is skipped.
#   bash scripts/fetch_onnxruntime_web.sh [BUILD_DIR]      (default: build)
#     onnxruntime-web -> BUILD_DIR/onnxruntime-web, @sctg/sentencepiece-js -> BUILD_DIR/sentencepiece-js
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${1:-$ROOT/build}

fail() { echo "fetch_onnxruntime_web.sh: $*" >&2; exit 1; }

# fetch NAME VERSION INTEGRITY DEST FILE... : FILEs are paths inside the tarball's package/, copied flat
fetch() {
  local name=$1 version=$2 integrity=$3 dest=$4
  shift 4
  local stamp="$name@$version $integrity" f ok=1
  if [ -f "$dest/STAMP" ] && [ "$(cat "$dest/STAMP")" = "$stamp" ]; then
    for f in "$@"; do [ -f "$dest/$(basename "$f")" ] || ok=0; done
    [ $ok = 1 ] && return 0
  fi
  command -v npm >/dev/null || fail "npm is not installed (Debian: apt-get install npm); the live page needs $name@$version"
  local tmp
  tmp=$(mktemp -d)
  # shellcheck disable=SC2064
  trap "rm -rf '$tmp'" RETURN
  (cd "$tmp" && npm pack --loglevel=error "$name@$version" >"$tmp/packed" 2>"$tmp/npm.err") \
    || fail "npm pack $name@$version failed (is the npm registry reachable?): $(tail -c 600 "$tmp/npm.err")"
  local tgz="$tmp/$(tail -n1 "$tmp/packed")"
  [ -f "$tgz" ] || fail "npm pack $name@$version wrote no tarball"
  local got="sha512-$(openssl dgst -sha512 -binary "$tgz" | base64 -w0)"
  [ "$got" = "$integrity" ] || fail "$(basename "$tgz"): integrity $got, expected $integrity (pinned in this script)"
  tar -xzf "$tgz" -C "$tmp" $(printf 'package/%s ' "$@") || fail "$(basename "$tgz") lacks one of: $*"
  mkdir -p "$dest"
  for f in "$@"; do cp "$tmp/package/$f" "$dest/"; done
  echo "$version" > "$dest/VERSION"
  echo "$stamp" > "$dest/STAMP"
  echo "$name $version in $dest"
}

# The bundle (JS API with Emscripten's loader inside, 73 kB) and the single WebAssembly build that
# runs with one thread (the only one 1.30 ships without JSEP/WebGPU or JSPI)
fetch onnxruntime-web 1.30.0 \
  "sha512-q0y+JrrtukXSzsBWEMccVfqX25LRmosXHF+CaRJmg8pZClzcV7svNc4rKY3jL02Vb7QmRMDs1SigqR4CXAfKYQ==" \
  "$BUILD/onnxruntime-web" package.json README.md dist/ort.wasm.bundle.min.mjs dist/ort-wasm-simd-threaded.wasm

# SentencePiece itself (its C++ compiled to WebAssembly, inlined in the module) for the page's
# tokenizer: the .model bytes are handed over in memory; alignscope.live_page makes it a classic
# script without the demo models it carries, and without eval (the page's CSP has no 'unsafe-eval')
fetch @sctg/sentencepiece-js 1.3.3 \
  "sha512-iPnzR2HGjdQQG2SpTyPH3wnnpgQ2aS14B3I2jHjomkoaMprM3Sn+WOQblHwByetnvn3n14y3IwjwogVUHA2cVA==" \
  "$BUILD/sentencepiece-js" package.json LICENSE dist/index.js
