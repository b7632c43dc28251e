import { createHash } from "node:crypto";
import anyAscii from "any-ascii";
import { words } from "oapi-mcp-gen-runtime";

/** MCP clients accept tool names of this shape; the generator never emits another. */
export const TOOL_NAME_PATTERN = /^[a-z0-9_]{1,64}$/;

const MAX_LENGTH = 64;

/**
 * The tool name for an operationId: `MemoService_ListMemos → memo_list_memos`.
 * A leading `…Service` segment loses its suffix; everything is snake_case; long names keep a hash. Letters of other
 * scripts are transliterated (`获取用户` → `huo_qu_yong_hu`, `удалить` → `udalit`); an id with nothing to spell
 * (only format characters, say) becomes `op_<hash>`.
 */
export function toolNameFromOperationId(operationId: string): string {
  const segments = inLatin(operationId).split("_");
  const head = segments[0] ?? "";
  if (segments.length > 1 && /^.+Service$/.test(head)) segments[0] = head.slice(0, -"Service".length);
  return fitLength(words(segments.join("_")).join("_"), operationId);
}

/** Document text in Latin letters: other scripts transliterated (`获取用户` → `HuoQuYongHu`), as names and titles spell it. */
export function inLatin(text: string): string {
  return anyAscii(text.normalize("NFC"));
}

/**
 * The tool name for an operation without an operationId: `GET /users/{id}/repos → get_users_id_repos`. One too long
 * leaves out the parameters inside the path, which name no action (Bitbucket's
 * `POST /repositories/{workspace}/{repo_slug}/pullrequests/{pull_request_id}/merge` → `post_repositories_pullrequests_merge`),
 * keeping a last one (`…/pullrequests/{pull_request_id}` reads one pull request); a hash only when that is too long too.
 */
export function toolNameFromRoute(method: string, path: string): string {
  const source = `${method} ${path}`;
  const full = words(source).join("_");
  if (full.length <= MAX_LENGTH) return full;
  const segments = path.split("/").filter((segment) => segment !== "");
  const named = segments.filter((segment, index) => !/^\{.*\}$/.test(segment) || index === segments.length - 1);
  return fitLength(words(`${method} ${named.join(" ")}`).join("_"), source);
}

/** Keeps a name within 64 characters, replacing the tail with a hash of the full source text. */
function fitLength(name: string, source: string): string {
  const hash = () => createHash("sha256").update(source).digest("hex").slice(0, 8);
  if (name === "") return `op_${hash()}`;
  if (name.length <= MAX_LENGTH) return name;
  const tail = hash();
  return `${name.slice(0, MAX_LENGTH - tail.length - 1).replace(/_+$/, "")}_${tail}`;
}

/** Makes names unique in the given order by appending `_2`, `_3`, … to later duplicates. */
export function uniqueNames(names: readonly string[]): string[] {
  const taken = new Set(names);
  const seen = new Set<string>();
  return names.map((name) => {
    if (!seen.has(name)) {
      seen.add(name);
      return name;
    }
    for (let n = 2; ; n++) {
      const suffix = `_${n}`;
      const candidate = `${name.slice(0, MAX_LENGTH - suffix.length)}${suffix}`;
      if (!taken.has(candidate) && !seen.has(candidate)) {
        seen.add(candidate);
        return candidate;
      }
    }
  });
}
