#!/usr/bin/env bash
# System packages the tests use as independent readers and validators, from Debian:
#   ffmpeg (ffprobe reads chapter tracks back), epubcheck (validates EPUB output),
#   chromium + chromium-driver (drives the web hub in a real browser),
#   pandoc (makes DOCX/ODT/FB2 twins of an EPUB), poppler-utils (pdftotext/pdftoppm read and draw PDFs
#   independently), qpdf (reads a PDF's outline independently) for tests/formats, calibre (its
#   ebook-convert makes the Kindle books tests/formats/test_mobi_contents.py reads: no other producer of
#   MOBI/AZW3 installs here; about 90 packages, under two minutes).
# The app itself needs none of them (its ffmpeg comes from the imageio-ffmpeg wheel).
# Idempotent: installs only what is missing. Skipped when AUDIOBOOK_NO_APT=1.
set -euo pipefail
[ "${AUDIOBOOK_NO_APT:-0}" = "1" ] && exit 0
need=()
command -v ffprobe >/dev/null 2>&1 || need+=(ffmpeg)
command -v epubcheck >/dev/null 2>&1 || need+=(epubcheck)
command -v chromium >/dev/null 2>&1 || need+=(chromium)
command -v chromedriver >/dev/null 2>&1 || need+=(chromium-driver)
command -v pandoc >/dev/null 2>&1 || need+=(pandoc)
command -v pdftotext >/dev/null 2>&1 || need+=(poppler-utils)
command -v qpdf >/dev/null 2>&1 || need+=(qpdf)
command -v ebook-convert >/dev/null 2>&1 || need+=(calibre)
[ ${#need[@]} -eq 0 ] && exit 0
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq >/dev/null
$SUDO apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
