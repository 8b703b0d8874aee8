#!/usr/bin/env bash
# The README's pictures: a side of a card in each language and a page of an errata sheet, as printed.
# Needs a build (generated/charts/*.pdf) and poppler's pdftoppm.  Run from the repository's root.
set -euo pipefail
pdftoppm -r 80 -png -f 1 -l 1 -singlefile generated/charts/bocage.en.pdf docs/card-bocage-en-1
pdftoppm -r 80 -png -f 2 -l 2 -singlefile generated/charts/bocage.fr.pdf docs/card-bocage-fr-2
rulesdsl diff tests/fixtures/errata/hedgerow-1.0.rules tests/fixtures/errata/hedgerow-1.1.rules \
  --format pdf --out "${TMPDIR:-/tmp}/errata.pdf" >/dev/null || [ $? -eq 1 ]      # 1: there are changes
pdftoppm -r 80 -png -f 1 -l 1 -singlefile "${TMPDIR:-/tmp}/errata.pdf" docs/errata-hedgerow-1
