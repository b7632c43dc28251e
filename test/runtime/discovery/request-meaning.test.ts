import type { ToolDefinition } from "oapi-mcp-gen-runtime";
import { searchableOperation } from "oapi-mcp-gen-runtime/discovery";
import { OperationSearchIndex } from "oapi-mcp-gen-runtime/operation-index";
import { describe, expect, it } from "vitest";
import { lexiconFor } from "../../../generator/model/index.js";
import { askingClauseFirst } from "../../../runtime/discovery/action-words.js";
import { contradiction, shownSummary } from "../../../runtime/discovery/hit-summary.js";
import { idSuppliers, suppliedIds } from "../../../runtime/discovery/id-suppliers.js";
import { queryTermGroups } from "../../../runtime/discovery/request-words.js";
import { registryTool as tool } from "../../helpers/registry-tool.js";

/** A request's term groups, as the index reads them with no lexicon: `known` tells the document's terms. */
function groupsOf(request: string, known: (term: string) => boolean = () => true): string[][] {
  return queryTermGroups(
    request,
    (term) => term,
    () => [],
    known,
  );
}

/** The name of the first result of a search over tools. */
function firstOver(tools: readonly ToolDefinition[]): (query: string) => string | undefined {
  const operations = tools.map((each, id) => searchableOperation(each, id, []));
  const index = new OperationSearchIndex(operations, undefined, lexiconFor(operations.flatMap((each) => each.summary.split(" "))));
  return (query) => tools[index.search(query)[0]?.id ?? -1]?.name;
}

const statusArgument = (values: string[]) => ({
  type: "object",
  properties: { id: { type: "integer" }, status: { type: "string", enum: values } },
  required: ["id"],
});

describe("what a request means, from the words of the document and of the language", () => {
  it("answers a request naming a state with the operation that sets it: an argument's values, or the constants a description lists", () => {
    const invoices = [
      tool("get_invoice", "GET", "/invoices/{id}", "Get an invoice"),
      tool("tag_invoice", "POST", "/invoices/{id}/tag", "Add a tag on an invoice"),
      tool("update_invoice", "PUT", "/invoices/{id}", "Update an invoice"),
      tool("invoice_status", "POST", "/invoices/{id}/updatestatus", "Update the status of an invoice", {
        inputSchema: statusArgument(["draft", "final", "paid"]),
      }),
    ];
    expect(firstOver(invoices)("mark invoice 2231 as paid")).toBe("invoice_status");
    expect(firstOver(invoices)("invoice 2231 got paid today")).toBe("invoice_status");
    expect(firstOver(invoices)("invoice 2231 has been paid")).toBe("invoice_status");
    // Without the state among its values, nothing singles it out.
    const unnamed = invoices.map((each) => (each.name === "invoice_status" ? { ...each, inputSchema: statusArgument(["draft"]) } : each));
    expect(firstOver(unnamed)("invoice 2231 got paid today")).not.toBe("invoice_status");

    const projects = [
      tool("delete_project", "DELETE", "/projects/{id}", "Removes a project."),
      tool("create_project", "POST", "/projects", "Creates a new project."),
      tool("project_status", "PUT", "/v2/projects/{id}/status", "Changes project status if possible.", {
        description: "Changes project status if possible. The status is one of: OPEN, STARTED, CANCELLED.",
      }),
    ];
    // The verb names a state the operation sets: it does what is asked, whatever its method.
    expect(firstOver(projects)("cancel project 6120")).toBe("project_status");
    const unlisted = projects.map((each) => ({ ...each, description: each.title }));
    expect(firstOver(unlisted)("cancel project 6120")).not.toBe("project_status");
    // A placeholder in capitals is no state.
    expect(
      searchableOperation(tool("x", "PUT", "/x/{ID}", "X", { description: "Sets the status of PROJECT_ID." }), 0, []).states,
    ).toBeUndefined();
  });

  it("takes a verb that also makes something (`open`) as making it, not as the state it names", () => {
    const pulls = [
      tool("list_pulls", "GET", "/pulls", "List pull requests"),
      tool("create_pull", "POST", "/pulls", "Create a pull request"),
      tool("update_pull", "PATCH", "/pulls/{id}", "Update a pull request", { inputSchema: statusArgument(["open", "closed"]) }),
    ];
    const first = firstOver(pulls);
    expect(first("open a pull request")).toBe("create_pull");
    // A question about things reads them, whatever `open` may mean.
    expect(first("what pull requests are still open?")).toBe("list_pulls");
  });

  it("reads the clause that asks first, undoes what `stop …ing` names, and asks for errors when something failed", () => {
    const isVerb = (word: string) => ["record", "link", "cancel"].includes(word);
    expect(askingClauseFirst("Acme wired EUR 1,200 for invoice 5521, record it", isVerb)).toBe(
      "record it, Acme wired EUR 1,200 for invoice 5521",
    );
    expect(askingClauseFirst("#88 can't start until #80 is finished, link them", isVerb)).toBe(
      "link them, #88 can't start until #80 is finished",
    );
    expect(askingClauseFirst("cancel project 12, the client pulled out", isVerb)).toBe("cancel project 12, the client pulled out");

    const first = firstOver([
      tool("delete_email", "DELETE", "/user/emails", "Delete email addresses"),
      tool("watch_repo", "PUT", "/repos/{owner}/{repo}/subscription", "Watch a repo"),
      tool("unwatch_repo", "DELETE", "/repos/{owner}/{repo}/subscription", "Unwatch a repo"),
      tool("list_labels", "GET", "/labels", "List labels"),
      tool("batch_errors", "GET", "/batches/{id}/errors", "Get batch errors"),
      tool("process_batch", "POST", "/batches/{id}/process", "Process batch labels"),
    ]);
    expect(first("stop watching infra/legacy-scripts")).toBe("unwatch_repo");
    expect(first("some labels in batch 2102390 didn't generate, why?")).toBe("batch_errors");
  });

  it("takes `with … in the name` as a search, and `where's my …` as asking for its status or where it is", () => {
    const first = firstOver([
      tool("list_keys", "GET", "/repos/{owner}/{repo}/keys", "List a repository's keys"),
      tool("list_org_repos", "GET", "/orgs/{org}/repos", "List an organization's repos"),
      tool("search_repos", "GET", "/repos/search", "Search for repositories"),
      tool("list_package_types", "GET", "/packages", "List custom package types"),
      tool("get_package_type", "GET", "/packages/{id}", "Get custom package type by id"),
      tool("tracking", "GET", "/tracking", "Get tracking information", { description: "Retrieve package tracking information" }),
    ]);
    expect(first("any repos with kubernetes in the name?")).toBe("search_repos");
    expect(first("where's my package? UPS 1Z999AA10123456784")).toBe("tracking");
  });

  it("reads a verb with a particle (`drop off`, `write off`) as other than the verb alone (`drop` → delete)", () => {
    const first = firstOver([
      tool("list_points", "POST", "/service_points/list", "List service points", {
        description: "List carrier service points by location",
      }),
      tool("delete_tag", "DELETE", "/tags/{name}", "Delete tag"),
      tool("delete_batch", "DELETE", "/batches/{id}", "Delete batch"),
    ]);
    expect(first("dhl drop-off points near Alexanderplatz, Berlin 10178")).toBe("list_points");
  });

  it("reads an irregular past as its verb (paid → pay, and what pay means in the document), but not a verb that makes grammar (got)", () => {
    const lexicon = lexiconFor(["payment", "get", "invoice"]);
    expect(lexicon.related.paid).toContain("payment");
    expect(lexicon.related.got).toBeUndefined();
    const first = firstOver([
      tool("get_payment", "GET", "/invoices/{id}/payments/{payment}", "Get a payment"),
      tool("send_invoice", "POST", "/invoices/{id}/send", "Send an invoice"),
      tool("add_payment", "POST", "/invoices/{id}/payments", "Adds a payment to the invoice"),
    ]);
    expect(first("we paid invoice 677 today")).toBe("add_payment");
  });

  it("takes a dictionary word one edit from the document's as itself, not as a misspelling (pull is no typo of full)", () => {
    const tools = [
      tool("full_report", "GET", "/reports/{id}/full", "Get the full report"),
      tool("sync_bank", "POST", "/banks/{id}/synchronize", "Synchronize bank transactions"),
    ];
    const operations = tools.map((each, id) => searchableOperation(each, id, []));
    const lexicon = lexiconFor(["report", "synchronize"], ["full", "report", "synchronize", "transactions"]);
    expect(lexicon.words).toContain("pull");
    expect(lexicon.words).not.toContain("full");
    const found = (index: OperationSearchIndex) => index.search("pull").map((hit) => tools[hit.id]?.name);
    expect(found(new OperationSearchIndex(operations, undefined, lexicon))).toEqual([]);
    // Without the dictionary's word, `pull` is taken for a misspelt `full`.
    expect(found(new OperationSearchIndex(operations, undefined, { ...lexicon, words: [] }))).toEqual(["full_report"]);
  });

  it("reads `record` first as making a record, and a request beginning with a plural as naming things, not a verb", () => {
    const first = firstOver([
      tool("get_payment", "GET", "/payments/{id}", "Get a payment"),
      tool("list_payments", "GET", "/payments", "List payments"),
      tool("record_payment", "POST", "/payments", "Create a payment"),
      tool("list_labels", "GET", "/boards/{id}/labels", "List labels on a board"),
      tool("label_card", "POST", "/cards/{id}/labels", "Label a card"),
    ]);
    expect(first("record the payment from Acme")).toBe("record_payment");
    const groups = (request: string) => groupsOf(request);
    expect(groups("record the payment from Acme")[0]).toContain("creat");
    expect(groups("records of the payment")[0]).not.toContain("creat");
    expect(first("labels in use on board 12")).toBe("list_labels");
    expect(first("label card 12")).toBe("label_card");
  });

  it("reads a word with a particle after its object as a verb that acts (`hand all his folders over`)", () => {
    expect(askingClauseFirst("John is leaving, hand all his folders over to Ann", () => false)).toBe(
      "hand all his folders over to Ann, John is leaving",
    );
    const first = firstOver([
      tool("get_folder", "GET", "/folders/{id}", "Get folder"),
      tool("list_folder_items", "GET", "/folders/{id}/items", "List items in folder"),
      tool("transfer_folders", "PUT", "/users/{id}/folders", "Transfer owned folders"),
    ]);
    expect(first("hand all his folders over to Ann")).toBe("transfer_folders");
    expect(first("his folders")).not.toBe("transfer_folders");
  });

  it("reads an unknown `un…` verb first as undoing (removing), but not an adjective (`unpaid`) or a word with its own meaning (`undelete`)", () => {
    const groups = (request: string) => groupsOf(request, (term) => term === "invoic");
    expect(groups("unmatch the payments on invoice 2231")[0]).toEqual(["unmatch", "remov", "delet", "match"]);
    expect(groups("unpaid invoices")[0]).toEqual(["unpaid"]);
    expect(groups("undelete the file")[0]).toContain("restor");
    const first = firstOver([
      tool("list_payments", "GET", "/payments", "List payments"),
      tool("reconcile", "POST", "/reconcile", "Reconcile a transaction or a document"),
      tool("unreconcile", "DELETE", "/reconcile", "Remove payments by an object"),
    ]);
    expect(first("unmatch the payments on invoice 2231")).toBe("unreconcile");
  });

  it("takes what happens `whenever …` as the event a webhook is for (words meant, not said), and a webhook as a subscription", () => {
    const groups = groupsOf("call https://hooks.example.io/tms every time a job's status changes", () => false);
    expect(groups[0]).toEqual(["webhook", "hook", "subscription", "callback"]);
    expect(groups.slice(2, -1)).toEqual([
      ["", "job"],
      ["", "s"],
      ["", "status"],
      ["", "chang"],
    ]);
    // Without `whenever`, the same words say what to do.
    expect(groupsOf("change the job status", () => false)[1]).toEqual(["job"]);
  });

  it("finds a document's compound word in the dictionary as two words (downpayment is a down payment, which a deposit is)", () => {
    const lexicon = lexiconFor(["downpayment", "invoice"]);
    expect(lexicon.related.deposit).toContain("downpayment");
    expect(lexicon.related.deposit).not.toContain("invoice");
  });

  it("reads a verb the document lacks as its verb when WordNet defines both alike (match → reconcile), and not a verb the document uses", () => {
    const lexicon = lexiconFor(["reconcile", "transaction", "invoice"]);
    expect(lexicon.related.match).toContain("reconcil");
    // `replace` is defined with `another` too, which many definitions use: no kin.
    expect(lexicon.related.replace ?? []).not.toContain("reconcil");
    expect(lexiconFor(["reconcile", "match"]).related.match ?? []).not.toContain("reconcil");
    const first = firstOver([
      tool("list_transactions", "GET", "/transactions", "List bank transactions"),
      tool("get_transaction", "GET", "/transactions/{id}", "Get a bank transaction"),
      tool("get_invoice", "GET", "/invoices/{id}", "Get an invoice"),
      tool("reconcile", "POST", "/reconcile", "Reconcile a transaction or a document"),
    ]);
    expect(first("match bank transaction 99812 with invoice 2231")).toBe("reconcile");
  });

  it("reads `every month` as a schedule (recurring), not as every item of a list, and a stem that is a verb (billing → bill) as a verb", () => {
    const known = (term: string) => ["bill", "client", "host", "month", "recur"].includes(term);
    expect(groupsOf("bill client 88 for hosting every month", known)).toContainEqual(["recur"]);
    expect(groupsOf("bill client 88 for hosting every month", known)).not.toContainEqual(["every", "list"]);
    expect(lexiconFor(["billing", "invoice"]).verbs).toContain("bill");
    const first = firstOver([
      tool("list_recurring", "GET", "/recurringinvoices", "List recurring invoices"),
      tool("get_recurring", "GET", "/recurringinvoices/{id}", "Get a recurring invoice"),
      tool("create_recurring", "POST", "/recurringinvoices", "Create a recurring invoice"),
      tool("get_account", "GET", "/account", "Get the account and its billing address"),
    ]);
    expect(first("bill client 88 49 EUR for hosting every month")).toBe("create_recurring");
  });

  it("drops `new` beside a verb that makes (`add a new customer`), and keeps it where it asks to make or says which", () => {
    const known = (term: string) => ["add", "customer", "new", "issu", "bug", "any", "voicemail"].includes(term);
    expect(groupsOf("add a new customer", known)).toEqual([["add", "creat"], ["customer"]]);
    expect(groupsOf("new issue for the bug", known)[0]).toEqual(["new", "creat"]);
    expect(groupsOf("any new voicemails?", known)).toContainEqual(["new"]);
    const first = firstOver([
      tool("create_key", "POST", "/keys", "Create new API key"),
      tool("create_customer", "POST", "/customers", "Create a customer"),
    ]);
    expect(first("add a new customer")).toBe("create_customer");
  });
});

describe("what a search result says an operation does", () => {
  it("follows a generic summary with the description's first sentence, where it says more", () => {
    const hangUp = tool("update_call", "POST", "/Calls/{Sid}", "Update call", {
      description: "Initiates a call redirect or terminates a call. Returns the call.",
    });
    expect(shownSummary(hangUp)).toBe("Update call: Initiates a call redirect or terminates a call.");
    // A description that repeats the name, a note or boilerplate adds nothing.
    const repeats = tool("delete_address", "DELETE", "/addresses/{id}", "Delete an address", {
      description: "Deletes an existing address.",
    });
    expect(shownSummary(repeats)).toBe("Delete an address");
    const note = tool("list_tasks", "GET", "/tasks", "List tasks", { description: "> [!NOTE] > This endpoint is in public preview." });
    expect(shownSummary(note)).toBe("List tasks");
    const boilerplate = tool("create_api_keys", "POST", "/api_keys", "Create API keys", {
      description: "**This endpoint allows you to create a new API Key for the user.**",
    });
    expect(shownSummary(boilerplate)).toBe("Create API keys: Create a new API Key for the user.");
    // A summary that says more than the name stays as it is.
    const specific = tool("calls_update", "POST", "/Calls/{Sid}", "Hang up or redirect a call", {
      description: "Long text here about calls.",
    });
    expect(shownSummary(specific)).toBe("Hang up or redirect a call");
  });

  it("flags a summary whose verb contradicts the method", () => {
    expect(contradiction("DELETE", "Updates a payment")).toBe('its summary says "updates" but its method is DELETE');
    expect(contradiction("GET", "Delete the cache")).toBe('its summary says "delete" but its method is GET');
    expect(contradiction("PATCH", "Create or update custom properties")).toBeUndefined();
    expect(contradiction("POST", "Create a payment")).toBeUndefined();
    expect(contradiction("POST", "Search payments")).toBeUndefined();
  });
});

describe("which result supplies the id an operation needs", () => {
  const tools = [
    tool("list_invoices", "GET", "/invoices", "List invoices"),
    tool("get_invoice", "GET", "/invoices/{invoiceId}", "Get an invoice"),
    tool("add_payment", "POST", "/invoices/{invoice_id}/payments", "Add a payment to an invoice"),
    tool("list_issues", "GET", "/repos/{owner}/{repo}/issues", "List issues"),
    tool("edit_issue", "PATCH", "/repos/{owner}/{repo}/issues/{index}", "Edit an issue"),
    tool("get_user", "GET", "/users/{username}", "Get a user"),
  ];

  it("names the list of the id's collection, whatever the parameter is called there, and not for names a user gives", () => {
    const found = idSuppliers(tools);
    expect(found.get("add_payment")).toEqual([{ parameter: "invoice_id", supplier: "list_invoices" }]);
    expect(found.get("get_invoice")).toEqual([{ parameter: "invoiceId", supplier: "list_invoices" }]);
    // `owner` and `repo` are names the user has; `index` is the API's number, from the list of issues.
    expect(found.get("edit_issue")).toEqual([{ parameter: "index", supplier: "list_issues" }]);
    expect(found.has("get_user")).toBe(false);
  });

  it("says so on the result line, with the list's place where the same page shows it", () => {
    const found = idSuppliers(tools);
    expect(suppliedIds(found.get("add_payment"), new Map([["list_invoices", 3]]))).toBe("; invoice_id from list_invoices (result 3)");
    expect(suppliedIds(found.get("add_payment"), new Map())).toBe("; invoice_id from list_invoices");
    expect(suppliedIds(undefined, new Map())).toBe("");
  });

  it("puts what the document's links say first, in place of the list for the same parameter", () => {
    const linked = {
      get_invoice: [{ parameter: "invoiceId", supplier: "create_invoice" }],
      get_user: [{ parameter: "username", supplier: "list_invoices" }],
    };
    const found = idSuppliers(tools, linked);
    expect(found.get("get_invoice")).toEqual([{ parameter: "invoiceId", supplier: "create_invoice" }]);
    expect(found.get("get_user")).toEqual([{ parameter: "username", supplier: "list_invoices" }]);
    expect(found.get("add_payment")).toEqual([{ parameter: "invoice_id", supplier: "list_invoices" }]);
  });
});
