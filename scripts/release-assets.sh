#!/usr/bin/env bash
# Makes a release's assets (#31 item 1), the same way here and in .github/workflows/release.yml:
#   scripts/release-assets.sh image [DIR]   this machine's image (scripts/dist.sh through ./mvnw -Pdist package)
#                                           and the CycloneDX SBOM, copied into DIR (default target/release)
#   scripts/release-assets.sh finish [DIR]  install.sh and install.ps1 (the pom's cudnn.repo written in),
#                                           then SHA256SUMS of every asset in DIR
#   scripts/release-assets.sh [DIR]         both, for this machine
# Names (settled): cudnn-tool-<v>-linux-x86_64.tar.gz, cudnn-tool-<v>-linux-aarch64.tar.gz,
# cudnn-tool-<v>-windows-x86_64.zip, cudnn-tool-<v>.cdx.json, install.sh, install.ps1, SHA256SUMS.
# RELEASE_ASSETS_REUSE=1 takes the image already in target/dist instead of building it.
set -euo pipefail
cd "$(dirname "$0")/.."

step=all
case ${1:-} in image|finish) step=$1; shift ;; esac
dir=${1:-target/release}
mkdir -p "$dir"

version=$(sed -n 's:^  <version>\(.*\)</version>$:\1:p' pom.xml | head -n 1)
repo=$(sed -n 's:^ *<cudnn.repo>\(.*\)</cudnn.repo>$:\1:p' pom.xml | head -n 1)
[[ $version =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] || { echo "release-assets: error: the pom's version '$version' is not X.Y.Z" >&2; exit 2; }
[[ $repo =~ ^github\.com/[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+$ ]] || { echo "release-assets: error: the pom's cudnn.repo '$repo' is not github.com/OWNER/NAME" >&2; exit 2; }

if [ "$step" != finish ]; then
  [ "${RELEASE_ASSETS_REUSE:-}" = 1 ] || ./mvnw -B -q -Pdist package -DskipTests
  found=0
  for f in target/dist/cudnn-tool-"$version"-linux-*.tar.gz target/dist/cudnn-tool-"$version"-windows-*.zip; do
    [ -f "$f" ] || continue
    cp "$f" "$dir/"; found=1; echo "release-assets: $dir/${f##*/}"
  done
  [ "$found" = 1 ] || { echo "release-assets: error: no image for $version in target/dist" >&2; exit 1; }
  sbom=target/dist/cudnn-tool-$version.cdx.json
  [ -f "$sbom" ] || { echo "release-assets: error: $sbom (the CycloneDX SBOM) was not made" >&2; exit 1; }
  cp "$sbom" "$dir/"
  echo "release-assets: $dir/${sbom##*/}"
fi

if [ "$step" != image ]; then
  # The launch scripts, with this pom's repository as their default release URL.
  sed "s|^repo=github\.com/.*\$|repo=$repo|" scripts/install.sh > "$dir/install.sh"
  sed "s|^\$repo = 'github\.com/.*'\$|\$repo = '$repo'|" scripts/install.ps1 > "$dir/install.ps1"
  grep -qx "repo=$repo" "$dir/install.sh" && grep -qx "\$repo = '$repo'" "$dir/install.ps1" \
    || { echo "release-assets: error: the repository line of install.sh or install.ps1 was not found" >&2; exit 1; }
  chmod 755 "$dir/install.sh"
  # SHA256SUMS: every asset but itself, sorted by name ("<sha256>  <name>", as sha256sum -c reads it).
  (cd "$dir" && rm -f SHA256SUMS && find . -maxdepth 1 -type f ! -name SHA256SUMS -printf '%f\n' | LC_ALL=C sort \
     | while IFS= read -r f; do sha256sum -- "$f"; done > SHA256SUMS.part && mv SHA256SUMS.part SHA256SUMS)
  echo "release-assets: $dir/SHA256SUMS ($(wc -l < "$dir/SHA256SUMS") assets)"
fi
