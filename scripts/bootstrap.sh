#!/bin/sh
# scripts/bootstrap.sh — what the README's two commands need before meson runs:
# installs meson and ninja from the distribution when they are missing (as
# root, or through sudo), then configures ./build once.  Safe to run again.
set -e
cd "$(dirname "$0")/.."
if ! command -v meson >/dev/null 2>&1 || ! command -v ninja >/dev/null 2>&1; then
  if command -v apt-get >/dev/null 2>&1; then
    if [ "$(id -u)" = 0 ]; then sudo=; elif command -v sudo >/dev/null 2>&1; then sudo=sudo; else
      echo "bootstrap: meson and ninja are missing; run as root or install sudo" >&2; exit 1
    fi
    echo "bootstrap: installing meson and ninja-build"
    $sudo apt-get update -q
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q meson ninja-build
  else
    echo "bootstrap: meson and ninja are missing and there is no apt-get: install them (e.g. pip install meson ninja)" >&2
    exit 1
  fi
fi
if [ ! -f build/build.ninja ]; then
  meson setup build
fi
