// @ts-check
// Preloaded (`--import`) into profiled processes: node writes a `--cpu-prof` profile only on a normal
// exit, so turn SIGTERM into one.
process.once('SIGTERM', () => process.exit(0));
