#!/bin/sh
# Builds the server as it was before the simplification of issue 37 (tree 49edc8c), for
# `npm run bench -- --before node_modules/.cache/tmux-mcp-bench/before/dist/cli.js`.
set -eu
cd "$(dirname "$0")/.."
COMMIT=${1:-49edc8c}
DIR=node_modules/.cache/tmux-mcp-bench/before
if [ ! -f "$DIR/dist/cli.js" ]; then
  rm -rf "$DIR"
  mkdir -p "$DIR"
  git archive "$COMMIT" | tar -x -C "$DIR"
  (cd "$DIR" && npm ci --no-audit --no-fund --loglevel=error && npm run build --silent)
fi
echo "$DIR/dist/cli.js"
