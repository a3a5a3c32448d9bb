// SPDX-License-Identifier: GPL-2.0 OR MIT
//
// isutf8.js - simdutf, through Node's buffer.isUtf8(), timed on the corpora
// of `validate_bench write DIR`, the same way validate_bench times the C
// implementations (samples of 20 ms or more, median per unit).
// Usage: node isutf8.js DIR SAMPLES
// Prints "simdutf <corpus> <unit> <valid 0|1> <median ns per unit>".
'use strict';
const fs = require('fs');
const path = require('path');
const { isUtf8 } = require('buffer');

const [dir, samplesArg] = process.argv.slice(2);
const samples = Number(samplesArg || 11);
const SAMPLE_NS = 20000000n;
const kinds = ['ascii', 'latin', 'cjk', 'emoji', 'ill-formed'];
const nameSizes = [16, 20, 60, 255];

function pass(units) {
  let valid = 0;
  for (const u of units)
    valid += isUtf8(u) ? 1 : 0;
  return valid;
}

function timeUnits(units) {
  let passes = 1;
  let sink = 0;
  for (;;) {
    const start = process.hrtime.bigint();
    for (let p = 0; p < passes; p++)
      sink += pass(units);
    const elapsed = process.hrtime.bigint() - start;
    if (elapsed >= SAMPLE_NS)
      break;
    passes *= elapsed < SAMPLE_NS / 16n ? 8 : 2;
  }
  const times = [];
  for (let s = 0; s < samples; s++) {
    const start = process.hrtime.bigint();
    for (let p = 0; p < passes; p++)
      sink += pass(units);
    times.push(Number(process.hrtime.bigint() - start));
  }
  times.sort((a, b) => a - b);
  if (sink < 0)
    console.error(sink);
  return times[Math.floor(samples / 2)] / passes / units.length;
}

function timeCorpus(corpus, unit) {
  const buf = fs.readFileSync(path.join(dir, corpus + '.bin'));
  const units = [];
  for (let at = 0; at + unit <= buf.length; at += unit)
    units.push(buf.subarray(at, at + unit));
  const valid = pass(units) === units.length ? 1 : 0;
  console.log(`simdutf ${corpus} ${unit} ${valid} ${timeUnits(units).toFixed(3)}`);
}

for (const kind of kinds) {
  timeCorpus(`${kind}-text`, 65536);
  for (const size of nameSizes)
    timeCorpus(`${kind}-name${size}`, size);
}
