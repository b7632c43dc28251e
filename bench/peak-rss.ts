/** Loaded with `node --import` by the benchmarks: reports the process's peak RSS and CPU time (every thread) on exit. */
process.on("exit", () => {
  const usage = process.resourceUsage();
  process.stderr.write(`\nBENCH_MAX_RSS_KB=${usage.maxRSS}\nBENCH_CPU_US=${usage.userCPUTime + usage.systemCPUTime}\n`);
});
