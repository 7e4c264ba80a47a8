#!/usr/bin/env bash
# Rebuilds three.bundle.js from the pinned npm packages (package-lock.json): three.js, its
# GLTFLoader and OrbitControls, as one minified IIFE that sets `window.LIMINA_THREE =
# {THREE, GLTFLoader, OrbitControls}`. The binary embeds the result; nothing is fetched at run time.
set -euo pipefail
cd "$(dirname "$0")"
npm ci --no-audit --no-fund --silent
node_modules/.bin/esbuild entry.js --bundle --minify --format=iife --global-name=LIMINA_THREE \
  --target=es2020 --legal-comments=none --banner:js="/* three.js 0.187.0 with GLTFLoader and OrbitControls; MIT License, Copyright © 2010-2026 three.js authors (vendor/three/LICENSE). Built by vendor/three/build.sh. */" --outfile=three.bundle.js
cp node_modules/three/LICENSE LICENSE
rm -rf node_modules
wc -c three.bundle.js
