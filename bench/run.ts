/** `npm run bench`: every benchmark, printing Markdown tables with ratios against baselines measured in the same run. */
import { cpus, totalmem } from "node:os";
import { benchSearch } from "./search.js";

const machine = `${cpus()[0]?.model ?? "unknown CPU"} × ${cpus().length}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
process.stdout.write(`# oapi-mcp-gen benchmarks\n\nMachine: ${machine}\n\n`);
await benchSearch();
