#!/usr/bin/env bash
# Installs the Debian 12 packages AlignScope builds and runs with, when any is missing.
# As root it runs apt-get itself; otherwise it prints the exact command and stops.
set -euo pipefail

packages=(
  cmake g++ make ninja-build pkg-config
  qt6-base-dev qt6-svg-dev qt6-l10n-tools qt6-translations-l10n libqcustomplot-dev libpng-dev libgif-dev
  libtorch-dev libopenblas0-pthread
  libgtest-dev libbenchmark-dev libcli11-dev nlohmann-json3-dev libutf8proc-dev libre2-dev libsentencepiece-dev zlib1g-dev libssl-dev
  fonts-dejavu-core fonts-symbola fonts-noto-cjk
)
if [[ "${1:-}" == "--with-test-tools" ]]; then
  # PyTorch parity test and the Python package's tests (pytest; h5py and sentencepiece for the
  # adapters' tests); a real X server with a window manager for GUI checks (Xvfb, openbox, xdotool); clang and libFuzzer for the fuzz targets;
  # the install tests (tests/install): pip into a venv offline, the .deb's dependencies
  # (dpkg-shlibdeps), the desktop entry's and metainfo's validators; the web page's tests in headless
  # Chromium through chromedriver, its data against the schema, its heatmap against the PNG figure;
  # a real notebook run (`jupyter nbconvert --execute` with a Python kernel); clang-format for the
  # C++ layout; onnx to check the live page's exported graphs, node and npm to check them and to fetch
  # the page's pinned runtime and tokenizer (scripts/fetch_onnxruntime_web.sh; docs/live-page.md)
  packages+=(python3-torch python3-pytest python3-h5py python3-sentencepiece xvfb xauth clang-14 libfuzzer-14-dev
    python3-venv python3-pip python3-setuptools python3-wheel dpkg-dev desktop-file-utils appstream
    chromium chromium-driver openbox xdotool python3-jsonschema python3-pil python3-nbconvert jupyter-nbconvert python3-ipykernel clang-format
    python3-onnx)
  # Node and npm from Debian where no other install provides them (a nodejs built elsewhere carries
  # its own npm, and Debian's npm package would conflict with it)
  command -v node >/dev/null || packages+=(nodejs)
  command -v npm >/dev/null || packages+=(npm)
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]} == 0)); then
  exit 0
fi
if [[ $(id -u) -ne 0 ]]; then
  echo "AlignScope needs these Debian packages: ${missing[*]}" >&2
  echo "Install them with:" >&2
  echo "  sudo apt-get update && sudo apt-get install -y ${missing[*]}" >&2
  exit 1
fi
echo "Installing: ${missing[*]}"
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"
