# SPDX-License-Identifier: Apache-2.0 OR MIT
"""Every committed bundle through its own build-system files, with Debian's cmake and meson,
as its users run them: built on its own with no build type given (it must build optimized),
installed to a prefix chosen at install time (`cmake --install b --prefix P` after configuring
another; `meson install --destdir`), then found again through pkg-config (both installs write
the .pc file) and CMake's find_package; and copied into a consumer project (CMake
add_subdirectory, Meson subproject), where the parent's build type rules. Each consumer
(tests/vendor_consumer.c) runs the self-test on every path; the aarch64 bundle is cross-built
(toolchain file / cross file for aarch64-linux-gnu-gcc, linked statically) and run under
qemu-aarch64 -cpu max. The wasm32 bundle is built natively here, as the portable C it also is
(its scalar path; its simd128 path exists only in a -msimd128 wasm build, which
tests/e2e_wasm.py runs under node).

One class per bundle and build system (CMake_x86_64, Meson_portable, ...), each its own
`ninja test` edge: python3 -m unittest tests.e2e_buildsys.CMake_x86_64. Prefixed_CMake and
Prefixed_Meson take the portable bundle and one made with `--prefix my_` together: each
under its own names (docs/vendoring.md) in one project and one install prefix.
"""

import glob
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from generator import VERSION  # noqa: E402
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
CMAKE_FIND = f"""cmake_minimum_required(VERSION 3.13)
project(found C)
find_package(roundsmith {VERSION} REQUIRED CONFIG)
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


# What a build type that optimizes puts on the command line (CMake's Release: -O3 -DNDEBUG;
# Meson's release: -O3), and what an unoptimized one does (no -O, or -O0).
OPTIMIZED = re.compile(r"(^|\s)-O[123s](\s|$)")


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

    def compile_commands(self, build, bundle_dir):
        """The compile commands of the bundle's own sources in `build`."""
        with open(os.path.join(build, "compile_commands.json")) as f:
            entries = json.load(f)
        mine = [e["command"] for e in entries
                if os.path.basename(e["file"]) in os.listdir(bundle_dir)]
        self.assertTrue(mine, f"no compile command of {bundle_dir} in {build}")
        return mine

    def assert_optimized(self, build, bundle_dir, want=True):
        for cmd in self.compile_commands(build, bundle_dir):
            self.assertEqual(bool(OPTIMIZED.search(cmd)), want, cmd)

    def pkg_config_consumer(self):
        """The installed library through its .pc file, compiled with a plain command line;
        the .pc file found wherever the install's libdir put it (lib, lib/<multiarch>)."""
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


class CMakeTools(Consumer):
    system = "cmake"

    def cmake(self, src, build, *args, build_it=True):
        flags = ["-DCMAKE_EXPORT_COMPILE_COMMANDS=ON"]
        if self.cross:
            toolchain = os.path.join(self.tmp, "toolchain.cmake")
            with open(toolchain, "w") as f:
                f.write(CMAKE_TOOLCHAIN.format(**self.cross))
            flags.append(f"-DCMAKE_TOOLCHAIN_FILE={toolchain}")
        r = run(["cmake", "-S", src, "-B", build, *flags, *args])
        self.ok(r, f"cmake -S {src}")
        if build_it:
            self.ok(run(["cmake", "--build", build, "-j", "2"]), f"cmake --build {build}")
        return r.stdout

    def build_type(self, build):
        with open(os.path.join(build, "CMakeCache.txt")) as f:
            return re.search(r"^CMAKE_BUILD_TYPE:\w+=(.*)$", f.read(), re.M).group(1)

    def install_elsewhere(self, build, prefix):
        """`cmake --install --prefix` to another prefix than the configured one: everything
        lands there, nothing where the configure step pointed."""
        self.ok(run(["cmake", "--install", build, "--prefix", prefix]), "cmake --install")
        self.assertFalse(os.path.exists(os.path.join(self.tmp, "configured")))



class CMakeConsumer(CMakeTools):
    def test_alone_release_install_elsewhere_pkg_config_find_package(self):
        src = os.path.join(ROOT, "out", self.bundle)
        build = os.path.join(self.tmp, "alone")
        out = self.cmake(src, build, "-DCMAKE_INSTALL_PREFIX=" + os.path.join(self.tmp,
                                                                              "configured"))
        # No build type given: the folder as top-level project builds Release, and says so.
        self.assertEqual(self.build_type(build), "Release")
        self.assertIn("no CMAKE_BUILD_TYPE given, building Release", out)
        self.assert_optimized(build, src)
        self.install_elsewhere(build, self.prefix)
        self.assertTrue(os.path.exists(os.path.join(self.prefix, "include", "roundsmith",
                                                    "roundsmith.h")))
        self.pkg_config_consumer()
        found = self.project("found", "CMakeLists.txt", CMAKE_FIND, None)
        fbuild = os.path.join(self.tmp, "fbuild")
        self.cmake(found, fbuild, f"-DCMAKE_PREFIX_PATH={self.prefix}")
        self.runs(os.path.join(fbuild, "found"), "find_package")

    def test_add_subdirectory_parent_build_type_install_on_request(self):
        proj = self.project("proj", "CMakeLists.txt", CMAKE_PROJECT, "third_party/roundsmith")
        build = os.path.join(self.tmp, "build")
        # The vendored folder installs only when asked (it is not the top-level project), and
        # leaves the build type to its parent: none here, so no -O.
        self.cmake(proj, build, "-DROUNDSMITH_INSTALL=ON",
                   "-DCMAKE_INSTALL_PREFIX=" + os.path.join(self.tmp, "configured"))
        self.assertEqual(self.build_type(build), "")
        self.assert_optimized(build, os.path.join(proj, "third_party", "roundsmith"), False)
        self.runs(os.path.join(build, "consumer"), "add_subdirectory")
        self.install_elsewhere(build, self.prefix)
        self.pkg_config_consumer()


class MesonTools(Consumer):
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

    def build_options(self, build):
        r = run(["meson", "introspect", "--buildoptions", build])
        self.ok(r, "meson introspect")
        return {o["name"]: o["value"] for o in json.loads(r.stdout)}



class MesonConsumer(MesonTools):
    def test_subproject_install_pkg_config(self):
        proj = self.project("proj", "meson.build", MESON_PROJECT, "subprojects/roundsmith")
        build = os.path.join(self.tmp, "build")
        self.meson(proj, build)
        # A subproject follows its parent's build type (Meson's default, debug: -O0).
        self.assertEqual(self.build_options(build)["buildtype"], "debug")
        self.assert_optimized(build, os.path.join(proj, "subprojects", "roundsmith"), False)
        self.runs(os.path.join(build, "consumer"), "subproject")
        # Installed on its own (a subproject does not install itself), with no build type
        # given: release.
        src = os.path.join(ROOT, "out", self.bundle)
        abuild = os.path.join(self.tmp, "abuild")
        self.meson(src, abuild, f"--prefix={self.prefix}",
                   *([] if self.cross else ["-Ddefault_library=both"]))
        options = self.build_options(abuild)
        self.assertEqual((options["buildtype"], options["optimization"]), ("release", "3"))
        self.assert_optimized(abuild, src)
        self.ok(run(["meson", "install", "-C", abuild]), "meson install")
        self.pkg_config_consumer()


# Two bundles in one program: the portable one (main.c, its own names) and one made with
# --prefix my_ (mine.c, in a library of its own: each file sees one roundsmith.h).
TWO_MAIN = r"""#include <stdio.h>
#include "roundsmith.h"

int mine(uint8_t d[32]);

int main(void)
{
    uint8_t a[32], b[32];
    int i, code = rs_selftest(), my_code = mine(b);
    sha3_256(a, (const uint8_t *)"abc", 3);
    printf("selftest=%d my_selftest=%d sha3_256=", code, my_code);
    for (i = 0; i < 32; i++)
        printf("%02x", a[i]);
    printf(" my_sha3_256=");
    for (i = 0; i < 32; i++)
        printf("%02x", b[i]);
    printf("\n");
    return code != 0 || my_code != 0;
}
"""
TWO_MINE = r"""#include "roundsmith.h"

int mine(uint8_t d[32])
{
    my_sha3_256(d, (const uint8_t *)"abc", 3);
    return my_selftest();
}
"""
CMAKE_TWO_BODY = """add_library(mine STATIC mine.c)
target_link_libraries(mine PRIVATE my_roundsmith::my_roundsmith)
add_executable(two main.c)
target_link_libraries(two PRIVATE roundsmith::roundsmith mine)
"""
CMAKE_TWO = """cmake_minimum_required(VERSION 3.13)
project(two C)
add_subdirectory(third_party/roundsmith)
add_subdirectory(third_party/my_roundsmith)
""" + CMAKE_TWO_BODY
CMAKE_TWO_FIND = f"""cmake_minimum_required(VERSION 3.13)
project(two_found C)
find_package(roundsmith {VERSION} REQUIRED CONFIG)
find_package(my_roundsmith {VERSION} REQUIRED CONFIG)
""" + CMAKE_TWO_BODY
MESON_TWO = """project('two', 'c')
roundsmith_dep = dependency('roundsmith', fallback: ['roundsmith', 'roundsmith_dep'])
my_roundsmith_dep = dependency('my_roundsmith', fallback: ['my_roundsmith', 'my_roundsmith_dep'])
mine = static_library('mine', 'mine.c', dependencies: my_roundsmith_dep)
executable('two', 'main.c', dependencies: roundsmith_dep, link_with: mine)
"""


class Prefixed:
    """The portable bundle and one made with --prefix my_, side by side: in one project and
    under one install prefix, each under the names its build files give (library, CMake
    target and package, Meson dependency and subproject, pkg-config module)."""
    bundle = "portable"

    def setUp(self):
        super().setUp()
        self.mine = os.path.join(self.tmp, "my_roundsmith")
        self.ok(run([sys.executable, "-m", "generator", "bundle", "--target", "portable",
                     "--prefix", "my_", "--out", self.mine], cwd=ROOT), "bundle --prefix my_")
        self.folders = {"roundsmith": os.path.join(ROOT, "out", "portable"),
                        "my_roundsmith": self.mine}

    def two_project(self, name, build_file, text, vendored_in=None):
        proj = os.path.join(self.tmp, name)
        os.makedirs(proj)
        for file, body in ((build_file, text), ("main.c", TWO_MAIN), ("mine.c", TWO_MINE)):
            with open(os.path.join(proj, file), "w") as f:
                f.write(body)
        if vendored_in:
            for lib, folder in self.folders.items():
                shutil.copytree(folder, os.path.join(proj, vendored_in, lib))
        return proj

    def two_runs(self, exe, what, env=None):
        r = run([exe], env=env)
        self.ok(r, what)
        got = dict(re.findall(r"(\w+)=(\S+)", r.stdout))
        self.assertEqual((got.get("selftest"), got.get("my_selftest")), ("0", "0"), r.stdout)
        self.assertEqual((got.get("sha3_256"), got.get("my_sha3_256")), (ABC, ABC), r.stdout)

    def pkg_config_two(self):
        """main.c with roundsmith's flags, mine.c with my_roundsmith's, linked together."""
        pcs = sorted(glob.glob(os.path.join(self.prefix, "**", "*.pc"), recursive=True))
        self.assertEqual([os.path.basename(p) for p in pcs],
                         ["my_roundsmith.pc", "roundsmith.pc"])
        env = {"PKG_CONFIG_PATH": os.path.dirname(pcs[0]), "PKG_CONFIG_LIBDIR": ""}
        proj = self.two_project("pc", "none", "")
        objs, libs = [], []
        for lib, src in (("roundsmith", "main.c"), ("my_roundsmith", "mine.c")):
            cflags = run(["pkg-config", "--cflags", lib], env=env)
            self.ok(cflags, f"pkg-config --cflags {lib}")
            objs.append(os.path.join(proj, src[:-2] + ".o"))
            self.ok(run([self.cc, "-c", os.path.join(proj, src), *cflags.stdout.split(), "-o",
                         objs[-1]]), f"compile {src} with {lib}'s flags")
            r = run(["pkg-config", "--libs", lib], env=env)
            self.ok(r, f"pkg-config --libs {lib}")
            libs += r.stdout.split()
        exe = os.path.join(proj, "two")
        self.ok(run([self.cc, *objs, *libs, "-o", exe]), "link both")
        libdir = run(["pkg-config", "--variable=libdir", "roundsmith"], env=env).stdout.strip()
        self.two_runs(exe, "pkg-config", env={"LD_LIBRARY_PATH": libdir})


class Prefixed_CMake(Prefixed, CMakeTools):
    def test_two_bundles_one_project_one_prefix(self):
        configured = "-DCMAKE_INSTALL_PREFIX=" + os.path.join(self.tmp, "configured")
        for lib, folder in self.folders.items():
            build = os.path.join(self.tmp, f"alone-{lib}")
            self.cmake(folder, build, configured)
            self.assertEqual(self.build_type(build), "Release")
            self.assert_optimized(build, folder)
            self.install_elsewhere(build, self.prefix)
        self.pkg_config_two()
        found = self.two_project("found", "CMakeLists.txt", CMAKE_TWO_FIND)
        self.cmake(found, os.path.join(self.tmp, "fbuild"), f"-DCMAKE_PREFIX_PATH={self.prefix}")
        self.two_runs(os.path.join(self.tmp, "fbuild", "two"), "find_package")
        proj = self.two_project("proj", "CMakeLists.txt", CMAKE_TWO, "third_party")
        self.cmake(proj, os.path.join(self.tmp, "build"))
        self.two_runs(os.path.join(self.tmp, "build", "two"), "add_subdirectory")

    def test_an_explicit_build_type_is_kept(self):
        """Configured only: a type given, even empty, stays; a multi-config generator gets
        none forced either."""
        for args, want in ((["-DCMAKE_BUILD_TYPE=Debug"], "Debug"),
                           (["-DCMAKE_BUILD_TYPE="], ""),
                           (["-DCMAKE_BUILD_TYPE=MinSizeRel"], "MinSizeRel")):
            build = os.path.join(self.tmp, "b" + want)
            out = self.cmake(self.mine, build, *args, build_it=False)
            self.assertEqual(self.build_type(build), want, args)
            self.assertNotIn("building Release", out)
        if shutil.which("ninja"):
            build = os.path.join(self.tmp, "multi")
            out = self.cmake(self.mine, build, "-G", "Ninja Multi-Config", build_it=False)
            self.assertNotIn("building Release", out)
            with open(os.path.join(build, "CMakeCache.txt")) as f:
                self.assertNotIn("CMAKE_BUILD_TYPE:", f.read())


class Prefixed_Meson(Prefixed, MesonTools):
    def test_two_bundles_one_project_one_prefix(self):
        proj = self.two_project("proj", "meson.build", MESON_TWO, "subprojects")
        build = os.path.join(self.tmp, "build")
        self.meson(proj, build)
        self.two_runs(os.path.join(build, "two"), "subprojects")
        # Each installed on its own into one prefix, staged with --destdir: the .pc files
        # are used where the staging put them.
        stage = os.path.join(self.tmp, "stage")
        for lib, folder in self.folders.items():
            abuild = os.path.join(self.tmp, f"alone-{lib}")
            self.meson(folder, abuild, "--prefix=/opt/rs")
            self.assertEqual(self.build_options(abuild)["buildtype"], "release")
            self.assert_optimized(abuild, folder)
            self.ok(run(["meson", "install", "-C", abuild, "--destdir", stage]),
                    "meson install --destdir")
        self.prefix = os.path.join(stage, "opt", "rs")
        self.pkg_config_two()
        # An explicit build type stays.
        dbuild = os.path.join(self.tmp, "debug")
        self.ok(run(["meson", "setup", dbuild, self.mine, "--buildtype=debug"]), "meson setup")
        self.assertEqual(self.build_options(dbuild)["buildtype"], "debug")


for _bundle in targets.CANONICAL_BUNDLES:
    for _base in (CMakeConsumer, MesonConsumer):
        _name = f"{_base.__name__[:-8]}_{_bundle}"
        globals()[_name] = type(_name, (_base,), {"bundle": _bundle})
del CMakeConsumer, MesonConsumer, CMakeTools, MesonTools, Consumer, Prefixed, _base, _bundle, _name

if __name__ == "__main__":
    unittest.main()
