#!/usr/bin/env bash
# Installs what notiplay needs to build and test on Debian/Ubuntu, if it is missing:
# libmpv-dev (and pkg-config), and libsqlite3-dev (GRDB, the center's store, builds against the
# system SQLite). Uses apt-get as root, or through sudo.
set -euo pipefail
missing=()
pkg-config --exists mpv 2>/dev/null || missing+=(libmpv-dev pkg-config)
pkg-config --exists sqlite3 2>/dev/null || missing+=(libsqlite3-dev)
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
if ! command -v apt-get >/dev/null; then
  echo "notiplay needs libmpv (pkg-config mpv) and SQLite's headers (pkg-config sqlite3); install ${missing[*]} with your package manager." >&2
  exit 69
fi
as_root=()
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "${missing[*]} missing: run this as root or install sudo." >&2; exit 69; }
  as_root=(sudo)
fi
case " ${missing[*]} " in
  *" libmpv-dev "*) echo "Installing ${missing[*]} (libmpv-dev is about 160 MB, 30 s)…" >&2 ;;
  *) echo "Installing ${missing[*]} (about 1 MB)…" >&2 ;;
esac
"${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq
"${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
pkg-config --exists mpv && pkg-config --exists sqlite3
