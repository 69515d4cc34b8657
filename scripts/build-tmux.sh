#!/usr/bin/env bash
# Builds a tmux from Debian's own source package into a cache folder, so the suite can run against
# the tmux other Debian releases ship (Debian 13 "trixie" ships 3.5a) beside the one installed here.
#
#   scripts/build-tmux.sh [VERSION] [CACHE]     VERSION: Debian's package version (default 3.5a-3)
#                                              CACHE:   default ${XDG_CACHE_HOME:-~/.cache}/tmux-mcp-ts
# Prints the folder holding the built `tmux` on its last line; a build already in the cache is reused.
# Run the suite against it:  PATH="$(scripts/build-tmux.sh | tail -n 1):$PATH" npm test
# Needs root (or sudo) once, for apt: a deb-src entry for the suite that carries VERSION, and the build
# dependencies (libevent-dev libncurses-dev bison pkg-config build-essential).
set -euo pipefail

version=${1:-3.5a-3}
cache=${2:-${XDG_CACHE_HOME:-$HOME/.cache}/tmux-mcp-ts}
upstream=${version%%-*}
prefix="$cache/tmux-$upstream"
if [ -x "$prefix/bin/tmux" ] && [ "$("$prefix/bin/tmux" -V)" = "tmux $upstream" ]; then
  echo "$prefix/bin"
  exit 0
fi

# The Debian suite whose archive carries the source version asked for.
case "$upstream" in
  3.5a) suite=trixie ;;
  3.3a) suite=bookworm ;;
  3.1c) suite=bullseye ;;
  *) echo "build-tmux: no Debian suite known for tmux $upstream; add it here" >&2; exit 2 ;;
esac

sudo=()
[ "$(id -u)" = 0 ] || sudo=(sudo)
list=/etc/apt/sources.list.d/tmux-mcp-src-$suite.sources
if [ ! -f "$list" ]; then
  "${sudo[@]}" tee "$list" >/dev/null <<EOF
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: $suite
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
fi
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -qq
need=()
for pkg in libevent-dev libncurses-dev bison pkg-config build-essential dpkg-dev; do
  dpkg -s "$pkg" >/dev/null 2>&1 || need+=("$pkg")
done
[ ${#need[@]} -eq 0 ] || "${sudo[@]}" apt-get install -y -qq "${need[@]}" >&2

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(
  cd "$work"
  apt-get source -qq --download-only "tmux=$version" >&2
  dpkg-source -x --skip-patches tmux_"$version".dsc src >&2
  cd src
  # Debian's own patches, as its package builds them.
  if [ -f debian/patches/series ]; then
    while read -r patch; do
      case "$patch" in ''|'#'*) continue ;; esac
      patch -p1 -s < "debian/patches/$patch" >&2
    done < debian/patches/series
  fi
  [ -x configure ] || sh autogen.sh >&2
  ./configure --prefix="$prefix" --quiet >&2
  make -s -j"$(nproc)" >&2
  make -s install >&2
)
"$prefix/bin/tmux" -V >&2
echo "$prefix/bin"
