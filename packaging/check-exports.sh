#!/bin/sh
# Checks the dynamic symbols a shared collworld library defines: every one must be a public name
# (starts with cw_, not the internal cw__ prefix, declared CW_API in the header), and every CW_API
# function of the header must be there.   usage: check-exports.sh libcollworld.so include/collworld.h
set -eu
lib=$1
header=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

nm -D --defined-only "$lib" | awk '{print $NF}' | sed 's/@.*//' | sort -u >"$tmp/exported"
# The header's public functions: every declaration line starting with CW_API.
sed -n 's/^CW_API .*[^a-zA-Z0-9_]\(cw_[a-zA-Z0-9_]*\)(.*/\1/p' "$header" | sort -u >"$tmp/public"

status=0
bad=$(grep -v '^cw_' "$tmp/exported" || true)
internal=$(grep '^cw__' "$tmp/exported" || true)
undeclared=$(comm -23 "$tmp/exported" "$tmp/public" | grep '^cw_' | grep -v '^cw__' || true)
missing=$(comm -13 "$tmp/exported" "$tmp/public" || true)
if [ -n "$bad" ]; then echo "exported symbols without the cw_ prefix:"; echo "$bad" | sed 's/^/  /'; status=1; fi
if [ -n "$internal" ]; then echo "internal cw__ symbols exported:"; echo "$internal" | sed 's/^/  /'; status=1; fi
if [ -n "$undeclared" ]; then echo "exported cw_ symbols the header does not declare CW_API:"; echo "$undeclared" | sed 's/^/  /'; status=1; fi
if [ -n "$missing" ]; then echo "CW_API functions of the header the library does not export:"; echo "$missing" | sed 's/^/  /'; status=1; fi
if [ "$status" = 0 ]; then
    echo "check-exports: $(wc -l <"$tmp/exported") symbols exported, all public cw_ names; all $(wc -l <"$tmp/public") CW_API functions present"
fi
exit $status
