#!/bin/sh
# Exits with status 3 before it reads a byte, every time it is started.
echo "crashes-at-start: my settings file is missing, so I stop here" >&2
exit 3
