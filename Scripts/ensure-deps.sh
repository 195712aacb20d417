#!/usr/bin/env bash
# Installs what notiplay needs to build and test on Debian/Ubuntu, if it is missing:
# libmpv-dev (and pkg-config), libsqlite3-dev (GRDB, the center's store, builds against the
# system SQLite), libdbus-1-dev (NotiplayDBus, the freedesktop notification server) and zlib1g-dev
# (NotiplayCore's PNG decoder, for sixel terminals); and for
# the D-Bus tests, a private bus and real clients: dbus (dbus-daemon, dbus-run-session),
# libnotify-bin (notify-send) and libglib2.0-bin (gdbus). Uses apt-get as root, or through sudo.
set -euo pipefail
missing=()
pkg-config --exists mpv 2>/dev/null || missing+=(libmpv-dev pkg-config)
pkg-config --exists sqlite3 2>/dev/null || missing+=(libsqlite3-dev)
pkg-config --exists dbus-1 2>/dev/null || missing+=(libdbus-1-dev)
pkg-config --exists zlib 2>/dev/null || missing+=(zlib1g-dev)
{ command -v dbus-daemon && command -v dbus-run-session; } >/dev/null || missing+=(dbus)
command -v notify-send >/dev/null || missing+=(libnotify-bin)
command -v gdbus >/dev/null || missing+=(libglib2.0-bin)
# man (man-db): InstallTests checks the installed page with `man --warnings`; Debian's container
# images leave it out. zsh, fish, dunst and xvfb are not installed here: the tests that use them
# (completions, a real dunst keeping the bus name) say they are skipped when they are missing.
command -v man >/dev/null || missing+=(man-db)
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
if ! command -v apt-get >/dev/null; then
  echo "notiplay needs libmpv (pkg-config mpv), SQLite's and libdbus's headers (pkg-config sqlite3, dbus-1), and for its tests dbus-daemon, notify-send and gdbus; install ${missing[*]} with your package manager." >&2
  exit 69
fi
as_root=()
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "${missing[*]} missing: run this as root or install sudo." >&2; exit 69; }
  as_root=(sudo)
fi
case " ${missing[*]} " in
  *" libmpv-dev "*) echo "Installing ${missing[*]} (libmpv-dev is about 160 MB, 30 s)…" >&2 ;;
  *) echo "Installing ${missing[*]} (a few MB)…" >&2 ;;
esac
"${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq
"${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
pkg-config --exists mpv && pkg-config --exists sqlite3 && pkg-config --exists dbus-1 && pkg-config --exists zlib
command -v dbus-daemon >/dev/null && command -v dbus-run-session >/dev/null && command -v notify-send >/dev/null \
  && command -v gdbus >/dev/null && command -v man >/dev/null
