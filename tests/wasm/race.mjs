// SPDX-License-Identifier: Apache-2.0 OR MIT
// Candidate builds of the folder's exports raced round-robin in one node process, each timed
// on the module's own memory (no copies from JavaScript), median of the turns: SHA3-256 of
// 64 KiB (the block loop; ns per block), Keccak-256 of 32 bytes (one permutation and the
// call), KT128 of 64 KiB (eight leaves; ns per KiB) and the ChaCha20 keystream of 64 KiB (ns per
// block), and keccak_p1600_x2 (24 rounds, two states) where a build exports it.
//   node tests/wasm/race.mjs [--turns N] [--tsv] NAME=FILE.wasm ...
import { readFileSync } from "node:fs";

const args = process.argv.slice(2);
let turns = 11, tsv = false;
const cands = [];
for (let i = 0; i < args.length; i++) {
    if (args[i] === "--turns")
        turns = Number(args[++i]);
    else if (args[i] === "--tsv")
        tsv = true;
    else {
        const eq = args[i].indexOf("=");
        cands.push(eq > 0 ? [args[i].slice(0, eq), args[i].slice(eq + 1)] : [args[i], args[i]]);
    }
}

function stubs(module) {
    const out = {};
    for (const imp of WebAssembly.Module.imports(module)) {
        out[imp.module] ??= {};
        out[imp.module][imp.name] = imp.name === "environ_sizes_get" || imp.name === "environ_get" ? () => 0 : () => 52;
    }
    return out;
}

const LEN = 64 * 1024;
const runs = [];
for (const [name, file] of cands) {
    const module = new WebAssembly.Module(readFileSync(file));
    const e = new WebAssembly.Instance(module, stubs(module)).exports;
    e._initialize?.();
    const inp = e.roundsmith_alloc(LEN), out = e.roundsmith_alloc(64);
    new Uint8Array(e.memory.buffer, inp, LEN).forEach((_, i, a) => { a[i] = (i * 131 + 7) & 255; });
    const digest = () => Buffer.from(new Uint8Array(e.memory.buffer, out, 32)).toString("hex");
    const has = (f) => typeof e[f] === "function";
    const key = e.roundsmith_alloc(64), ks = e.roundsmith_alloc(LEN);
    let check = "";
    if (has("sha3_256")) {
        e.sha3_256(out, inp, LEN);
        check += digest();
        e.keccak256(out, inp, 32);
        check += digest();
        e.kt128(out, 32, inp, LEN, 0, 0);
        check += digest();
    }
    if (has("chacha20_keystream")) {
        e.chacha20_keystream(ks, key, 256, key + 32, 5n, LEN / 64);
        check += Buffer.from(new Uint8Array(e.memory.buffer, ks, 64)).toString("hex");
    }
    const jobs = [];
    if (has("sha3_256"))
        jobs.push(["sha3_256 ns/block", () => e.sha3_256(out, inp, LEN), 8, Math.ceil((LEN + 1) / 136)],
                  ["keccak256(32) ns", () => e.keccak256(out, inp, 32), 20000, 1],
                  ["kt128 ns/KiB", () => e.kt128(out, 32, inp, LEN, 0, 0), 8, LEN / 1024]);
    if (has("keccak_p1600_x2"))
        jobs.push(["keccak_p1600_x2(24) ns", () => e.keccak_p1600_x2(ks, 24), 20000, 1]);
    if (has("chacha20_keystream"))
        jobs.push(["chacha20 ns/block", () => e.chacha20_keystream(ks, key, 256, key + 32, 5n, LEN / 64), 8, LEN / 64]);
    runs.push({ name, check, jobs, times: jobs.map(() => []) });
}
for (const r of runs)
    if (r.check !== runs[0].check)
        throw new Error(`${r.name} disagrees with ${runs[0].name}`);
for (let t = 0; t < turns; t++) {
    for (const r of runs) {
        r.jobs.forEach(([, f, reps, per], j) => {
            const t0 = process.hrtime.bigint();
            for (let i = 0; i < reps; i++)
                f();
            r.times[j].push(Number(process.hrtime.bigint() - t0) / reps / per);
        });
    }
}
const med = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const heads = runs[0].jobs.map(([h]) => h);
const firsts = runs.map((r) => med(r.times[0]));
const best = Math.min(...firsts);
console.log(tsv ? ["candidate", ...heads].join("\t")
                : `node ${process.version} (V8 ${process.versions.v8}); ${turns} turns round-robin, median; sorted by ${heads[0]}`);
if (!tsv)
    console.log(`  ${"candidate".padEnd(52)} ${heads.map((h) => h.padStart(18)).join(" ")}  vs best`);
for (const r of runs.sort((a, b) => med(a.times[0]) - med(b.times[0]))) {
    const cells = r.times.map((t) => med(t).toFixed(1));
    console.log(tsv ? [r.name, ...cells].join("\t")
                    : `  ${r.name.padEnd(52)} ${cells.map((c) => c.padStart(18)).join(" ")}  ${(med(r.times[0]) / best).toFixed(3)}x`);
}
