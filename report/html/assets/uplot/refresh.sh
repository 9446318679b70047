#!/usr/bin/env bash
# Refreshes the uPlot build the HTML report inlines: fetches the npm
# package uplot at UPLOT_VERSION into a scratch directory and copies only
# its minified script, its stylesheet and its licence here, with the
# version in VERSION. Run it through `make uplot`; commit the result.
set -euo pipefail
version=${UPLOT_VERSION:?set UPLOT_VERSION, e.g. 1.6.32}
here=$(cd "$(dirname "$0")" && pwd)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
(cd "$scratch" && npm pack --silent "uplot@$version" >/dev/null && tar xzf uplot-*.tgz)
pkg=$scratch/package
got=$(node -p "require('$pkg/package.json').version")
[ "$got" = "$version" ] || { echo "uplot: asked for $version, got $got" >&2; exit 1; }
cp "$pkg/dist/uPlot.iife.min.js" "$here/uPlot.iife.min.js"
cp "$pkg/dist/uPlot.min.css" "$here/uPlot.min.css"
cp "$pkg/LICENSE" "$here/LICENSE"
echo "$version" >"$here/VERSION"
echo "uplot $version: $(wc -c <"$here/uPlot.iife.min.js") bytes of script, $(wc -c <"$here/uPlot.min.css") of style"
