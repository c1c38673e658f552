# SPDX-License-Identifier: Apache-2.0 OR MIT
"""x86 CPU features as data: where CPUID reports each one and which XCR0 state bits the OS
must enable before its registers may be used (Intel SDM vol. 2, CPUID; vol. 1, 13.3)."""

from dataclasses import dataclass

XCR0_SSE_AVX = 0x06          # XMM and YMM state
XCR0_AVX512 = 0xE6           # plus opmask, ZMM_Hi256 and Hi16_ZMM state


@dataclass(frozen=True)
class Feature:
    name: str
    leaf: int
    register: int            # 0 eax, 1 ebx, 2 ecx, 3 edx
    bit: int
    xcr0: int                # 0: no OS state needed


FEATURES = {f.name: f for f in (
    Feature("sse2", 1, 3, 26, 0),
    Feature("ssse3", 1, 2, 9, 0),
    Feature("avx2", 7, 1, 5, XCR0_SSE_AVX),
    Feature("bmi1", 7, 1, 3, 0),
    Feature("bmi2", 7, 1, 8, 0),
    Feature("avx512f", 7, 1, 16, XCR0_AVX512),
    Feature("avx512bw", 7, 1, 30, XCR0_AVX512),
    Feature("avx512vl", 7, 1, 31, XCR0_AVX512),
)}

# AArch64 features as Linux reports them in getauxval(AT_HWCAP) (arch/arm64 uapi hwcap.h).
HWCAPS = {"asimd": 1 << 1, "sha3": 1 << 17}


def features(names):
    return [FEATURES[n] for n in names]
