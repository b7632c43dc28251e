/** What every stage stands on: user errors, progress lines, stage timings, package versions. */

export { sha256Hex } from "./digest.js";
export { ConfigShapeError, SelectionError, UserError } from "./errors.js";
export { packageVersion } from "./package-version.js";
export { Progress } from "./progress.js";
export { type Clock, NO_CLOCK, StageClock } from "./stage-clock.js";
