#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 OR MIT
# Build Check for an architecture Debian 12 does not ship it for (riscv64: not a release
# architecture there), from Debian's own source package, with Debian's cross gcc; installs a
# static libcheck under /usr/local/lib/<triplet>/, where configure.py
# (generator/toolprobe.py) looks after the multiarch path. Needs a deb-src line for
# bookworm main in the apt sources.
# usage: tests/build_check_cross.sh riscv64-linux-gnu
set -eu
triplet=$1
work=$(mktemp -d)
cd "$work"
apt-get source -qq check
cd check-*/
./configure -q --host="$triplet" --prefix=/usr/local --libdir="/usr/local/lib/$triplet" \
    --includedir="/usr/local/include/$triplet" --disable-subunit --enable-static \
    --disable-shared
make -j"$(nproc)" -C lib
make -C lib install
make install-pkgconfigDATA install-nodist_includeHEADERS -C . 2>/dev/null || make install-data-am
make -C src install
# Debian's check.pc (its patched build) names the library check_pic; the upstream build
# installs it as libcheck.a.
ln -sf libcheck.a "/usr/local/lib/$triplet/libcheck_pic.a"
cd /
rm -rf "$work"
echo "Check for $triplet installed under /usr/local/lib/$triplet"
