#!/usr/bin/env node
// Each command loads only what it needs: a generator run whose inputs did not change never loads the pipeline.
const given = process.argv.slice(2);
// `help search` is the search server's own help, as `search --help` is.
const argv = given[0] === "help" && given[1] === "search" ? ["search", "--help"] : given;
(await import("../cache/compile-cache.js")).enableCompileCache();
const code =
  argv[0] === "search"
    ? await (await import("../../search/command.js")).runSearch(argv.slice(1))
    : await (await import("./command.js")).run(argv);
if (code !== undefined) process.exitCode = code;
