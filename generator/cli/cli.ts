#!/usr/bin/env node
// Each command loads only what it needs: a generator run whose inputs did not change never loads the pipeline.
const argv = process.argv.slice(2);
(await import("../cache/compile-cache.js")).enableCompileCache();
const code =
  argv[0] === "search"
    ? await (await import("../../search/command.js")).runSearch(argv.slice(1))
    : await (await import("./command.js")).run(argv);
if (code !== undefined) process.exitCode = code;
