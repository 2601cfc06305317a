#!/bin/bash
# Fetches the pinned onnxruntime-web (npm) into build/onnxruntime-web/: the live page's runtime
# (issue 57, docs/live-page.md). Not vendored: its one WebAssembly build is 14 MB (3.7 MB gzipped),
# a binary the repository would carry again at every version bump. The npm tarball is checked
# against the registry's integrity hash pinned here, so a changed package is refused.
#   bash scripts/fetch_onnxruntime_web.sh [DEST]      (default: build/onnxruntime-web)
set -euo pipefail
VERSION=1.30.0
INTEGRITY="sha512-q0y+JrrtukXSzsBWEMccVfqX25LRmosXHF+CaRJmg8pZClzcV7svNc4rKY3jL02Vb7QmRMDs1SigqR4CXAfKYQ=="
ROOT=$(cd "$(dirname "$0")/.." && pwd)
DEST=${1:-$ROOT/build/onnxruntime-web}
command -v npm >/dev/null || { echo "npm is not installed (Debian: apt-get install npm)" >&2; exit 2; }
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
(cd "$TMP" && npm pack --silent "onnxruntime-web@$VERSION" >/dev/null)
TGZ="$TMP/onnxruntime-web-$VERSION.tgz"
GOT="sha512-$(openssl dgst -sha512 -binary "$TGZ" | base64 -w0)"
[ "$GOT" = "$INTEGRITY" ] || { echo "onnxruntime-web-$VERSION.tgz: integrity $GOT, expected $INTEGRITY" >&2; exit 1; }
tar -xzf "$TGZ" -C "$TMP" package/package.json package/README.md \
    package/dist/ort.wasm.bundle.min.mjs package/dist/ort-wasm-simd-threaded.wasm
mkdir -p "$DEST"
# The bundle (JS API with Emscripten's loader inside, 73 kB) and the single WebAssembly build that
# runs with one thread (the only one 1.30 ships without JSEP/WebGPU or JSPI)
cp "$TMP"/package/package.json "$TMP"/package/dist/{ort.wasm.bundle.min.mjs,ort-wasm-simd-threaded.wasm} "$DEST/"
echo "$VERSION" > "$DEST/VERSION"
echo "onnxruntime-web $VERSION in $DEST"
