#!/usr/bin/env bash
# Lays real cuDNN 9.5.1 (unpacked by `./mvnw -Preal-cudnn generate-test-resources` into
# target/real-cudnn/linux-9) into a stand-alone prefix as an install would: real-named files,
# soname and development links, the headers cudnn-verify checks. Usage: real-cudnn-prefix.sh DIR
set -euo pipefail
src=${REAL_CUDNN_DIR:-target/real-cudnn/linux-9}
dst=$1
[ -f "$src/libcudnn.so.9" ] || { echo "real-cudnn-prefix: $src has no libcudnn.so.9; run ./mvnw -Preal-cudnn generate-test-resources" >&2; exit 2; }
rm -rf "$dst"; mkdir -p "$dst/lib" "$dst/include"
for f in "$src"/libcudnn*.so.9; do
  b=$(basename "$f" .so.9)
  ln "$f" "$dst/lib/$b.so.9.5.1" 2>/dev/null || cp "$f" "$dst/lib/$b.so.9.5.1"
  ln -s "$b.so.9.5.1" "$dst/lib/$b.so.9"
  ln -s "$b.so.9" "$dst/lib/$b.so"
done
for h in cudnn.h cudnn_backend.h cudnn_graph.h cudnn_ops.h cudnn_cnn.h cudnn_adv.h; do echo "/* $h */" > "$dst/include/$h"; done
printf '#define CUDNN_MAJOR 9\n#define CUDNN_MINOR 5\n#define CUDNN_PATCHLEVEL 1\n' > "$dst/include/cudnn_version.h"
