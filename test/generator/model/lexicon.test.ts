import { OperationSearchIndex, type SearchableOperation } from "oapi-mcp-gen-runtime/operation-index";
import { describe, expect, it } from "vitest";
import { lexiconFor } from "../../../generator/model/index.js";

/** A searchable operation from its method, path and title (the rest left empty). */
function operation(id: number, method: string, path: string, summary: string): SearchableOperation {
  const operationId = summary.toLowerCase().replace(/\W+/g, "_");
  return { id, method, path, operationId, summary, description: "", tags: "", parameters: "" };
}

/** What a search over `operations` (with the lexicon of their summaries' words) puts first, as `METHOD path`. */
function firstOver(operations: readonly SearchableOperation[]): (query: string) => string | undefined {
  const over = new OperationSearchIndex(operations, undefined, lexiconFor(operations.flatMap((each) => each.summary.split(" "))));
  return (query) => {
    const best = operations[over.search(query)[0]?.id ?? -1];
    return best && `${best.method} ${best.path}`;
  };
}

const OPERATIONS = [
  operation(0, "GET", "/droplets", "List droplets"),
  operation(1, "POST", "/droplets", "Create a droplet"),
  operation(2, "DELETE", "/droplets/{id}", "Destroy a droplet"),
  operation(3, "GET", "/me", "Get the current user"),
  operation(4, "POST", "/issues/{id}/watchers", "Add a watcher"),
  operation(5, "DELETE", "/issues/{id}/watchers", "Remove a watcher"),
  operation(6, "GET", "/folders/{id}", "Get a folder"),
  operation(7, "GET", "/folders/{id}/items", "List items in folder"),
  operation(8, "GET", "/issues/{id}", "Get an issue"),
  operation(9, "DELETE", "/users/{id}/scheduler", "Delete the standup scheduler"),
  operation(10, "PATCH", "/meetings/{id}", "Update a standup meeting"),
  operation(11, "PATCH", "/users/{id}/scheduler", "Update the standup scheduler"),
];

describe("the lexicon built from WordNet over a document's words", () => {
  const lexicon = lexiconFor(OPERATIONS.flatMap((each) => each.summary.split(" ")));
  const index = new OperationSearchIndex(OPERATIONS, undefined, lexicon);
  const first = (query: string) => OPERATIONS[index.search(query)[0]?.id ?? -1]?.summary;

  it("knows two-word verbs of the commonest sense's kinds, and a request says them as one word", () => {
    expect(lexicon.related.tear_down).toContain("destroy");
    expect(first("tear down the staging droplet")).toBe("Destroy a droplet");
  });

  it("reads the `me` of `show me` as the one asking, not as the signed-in user", () => {
    expect(first("show me the droplets")).toBe("List droplets");
    expect(first("find me a droplet")).toBe("List droplets");
    expect(first("who am I signed in as?")).toBe("Get the current user");
  });

  it("reads what users say for what APIs name otherwise, and everyday turns of phrase", () => {
    // `stop watching` undoes a watch; `what's in` asks for the items; a ticket is an issue.
    expect(first("stop watching this issue")).toBe("Remove a watcher");
    expect(first("what's in the Reports folder?")).toBe("List items in folder");
    expect(first("find that ticket")).toBe("Get an issue");
  });

  it("reads an acronym's plural as the acronym, and the words users say for servers and webhooks", () => {
    const hosting = [
      operation(0, "GET", "/volumes", "Volumes List"),
      operation(1, "GET", "/regions", "Regions List"),
      operation(2, "POST", "/hooks", "Create a webhook"),
      operation(3, "POST", "/deployments", "Create a deployment"),
      operation(4, "GET", "/linode/instances", "Linodes List"),
    ];
    const top = firstOver(hosting);
    expect(top("list my VMs")).toBe("GET /linode/instances");
    expect(top("notify my endpoint whenever a deployment finishes")).toBe("POST /hooks");
  });

  it("puts a deletion after other changes when the request names no deletion", () => {
    expect(first("reschedule my standup to 10am")).toBe("Update a standup meeting");
    // The DELETE comes first in the document: it would win the tie.
    expect(first("the standup scheduler")).toBe("Update the standup scheduler");
    expect(first("delete the standup scheduler")).toBe("Delete the standup scheduler");
  });

  it("lets a request's first verb, when it changes something, decide over what later words mean", () => {
    // `looks` means get; `leave` comes first.
    const notes = [
      operation(0, "GET", "/notes/{id}", "Note"),
      operation(1, "POST", "/notes", "Post a note"),
      operation(2, "GET", "/notes", "Notes"),
    ];
    const hits = new OperationSearchIndex(notes).search("leave a note that looks good");
    expect(notes[hits[0]?.id ?? -1]?.summary).toBe("Post a note");
  });

  it("weighs most the operation whose object is the thing asked for, not the other thing named", () => {
    // Both name tasks and projects; `list the tasks in a project` asks for tasks. The inverse comes first in the document.
    const both = [
      operation(0, "GET", "/tasks/{task_gid}/projects", "Get projects a task is in"),
      operation(1, "GET", "/projects/{project_gid}/tasks", "Get tasks from a project"),
    ];
    const top = firstOver(both);
    expect(top("list the tasks in a project")).toBe("GET /projects/{project_gid}/tasks");
    expect(top("list the projects of a task")).toBe("GET /tasks/{task_gid}/projects");
    expect(top("list all tasks in a project")).toBe("GET /projects/{project_gid}/tasks");
    expect(top("show every project of this task")).toBe("GET /tasks/{task_gid}/projects");
  });

  it("reads a verb that names one of the API's things as making one, and an object's id as its prefix only", () => {
    const stripe = [
      operation(0, "GET", "/v1/refunds", "List all refunds"),
      operation(1, "POST", "/v1/refunds/{refund}", "Updates the specified refund"),
      operation(2, "POST", "/v1/refunds", "Create a refund"),
      operation(3, "GET", "/v1/customers/{customer}/subscriptions", "You can see a list of the customer's active subscriptions"),
      operation(4, "POST", "/v1/prices", "Creates a new price"),
      operation(5, "POST", "/v1/subscriptions", "Creates a new subscription on an existing customer"),
      operation(6, "GET", "/v1/newsletters/{id}/subscribers", "List the subscribers of a newsletter"),
      operation(7, "GET", "/v1/charges/{charge}", "Retrieves the details of a charge"),
    ];
    const top = firstOver(stripe);
    expect(top("refund ch_3MmlLrLkdIwHu7ix0snN0B15")).toBe("POST /v1/refunds");
    expect(top("Subscribe customer cus_Na6dX7aXxi11N4 to price_1MowQULkdIwHu7ixraBm864M")).toBe("POST /v1/subscriptions");
  });

  it("takes a word it knows the meaning of as said, not as a misspelling of the API's, and `my` as the member too", () => {
    const trello = [
      operation(0, "POST", "/members/{idMember}/boardStars", "Add a board star"),
      operation(1, "POST", "/boards", "Create a board"),
      operation(2, "GET", "/boards/{idBoard}", "Get a board"),
      operation(3, "GET", "/members/{idMember}/boards", "Get the boards of a member"),
    ];
    const top = firstOver(trello);
    expect(top("start a new board for the product launch")).toBe("POST /boards");
    expect(top("show all my boards")).toBe("GET /members/{idMember}/boards");
  });

  it("takes the thing whose field a request changes as the thing asked for (files and folders only fill the index)", () => {
    const jira = [
      operation(0, "PUT", "/priorities/{id}", "Update a priority"),
      operation(1, "PUT", "/issues/{id}", "Update an issue"),
      operation(2, "GET", "/issues/{id}", "Get an issue"),
      operation(3, "POST", "/files/content", "Upload file"),
      operation(4, "POST", "/folders", "Create folder"),
    ];
    const top = firstOver(jira);
    expect(top("change the priority of this issue to high")).toBe("PUT /issues/{id}");
    expect(top("update the priority of the issue")).toBe("PUT /issues/{id}");
    expect(top("update the priority")).toBe("PUT /priorities/{id}");
  });
});

describe("what the lexical resource costs a server", () => {
  it("serves GitHub's 1,223 operations a lexicon a fraction of its index's size, at most 24 meanings a word (times: npm run bench -- lexicon)", async () => {
    const { discoveryDataOf, searchableOperations } = await import("../../../generator/model/index.js");
    const { qualityDocument } = await import("../../../scripts/rank-quality.js");
    const { buildApiModel } = await import("../../../openapi/model/index.js");
    const { resolveConfig } = await import("../../../generator/config/index.js");
    const { selectOperations } = await import("../../../generator/select/index.js");
    const { buildTools } = await import("../../../generator/model/index.js");
    const { toolDefinition } = await import("../../../templates/tool-module.js");
    const model = buildApiModel((await qualityDocument("github")).document);
    const config = resolveConfig({ server: { name: "github" }, select: { all: true }, mode: "discovery" });
    const entries = selectOperations(model, config);
    const operations = searchableOperations(
      buildTools(model, entries, config).map(toolDefinition),
      entries.map((entry) => entry.tags),
      new Map(),
    );
    const data = discoveryDataOf({ operations, tags: entries.map((entry) => entry.tags), alwaysList: [], tagNotes: [] });
    const served = JSON.stringify(data.lexicon);
    // What a server parses at start beside its index: under a tenth of it (the index loads in about 0.2 s; bench/RESULTS.md).
    expect(served.length).toBeLessThan(0.1 * data.index.length);
    expect(Object.keys(data.lexicon?.related ?? {}).length).toBeGreaterThan(500);
    for (const meant of Object.values(data.lexicon?.related ?? {})) expect(meant.length).toBeLessThanOrEqual(24);
  }, 60_000);
});
