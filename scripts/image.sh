#!/usr/bin/env bash
# Builds the vesload image from Containerfile without a container daemon
# (buildah, chroot isolation, vfs storage: no overlay mounts, no setuid
# helpers) and writes it as an OCI archive.
#   scripts/image.sh BINARY IMAGE ARCHIVE VERSION
set -euo pipefail
bin=$1 image=$2 archive=$3 version=$4
command -v buildah >/dev/null || { echo "image: buildah is missing (apt-get install buildah)" >&2; exit 1; }
ctx=$(mktemp -d) store=$(mktemp -d)
trap 'buildah --root "$store/root" --runroot "$store/run" --storage-driver vfs rm --all >/dev/null 2>&1 || true; rm -rf "$ctx" "$store"' EXIT
cp "$bin" "$ctx/vesload"
# The one user of the image, unprivileged (distroless' "nonroot").
echo 'nonroot:x:65532:65532:nonroot:/nonexistent:/sbin/nologin' > "$ctx/passwd"
# CA roots for https targets: the build machine's bundle.
cp /etc/ssl/certs/ca-certificates.crt "$ctx/ca-certificates.crt"
rev=$(git rev-parse HEAD 2>/dev/null || echo unknown)
bh=(buildah --root "$store/root" --runroot "$store/run" --storage-driver vfs)
"${bh[@]}" bud --quiet --isolation chroot -f Containerfile \
  --build-arg "VERSION=$version" --build-arg "REVISION=$rev" \
  -t "$image" "$ctx" >/dev/null
mkdir -p "$(dirname "$archive")"
rm -f "$archive"
"${bh[@]}" push --quiet "$image" "oci-archive:$archive:$image"
echo "image: $image in $archive"
