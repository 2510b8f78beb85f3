// Preloaded (`node -r`) into each process the CLI benchmark runs: writes the process's peak RSS
// (KiB) to the file named by $BENCH_MAX_RSS_FILE when it exits, so the benchmark can report the
// memory of whole `cdk8s-inference` processes without /usr/bin/time.
'use strict';
const fs = require('fs');
const out = process.env.BENCH_MAX_RSS_FILE;
if (out) process.on('exit', () => fs.writeFileSync(out, String(process.resourceUsage().maxRSS)));
