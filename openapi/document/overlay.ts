import { readDocumentFile } from "./load.js";
import { DocumentParseError } from "./parse-error.js";
import { isJsonObject, type JsonObject } from "./types.js";

/** An OpenAPI Overlay document (1.0, or 1.1 with `copy`), read from a file and checked. */
export interface Overlay {
  /** Where it was read from, as given: named in messages. */
  source: string;
  /** The Overlay version it is written in (1.0.x or 1.1.x): 1.1 adds `copy`. */
  version: string;
  title: string;
  actions: readonly OverlayAction[];
}

/** One action: a JSONPath target, and what to merge into it, or that it goes. */
export interface OverlayAction {
  target: string;
  description?: string;
  update?: unknown;
  remove?: boolean;
  copy?: string;
}

/** What applying overlays did: the document, and each action that matched nothing (said as a warning). */
export interface OverlaidDocument {
  document: JsonObject;
  unmatched: string[];
}

/** The action's words for messages: its number, its description when it has one, its target. */
function named(overlay: Overlay, index: number, action: OverlayAction): string {
  return `${overlay.source}: action ${index + 1}${action.description ? ` (${action.description})` : ""} targeting ${action.target}`;
}

/** Checks an overlay document's shape (Overlay 1.0/1.1), saying in one line per problem what is wrong. */
function checkedOverlay(value: JsonObject, source: string): Overlay {
  const problems: string[] = [];
  const version = value.overlay;
  if (typeof version !== "string" || !/^1\.[01]\.\d+$/.test(version))
    problems.push(`"overlay" must name the Overlay version (1.0.0 or 1.1.0), not ${JSON.stringify(version) ?? "nothing"}`);
  const info = value.info;
  const title = isJsonObject(info) && typeof info.title === "string" && typeof info.version === "string" ? info.title : undefined;
  if (title === undefined) problems.push('"info" must have a title and a version');
  const actions = value.actions;
  if (!Array.isArray(actions) || actions.length === 0) problems.push('"actions" must be a list of at least one action');
  const checked: OverlayAction[] = [];
  for (const [index, action] of (Array.isArray(actions) ? actions : []).entries()) {
    const where = `action ${index + 1}`;
    if (!isJsonObject(action)) {
      problems.push(`${where} must be an object`);
      continue;
    }
    const { target, update, remove, copy, description } = action;
    if (typeof target !== "string" || !target.startsWith("$")) problems.push(`${where}: "target" must be a JSONPath starting with $`);
    else if (update === undefined && remove !== true && copy === undefined)
      problems.push(`${where}: give "update", "remove: true" or "copy"`);
    else if (remove === true && target === "$") problems.push(`${where}: the whole document cannot be removed`);
    else if (copy !== undefined && (typeof copy !== "string" || !version?.toString().startsWith("1.1")))
      problems.push(`${where}: "copy" is Overlay 1.1, a JSONPath to copy from`);
    else
      checked.push({
        target,
        ...(typeof description === "string" ? { description } : {}),
        ...(update !== undefined ? { update } : {}),
        ...(remove === true ? { remove: true } : {}),
        ...(typeof copy === "string" ? { copy } : {}),
      });
  }
  if (problems.length > 0) throw new DocumentParseError(`${source}: not an OpenAPI Overlay: ${problems.join("; ")}`);
  return { source, version: String(version), title: title ?? "", actions: checked };
}

/** Reads and checks an overlay file (YAML or JSON). */
export async function readOverlay(path: string): Promise<Overlay> {
  const { document } = await readDocumentFile(path);
  return checkedOverlay(document, path);
}

/**
 * Applies overlays in order to a document as written (before anything reads it), with openapi-format's Overlay
 * implementation (JSONPath by RFC 9535, 1.0 and 1.1). Returns the new document and the actions that matched nothing.
 */
export async function applyOverlays(document: JsonObject, overlays: readonly Overlay[]): Promise<OverlaidDocument> {
  if (overlays.length === 0) return { document, unmatched: [] };
  const { openapiOverlay } = await import("openapi-format");
  let current: JsonObject = document;
  const unmatched: string[] = [];
  for (const overlay of overlays) {
    const actions = overlay.actions.map((action) => ({ ...action }));
    const { data, resultData } = await openapiOverlay(current, {
      overlaySet: { overlay: overlay.version, info: { title: overlay.title, version: "1" }, actions },
    });
    const unused = Array.isArray(resultData.unusedActions) ? resultData.unusedActions : [];
    actions.forEach((action, index) => {
      if (unused.includes(action)) unmatched.push(named(overlay, index, action));
    });
    if (!isJsonObject(data)) throw new DocumentParseError(`${overlay.source}: the overlay left no document`);
    current = data;
  }
  return { document: current, unmatched };
}
