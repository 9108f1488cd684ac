#!/bin/sh
# Installs cudnn-tool's self-contained image (its own Java runtime: no Java needed) from a release:
#   curl -fsSL https://github.com/cudnn-tool/cudnn-tool/releases/latest/download/install.sh | sh
#   curl -fsSL …/install.sh | sh -s -- --version 1.0.0      (pin a release)
#   curl -fsSL …/install.sh | sh -s -- --uninstall          (remove what this script made)
# It reads SHA256SUMS from the release (or from CUDNN_TOOL_DIST_URL, a folder laid out like one
# release's download folder) to learn the file for this OS and CPU, checks its sha256 before
# unpacking, unpacks it into a versioned folder (~/.local/share/cudnn-tool/<version>, or
# /opt/cudnn-tool/<version> as root), switches the `current` link to it in one rename, and links
# `cudnn` into ~/.local/bin (/usr/local/bin as root). Re-running upgrades in place.
# CUDNN_TOOL_HOME and CUDNN_TOOL_BIN_DIR replace those two folders. POSIX sh; shellcheck-clean.
set -eu

# The repository; scripts/release-assets.sh writes the pom's cudnn.repo here.
repo=github.com/cudnn-tool/cudnn-tool

say() { printf '%s\n' "cudnn-tool install: $*"; }
die() { printf '%s\n' "cudnn-tool install: error: $1; fix: $2" >&2; exit "${3:-1}"; }

version=
uninstall=0
while [ $# -gt 0 ]; do
  case $1 in
    --version) [ $# -ge 2 ] || die "--version needs a value" "pass --version 1.0.0" 2; version=$2; shift 2 ;;
    --version=*) version=${1#--version=}; shift ;;
    --uninstall) uninstall=1; shift ;;
    -h|--help)
      printf '%s\n' "usage: install.sh [--version X.Y.Z] [--uninstall]" \
        "  env: CUDNN_TOOL_DIST_URL (a mirror folder holding SHA256SUMS and the images)," \
        "       CUDNN_TOOL_HOME (where versions go), CUDNN_TOOL_BIN_DIR (where the cudnn link goes)"
      exit 0 ;;
    *) die "unknown argument: $1" "use --version X.Y.Z, --uninstall or --help" 2 ;;
  esac
done
case $version in
  '') ;;
  v[0-9]*) version=${version#v} ;;
esac
case $version in
  *[!0-9A-Za-z.-]*) die "--version $version is not a version" "pass one such as 1.0.0" 2 ;;
esac

if [ "$(id -u)" = 0 ]; then
  home=${CUDNN_TOOL_HOME:-/opt/cudnn-tool}
  bindir=${CUDNN_TOOL_BIN_DIR:-/usr/local/bin}
else
  [ -n "${HOME:-}" ] || die "HOME is not set" "set HOME, or CUDNN_TOOL_HOME and CUDNN_TOOL_BIN_DIR"
  home=${CUDNN_TOOL_HOME:-$HOME/.local/share/cudnn-tool}
  bindir=${CUDNN_TOOL_BIN_DIR:-$HOME/.local/bin}
fi
record=$home/.install-sh   # the version folders this script made, one a line; --uninstall reads it
link=$bindir/cudnn

# The target of a link, or nothing (without readlink, nothing: --uninstall then keeps the link).
link_target() {
  if [ -L "$1" ] && command -v readlink > /dev/null 2>&1; then readlink "$1"; fi
}

if [ "$uninstall" = 1 ]; then
  [ -f "$record" ] || die "nothing to uninstall: $record is missing (install.sh made nothing in $home)" \
    "remove by hand what another tool installed"
  if [ "$(link_target "$link")" = "$home/current/bin/cudnn" ]; then rm -f "$link"; say "removed $link"; fi
  if [ -L "$home/current" ]; then rm -f "$home/current"; fi
  while IFS= read -r v; do
    case $v in ''|*/*|.|..) continue ;; esac
    if [ -d "$home/$v" ]; then rm -rf "${home:?}/$v"; say "removed $home/$v"; fi
  done < "$record"
  rm -f "$record"
  rmdir "$home" 2> /dev/null || say "kept $home (it holds files install.sh did not make)"
  say "uninstalled"
  exit 0
fi

case $(uname -s) in
  Linux) os=linux ;;
  MINGW*|MSYS*|CYGWIN*) die "this is Windows" "run install.ps1 in PowerShell: irm https://$repo/releases/latest/download/install.ps1 | iex" ;;
  *) die "no image for $(uname -s)" "build from source (see https://$repo)" ;;
esac
case $(uname -m) in
  x86_64|amd64) arch=x86_64 ;;
  aarch64|arm64) arch=aarch64 ;;
  *) die "no image for the CPU $(uname -m)" "build from source (see https://$repo)" ;;
esac

if [ -n "${CUDNN_TOOL_DIST_URL:-}" ]; then
  base=${CUDNN_TOOL_DIST_URL%/}
elif [ -n "$version" ]; then
  base=https://$repo/releases/download/v$version
else
  base=https://$repo/releases/latest/download
fi

fetch() { # URL FILE
  if command -v curl > /dev/null 2>&1; then
    curl -fsSL --proto '=https,http,file' -o "$2" "$1" || die "could not download $1" "check the URL and the network (or set CUDNN_TOOL_DIST_URL to a mirror)"
  elif command -v wget > /dev/null 2>&1; then
    wget -q -O "$2" "$1" || die "could not download $1" "check the URL and the network (or set CUDNN_TOOL_DIST_URL to a mirror)"
  else
    die "neither curl nor wget is installed" "install one of them"
  fi
}
sha256() {
  if command -v sha256sum > /dev/null 2>&1; then sha256sum "$1" | cut -d' ' -f1
  elif command -v shasum > /dev/null 2>&1; then shasum -a 256 "$1" | cut -d' ' -f1
  elif command -v openssl > /dev/null 2>&1; then openssl dgst -sha256 "$1" | sed 's/.*= *//'
  else die "no sha256 tool (sha256sum, shasum or openssl)" "install coreutils"
  fi
}

mkdir -p "$home"
tmp=$(mktemp -d "$home/.download-XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
fetch "$base/SHA256SUMS" "$tmp/SHA256SUMS"

# The file for this OS and CPU, read from SHA256SUMS ("<sha256>  <name>" lines); without --version the newest there.
suffix=$os-$arch.tar.gz
line=$(sed -n "s/^\([0-9a-fA-F]\{64\}\)  *\*\{0,1\}\(cudnn-tool-[0-9A-Za-z.-]*-$suffix\)\$/\1 \2/p" "$tmp/SHA256SUMS" \
  | while read -r sum name; do v=${name#cudnn-tool-}; v=${v%-"$suffix"}
      if [ -z "$version" ] || [ "$v" = "$version" ]; then printf '%s %s %s\n' "$v" "$sum" "$name"; fi; done \
  | sort -t. -k1,1n -k2,2n -k3,3n | tail -n 1)
[ -n "$line" ] || die "$base/SHA256SUMS lists no cudnn-tool-${version:-*}-$suffix" \
  "pick a release that has an image for $os-$arch (or build it: scripts/release-assets.sh)"
v=${line%% *}; rest=${line#* }; want=${rest%% *}; name=${rest#* }

fetch "$base/$name" "$tmp/$name"
got=$(sha256 "$tmp/$name")
if [ "$got" != "$want" ]; then
  rm -f "$tmp/$name"
  die "$name has sha256 $got, SHA256SUMS says $want: nothing was unpacked" "download again; if it repeats, the mirror is damaged"
fi

mkdir "$tmp/unpacked"
tar -xzf "$tmp/$name" -C "$tmp/unpacked" || die "$name could not be unpacked" "download again"
[ -x "$tmp/unpacked/cudnn-tool-$v/bin/cudnn" ] || die "$name holds no cudnn-tool-$v/bin/cudnn" "use an image made by scripts/release-assets.sh"
# The image runs before it becomes current (its own runtime: no Java needed on this machine).
"$tmp/unpacked/cudnn-tool-$v/bin/cudnn" --version > /dev/null || die "the unpacked image does not start" "report it with: uname -a"

if [ -d "$home/$v" ]; then mv "$home/$v" "$tmp/old"; fi
mv "$tmp/unpacked/cudnn-tool-$v" "$home/$v"
# The class-data archive the trial run made records the temporary path. One run at the final path makes the
# archive there, as the installing user: installed by root under /opt, ordinary users' starts map it too
# (they could not write it themselves). A failure here only costs start-up time.
rm -f "$home/$v/lib/cudnn-tool.jsa"
"$home/$v/bin/cudnn" --version > /dev/null 2>&1 || true
grep -qx -- "$v" "$record" 2> /dev/null || printf '%s\n' "$v" >> "$record"
# Switch `current` in one rename (mv -T; where mv lacks it, ln -sfn).
ln -s "$v" "$tmp/current"
mv -T "$tmp/current" "$home/current" 2> /dev/null || ln -sfn "$v" "$home/current"

mkdir -p "$bindir"
if [ -e "$link" ] && [ "$(link_target "$link")" != "$home/current/bin/cudnn" ]; then
  say "kept $link: it is not install.sh's link (run $home/current/bin/cudnn, or remove $link and run this again)"
else
  ln -sfn "$home/current/bin/cudnn" "$link"
fi

say "cudnn-tool $v is in $home/$v ($home/current), linked as $link"
case :${PATH:-}: in
  *:"$bindir":*) say "next: cudnn verify" ;;
  *) say "next: export PATH=\"$bindir:\$PATH\"; cudnn verify" ;;
esac
