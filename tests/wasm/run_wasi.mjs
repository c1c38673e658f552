// SPDX-License-Identifier: Apache-2.0 OR MIT
// Runs a wasm32-wasi command module under node:wasi, as qemu-user runs a cross executable:
// its arguments and ROUNDSMITH_PATH pass through, no folder is opened to it, and its exit
// status is this process's.   node tests/wasm/run_wasi.mjs PROGRAM.wasm [ARGS...]
// (node 18 needs --experimental-wasi-unstable-preview1; node 20 accepts it and ignores it)
import { readFile } from "node:fs/promises";
import { WASI } from "node:wasi";

const [file, ...args] = process.argv.slice(2);
const env = {};
if (process.env.ROUNDSMITH_PATH !== undefined)
    env.ROUNDSMITH_PATH = process.env.ROUNDSMITH_PATH;
const wasi = new WASI({ version: "preview1", args: [file, ...args], env, returnOnExit: true });
const module = await WebAssembly.compile(await readFile(file));
// Node 18 (Debian 12's) has wasiImport; getImportObject came with node 20.
const imports = wasi.getImportObject ? wasi.getImportObject()
    : { wasi_snapshot_preview1: wasi.wasiImport };
const instance = await WebAssembly.instantiate(module, imports);
process.exitCode = wasi.start(instance);
