# SPDX-License-Identifier: Apache-2.0 OR MIT
"""Every committed bundle through its own build-system files, with Debian's cmake and meson,
as a project vendoring it would: copied into a consumer project (CMake add_subdirectory,
Meson subproject), installed, then found again through pkg-config (both installs write the
.pc file) and CMake's find_package. Each consumer (tests/vendor_consumer.c) runs the
self-test on every path; the aarch64 bundle is cross-built (toolchain file / cross file for
aarch64-linux-gnu-gcc, linked statically) and run under qemu-aarch64 -cpu max. The wasm32
bundle is built natively here, as the portable C it also is (its scalar path; its simd128
path exists only in a -msimd128 wasm build, which tests/e2e_wasm.py runs under node).

One class per bundle and build system (CMake_x86_64, Meson_portable, ...), each its own
`ninja test` edge: python3 -m unittest tests.e2e_buildsys.CMake_x86_64
"""

import glob
import hashlib
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from generator.choice import targets  # noqa: E402
from tests import host_cpu  # noqa: E402
from generator import toolprobe as toolcheck  # noqa: E402

CONSUMER = os.path.join(ROOT, "tests", "vendor_consumer.c")
ABC = hashlib.sha3_256(b"abc").hexdigest()
CROSS = {"aarch64": {"cc": "aarch64-linux-gnu-gcc", "run": ["qemu-aarch64", "-cpu", "max"],
                     "processor": "aarch64"}}

CMAKE_PROJECT = """cmake_minimum_required(VERSION 3.13)
project(consumer C)
add_subdirectory(third_party/roundsmith)
add_executable(consumer consumer.c)
target_link_libraries(consumer PRIVATE roundsmith::roundsmith)
"""
CMAKE_FIND = """cmake_minimum_required(VERSION 3.13)
project(found C)
find_package(roundsmith REQUIRED CONFIG)
add_executable(found consumer.c)
target_link_libraries(found PRIVATE roundsmith::roundsmith)
"""
CMAKE_TOOLCHAIN = """set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR {processor})
set(CMAKE_C_COMPILER {cc})
set(CMAKE_EXE_LINKER_FLAGS_INIT -static)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE BOTH)
"""
MESON_PROJECT = """project('consumer', 'c')
roundsmith_dep = dependency('roundsmith', fallback: ['roundsmith', 'roundsmith_dep'])
executable('consumer', 'consumer.c', dependencies: roundsmith_dep)
"""
MESON_CROSS = """[binaries]
c = '{cc}'
ar = '{prefix}ar'
strip = '{prefix}strip'
pkg-config = 'pkg-config'

[built-in options]
c_link_args = ['-static']
default_library = 'static'

[host_machine]
system = 'linux'
cpu_family = '{processor}'
cpu = '{processor}'
endian = 'little'
"""


def run(cmd, env=None, **kw):
    e = {k: v for k, v in os.environ.items() if k != "ROUNDSMITH_PATH"}
    e.update(env or {})
    return subprocess.run(cmd, env=e, capture_output=True, text=True, timeout=900, **kw)


class Consumer(unittest.TestCase):
    bundle = system = None
    # The paths a build here has (None: every path of the bundle).
    NATIVE_PATHS = {"wasm32": ("scalar",)}

    def setUp(self):
        self.cross = CROSS.get(self.bundle)
        why = toolcheck.first(
            toolcheck.programs(self.system),
            self.cross and toolcheck.compiler([self.cross["cc"], "-static"], link=True),
            self.cross and toolcheck.programs(self.cross["run"][0]))
        if why:
            self.skipTest(why)
        self.tmp = tempfile.mkdtemp(prefix=f"rs-{self.system}-{self.bundle}-")
        self.prefix = os.path.join(self.tmp, "prefix")
        self.cc = self.cross["cc"] if self.cross else "cc"

    def tearDown(self):
        if getattr(self, "tmp", None):
            shutil.rmtree(self.tmp, ignore_errors=True)

    def ok(self, r, what):
        self.assertEqual(r.returncode, 0, f"{what}:\n{r.stdout[-3000:]}\n{r.stderr[-3000:]}")

    def project(self, name, build_file, text, vendored_at):
        proj = os.path.join(self.tmp, name)
        os.makedirs(proj)
        with open(os.path.join(proj, build_file), "w") as f:
            f.write(text)
        shutil.copy(CONSUMER, os.path.join(proj, "consumer.c"))
        if vendored_at:
            shutil.copytree(os.path.join(ROOT, "out", self.bundle),
                            os.path.join(proj, vendored_at))
        return proj

    def runs(self, exe, what, env=None):
        """The consumer on every path of the bundle: self-test 0, SHA3-256("abc") right."""
        names = self.NATIVE_PATHS.get(self.bundle) or [p.name for p in
                                                         targets.BUNDLES[self.bundle].paths]
        for path in names:
            r = run([*(self.cross["run"] if self.cross else []), exe],
                    env=dict(env or {}, ROUNDSMITH_PATH=path))
            self.ok(r, f"{what} on {path}")
            got = dict(re.findall(r"(\w+)=(\S+)", r.stdout))
            self.assertEqual(got.get("selftest"), "0", r.stdout)
            self.assertEqual(got.get("sha3_256"), ABC, r.stdout)
            if len(names) > 1:
                want = path if self.cross else host_cpu.forced(path, path)[0]
                self.assertEqual(got.get("path"), want, f"{what}: {r.stderr}")

    def pkg_config_consumer(self):
        """The installed library through its .pc file, compiled with a plain command line."""
        pcs = glob.glob(os.path.join(self.prefix, "**", "roundsmith.pc"), recursive=True)
        self.assertEqual(len(pcs), 1, pcs)
        env = {"PKG_CONFIG_PATH": os.path.dirname(pcs[0]), "PKG_CONFIG_LIBDIR": ""}
        r = run(["pkg-config", "--cflags", "--libs", "roundsmith"], env=env)
        self.ok(r, "pkg-config")
        exe = os.path.join(self.tmp, "pc_consumer")
        flags = r.stdout.split()
        r = run([self.cc, CONSUMER, *flags, "-o", exe] + (["-static"] if self.cross else []))
        self.ok(r, "compile against the pkg-config flags")
        libdir = run(["pkg-config", "--variable=libdir", "roundsmith"], env=env).stdout.strip()
        # A shared library (Meson's default) is found where the install put it.
        self.runs(exe, "pkg-config consumer", env={"LD_LIBRARY_PATH": libdir})


class CMakeConsumer(Consumer):
    system = "cmake"

    def cmake(self, src, build, *args):
        flags = []
        if self.cross:
            toolchain = os.path.join(self.tmp, "toolchain.cmake")
            with open(toolchain, "w") as f:
                f.write(CMAKE_TOOLCHAIN.format(**self.cross))
            flags.append(f"-DCMAKE_TOOLCHAIN_FILE={toolchain}")
        self.ok(run(["cmake", "-S", src, "-B", build, *flags, *args]), f"cmake -S {src}")
        self.ok(run(["cmake", "--build", build, "-j", "2"]), f"cmake --build {build}")

    def test_add_subdirectory_install_pkg_config_find_package(self):
        proj = self.project("proj", "CMakeLists.txt", CMAKE_PROJECT, "third_party/roundsmith")
        build = os.path.join(self.tmp, "build")
        # The vendored folder installs only when asked (it is not the top-level project).
        self.cmake(proj, build, "-DROUNDSMITH_INSTALL=ON", f"-DCMAKE_INSTALL_PREFIX={self.prefix}")
        self.runs(os.path.join(build, "consumer"), "add_subdirectory")
        self.ok(run(["cmake", "--install", build]), "cmake --install")
        self.assertTrue(os.path.exists(os.path.join(self.prefix, "include", "roundsmith",
                                                    "roundsmith.h")))
        self.pkg_config_consumer()
        found = self.project("found", "CMakeLists.txt", CMAKE_FIND, None)
        fbuild = os.path.join(self.tmp, "fbuild")
        self.cmake(found, fbuild, f"-DCMAKE_PREFIX_PATH={self.prefix}")
        self.runs(os.path.join(fbuild, "found"), "find_package")


class MesonConsumer(Consumer):
    system = "meson"

    def meson(self, src, build, *args):
        flags = []
        if self.cross:
            cross = os.path.join(self.tmp, "cross.ini")
            with open(cross, "w") as f:
                f.write(MESON_CROSS.format(prefix=self.cross["cc"][:-3], **self.cross))
            flags.append(f"--cross-file={cross}")
        self.ok(run(["meson", "setup", build, src, *flags, *args]), f"meson setup {src}")
        self.ok(run(["meson", "compile", "-C", build, "-j", "2"]), f"meson compile {build}")

    def test_subproject_install_pkg_config(self):
        proj = self.project("proj", "meson.build", MESON_PROJECT, "subprojects/roundsmith")
        build = os.path.join(self.tmp, "build")
        self.meson(proj, build)
        self.runs(os.path.join(build, "consumer"), "subproject")
        # Installed on its own (a subproject does not install itself).
        alone = os.path.join(self.tmp, "alone")
        shutil.copytree(os.path.join(ROOT, "out", self.bundle), alone)
        abuild = os.path.join(self.tmp, "abuild")
        self.meson(alone, abuild, f"--prefix={self.prefix}",
                   *([] if self.cross else ["-Ddefault_library=both"]))
        self.ok(run(["meson", "install", "-C", abuild]), "meson install")
        self.pkg_config_consumer()


for _bundle in targets.CANONICAL_BUNDLES:
    for _base in (CMakeConsumer, MesonConsumer):
        _name = f"{_base.__name__[:-8]}_{_bundle}"
        globals()[_name] = type(_name, (_base,), {"bundle": _bundle})
del CMakeConsumer, MesonConsumer, Consumer, _base, _bundle, _name

if __name__ == "__main__":
    unittest.main()
