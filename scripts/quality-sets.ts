/** Every labelled set's figures, the index alone (a before/after check for ranking changes). */
import { discoveryQuality } from "./discovery-quality.js";

const sets = ["discovery.json", "unseen.json", "holdout.json", "blind.json", "stripe.json", "blind-2.json", "blind-3.json"];
for (const set of sets) {
  const { all } = await discoveryQuality(set);
  if (process.env.MISSES === set) for (const miss of all.misses) console.log(`  ${miss}`);
  console.log(
    `${set.padEnd(14)} n=${all.queries} @1 ${all.hitAt1.toFixed(3)} @5 ${all.hitAt5.toFixed(3)} @10 ${all.hitAt10.toFixed(3)} mrr ${all.mrr.toFixed(3)}`,
  );
}
for (const set of ["unseen.json", "holdout.json"]) {
  const narrowed = await discoveryQuality(set, true);
  console.log(`${set} narrowed @1 ${narrowed.all.hitAt1.toFixed(3)} @5 ${narrowed.all.hitAt5.toFixed(3)}`);
}
for (const [set, picks] of [
  ["unseen.json", "unseen.model-picks.json"],
  ["holdout.json", "holdout.model-picks.json"],
] as const) {
  const { all } = await discoveryQuality(set, false, picks);
  console.log(`${set} model @1 ${all.hitAt1.toFixed(3)} @5 ${all.hitAt5.toFixed(3)}`);
  if (process.env.MISSES) for (const miss of all.misses) console.log(`  ${miss}`);
}
