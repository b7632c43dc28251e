#!/usr/bin/env node
import { runSearch } from "../search/command.js";
import { run } from "./command.js";

const argv = process.argv.slice(2);
const code = argv[0] === "search" ? await runSearch(argv.slice(1)) : await run(argv);
if (code !== undefined) process.exitCode = code;
