# SPDX-License-Identifier: Apache-2.0 OR MIT
"""roundsmith: a generator of verified C kernels for Keccak-p[1600] and ChaCha."""

VERSION = "0.2.0"
