// The suite's slowest test files and tests, from vitest's JSON report: printed, and with --write kept in
// bench/RESULTS.md ("## Test suite"). Usage: node scripts/slowest-tests.mjs .tmp/vitest.json [--write]
import { readFileSync, writeFileSync } from "node:fs";

const [report = ".tmp/vitest.json", ...flags] = process.argv.slice(2);
const run = JSON.parse(readFileSync(report, "utf8"));
const relative = (name) => name.slice(name.indexOf("/test/") + 1);
const files = run.testResults.map((file) => ({ name: relative(file.name), seconds: (file.endTime - file.startTime) / 1000 }));
const tests = run.testResults.flatMap((file) =>
  file.assertionResults.map((test) => ({ name: `${relative(file.name)} › ${test.fullName}`, seconds: (test.duration ?? 0) / 1000 })),
);
const started = Math.min(...run.testResults.map((file) => file.startTime));
const ended = Math.max(...run.testResults.map((file) => file.endTime));
const slowest = (items) => [...items].sort((a, b) => b.seconds - a.seconds).slice(0, 10);
const row = ({ name, seconds }) => `| ${seconds.toFixed(1)} | ${name.replaceAll("|", "\\|").slice(0, 160)} |`;
const section = [
  "## Test suite",
  "",
  `${run.numPassedTests} tests in ${files.length} files; vitest ran ${((ended - started) / 1000).toFixed(0)} s from the first file's start to the last one's end (three workers).`,
  "",
  "Slowest ten files:",
  "",
  "| s | file |",
  "|---|---|",
  ...slowest(files).map(row),
  "",
  "Slowest ten tests:",
  "",
  "| s | test |",
  "|---|---|",
  ...slowest(tests).map(row),
  "",
].join("\n");
process.stdout.write(`${section}\n`);
if (flags.includes("--write")) {
  const path = new URL("../bench/RESULTS.md", import.meta.url);
  const results = readFileSync(path, "utf8");
  const start = results.indexOf("## Test suite");
  const next = start < 0 ? -1 : results.indexOf("\n## ", start + 1);
  const kept = start < 0 ? `${results.trimEnd()}\n\n` : results.slice(0, start);
  writeFileSync(path, `${kept}${section}${next < 0 ? "" : `\n${results.slice(next + 1)}`}`);
}
