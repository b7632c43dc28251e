import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { beforeAll, describe, expect, it } from "vitest";
import { parseDocumentText } from "../openapi/load.js";
import { normalizeDocument } from "../openapi/normalize.js";
import { LoadedApi } from "../search/loaded-api.js";
import { MEMOS } from "./helpers/search-server.js";

/** Labelled queries: what an assistant would type, and the operation it needs. Written from the APIs, not tuned to results. */
const QUERIES: [api: "github" | "memos", query: string, expected: string][] = [
  ["github", "create an issue", "issues/create"],
  ["github", "comment on an issue", "issues/create-comment"],
  ["github", "open a pull request", "pulls/create"],
  ["github", "merge a pull request", "pulls/merge"],
  ["github", "get repository contents of a file", "repos/get-content"],
  ["github", "list repositories for the authenticated user", "repos/list-for-authenticated-user"],
  ["github", "get the authenticated user", "users/get-authenticated"],
  ["github", "create a release", "repos/create-release"],
  ["github", "list branches", "repos/list-branches"],
  ["github", "fork a repository", "repos/create-fork"],
  ["github", "add labels to an issue", "issues/add-labels"],
  ["github", "trigger a workflow dispatch event", "actions/create-workflow-dispatch"],
  ["github", "list workflow runs for a repository", "actions/list-workflow-runs-for-repo"],
  ["github", "download workflow run logs", "actions/download-workflow-run-logs"],
  ["github", "search code", "search/code"],
  ["github", "create a gist", "gists/create"],
  ["github", "list organization members", "orgs/list-members"],
  ["github", "create a repository webhook", "repos/create-webhook"],
  ["github", "get a commit", "repos/get-commit"],
  ["github", "create a check run", "checks/create"],
  ["github", "star a repository", "activity/star-repo-for-authenticated-user"],
  ["github", "create a reference git ref", "git/create-ref"],
  ["github", "list issues in a repository", "issues/list-for-repo"],
  ["github", "delete a repository", "repos/delete"],
  ["github", "request reviewers for a pull request", "pulls/request-reviewers"],
  ["github", "create or update file contents", "repos/create-or-update-file-contents"],
  ["github", "list pull requests", "pulls/list"],
  ["github", "add a collaborator", "repos/add-collaborator"],
  ["github", "create a repository secret for actions", "actions/create-or-update-repo-secret"],
  ["github", "list commits", "repos/list-commits"],
  ["memos", "create a memo", "MemoService_CreateMemo"],
  ["memos", "list memos", "MemoService_ListMemos"],
  ["memos", "add a reaction to a memo", "MemoService_UpsertMemoReaction"],
  ["memos", "comment on a memo", "MemoService_CreateMemoComment"],
  ["memos", "delete attachment", "AttachmentService_DeleteAttachment"],
  ["memos", "sign in", "AuthService_SignIn"],
  ["memos", "update memo content", "MemoService_UpdateMemo"],
  ["memos", "create a personal access token", "UserService_CreatePersonalAccessToken"],
];

async function load(name: string, path: string, format: "json" | "yaml"): Promise<LoadedApi> {
  const { document } = await normalizeDocument(parseDocumentText(await readFile(path, "utf8"), format));
  return new LoadedApi(name, document, document.openapi, path, "", []);
}

describe("search quality over GitHub's and Memos' documents", () => {
  const apis = new Map<string, LoadedApi>();
  beforeAll(async () => {
    const github = createRequire(import.meta.url).resolve("@octokit/openapi/generated/api.github.com.json");
    apis.set("github", await load("github", github, "json"));
    apis.set("memos", await load("memos", MEMOS, "yaml"));
  }, 60_000);

  it("puts the expected operation in the top 5 for >= 95% of queries and first for >= 75%", () => {
    expect(QUERIES.length).toBeGreaterThanOrEqual(25);
    let reciprocalRanks = 0;
    let first = 0;
    let topFive = 0;
    const misses: string[] = [];
    for (const [name, query, expected] of QUERIES) {
      const api = apis.get(name) as LoadedApi;
      expect(api.byOperationId.has(expected), `${expected} exists`).toBe(true);
      const ranked = api
        .index()
        .search(query)
        .slice(0, 5)
        .map((hit) => api.operations[hit.id]?.operationId);
      const rank = ranked.indexOf(expected) + 1;
      if (rank > 0) reciprocalRanks += 1 / rank;
      if (rank === 1) first++;
      if (rank > 0) topFive++;
      if (rank !== 1) misses.push(`${query} → ${expected} at ${rank || ">5"} (got ${ranked.join(", ")})`);
    }
    const mrr = reciprocalRanks / QUERIES.length;
    console.log(
      `search quality: ${QUERIES.length} queries, first ${first}, top-5 ${topFive}, MRR ${mrr.toFixed(3)}\n  ${misses.join("\n  ")}`,
    );
    expect(topFive / QUERIES.length).toBeGreaterThanOrEqual(0.95);
    expect(first / QUERIES.length).toBeGreaterThanOrEqual(0.75);
  });
});
