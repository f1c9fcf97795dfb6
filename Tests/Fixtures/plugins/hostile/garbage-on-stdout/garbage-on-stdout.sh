#!/bin/sh
# Writes binary bytes that are no frame header to standard output, then reads on without answering.
printf '\377\376\001\002garbage\n'
exec cat >/dev/null
