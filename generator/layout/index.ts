/** How the emitted text is laid out: ts-morph structures printed, formatted as prettier formats, statement by statement. */

export { printedModule, renderCounts, renderModules, renderModuleWhole } from "./emit.js";
export { FORMAT_FINGERPRINT, formatTypeScript, formatTypeScriptInParts, topLevelParts } from "./format.js";
export { formatReadme } from "./readme-layout.js";
export { laidOutLine } from "./stable-lines.js";
export { stableStatement, statementsOf } from "./statement-layout.js";
export { formatTypesByMembers } from "./types-layout.js";
