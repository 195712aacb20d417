#!/usr/bin/env bash
# Installs what notiplay needs to build and test on Debian/Ubuntu, if it is missing:
# libmpv-dev (and pkg-config). Uses apt-get as root, or through sudo.
set -euo pipefail
if pkg-config --exists mpv 2>/dev/null; then
  exit 0
fi
if ! command -v apt-get >/dev/null; then
  echo "notiplay needs libmpv (pkg-config mpv); install it with your package manager." >&2
  exit 69
fi
as_root=()
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "libmpv-dev is missing: run this as root or install sudo." >&2; exit 69; }
  as_root=(sudo)
fi
echo "Installing libmpv-dev (about 160 MB, 30 s)…" >&2
"${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq
"${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends libmpv-dev pkg-config >/dev/null
pkg-config --exists mpv
