import { describe, expect, it } from "vitest";
import { plainActions } from "../../../runtime/discovery/action-words.js";
import { OperationSearchIndex } from "../../../runtime/discovery/operation-index.js";
import { withoutValues } from "../../../runtime/discovery/request-values.js";

const words = (text: string) => text.split(/\s+/).filter((word) => word !== "");

describe("the values in a request as people type it", () => {
  it("takes out phone numbers, e-mails, URLs, amounts, dates, ids and what a message says, keeping their kind", () => {
    const cases: [string, string[], string[]][] = [
      ["text +1 555 010 4477 from our 646 number saying 'running late, be there in 10'", ["text", "from", "our", "number"], ["phone"]],
      ["email jane@acme.com with subject 'Your invoice is ready'", ["email", "with", "subject"], ["email"]],
      ["refund $20.50 on order 1204567890123", ["refund", "on", "order"], ["amount"]],
      ["how profitable were we in Q1 2024?", ["how", "profitable", "were", "we", "in", "?"], []],
      ["bills from 2024-03-01 to March 3rd at 3pm", ["bills", "from", "to", "at"], []],
      ["pick up the incoming call v3:Zr4TnB7yKc", ["pick", "up", "the", "incoming", "call"], []],
      ['move "Fix login bug" to (415) 555-0132', ["move", "to"], ["phone"]],
      ["send delivery and open events to https://api.shop.com/events", ["webhook", "delivery", "and", "open", "events"], ["url"]],
      ["call https://hooks.example.io/tms every time a job changes", ["webhook", "every", "time", "a", "job", "changes"], ["url"]],
      ["client 512 moved offices: 4 Canal Street, Manchester", ["client", "moved", "offices:", ",", "Manchester"], ["address"]],
      ["pls send to Jane Roe 500 main st apt 4 springfield", ["pls", "send", "to", "Jane", "Roe", "springfield"], ["address"]],
      // A currency's ISO code before the amount; three capitals that are no currency (`PRJ`) are not one.
      ["Acme wired EUR 1,200 for invoice 5521", ["Acme", "wired", "for", "invoice"], ["amount"]],
      ["look up PRJ 2026", ["look", "up", "PRJ"], []],
      // A reference another system made: an external id, not the API's own.
      ["find the shipment for our order ORD-55012", ["find", "the", "shipment", "for", "our", "order"], ["reference"]],
      ["look up the project our CMS calls PRJ-2026-0415", ["look", "up", "the", "project", "our", "CMS", "calls"], ["reference"]],
    ];
    for (const [request, kept, hints] of cases) {
      const found = withoutValues(request);
      expect(words(found.text), request).toEqual(kept);
      expect(found.hints, request).toEqual(hints);
    }
  });

  it("keeps an id-like word the document itself uses (x509, sha256), and words with a digit or two (ipv6, s3, mp3)", () => {
    expect(words(withoutValues("upload an x509 cert", (word) => word === "x509").text)).toEqual(["upload", "an", "x509", "cert"]);
    expect(words(withoutValues("ipv6 on s3 for mp3").text)).toEqual(["ipv6", "on", "s3", "for", "mp3"]);
  });

  it("says phrasal verbs and slang in the words APIs use", () => {
    const said = (request: string) => words(plainActions(request));
    expect(said("hang up call v3:abc")).toEqual(["hangup", "end", "call", "v3:abc"]);
    expect(said("loop priya in on task 12")).toEqual(["add", "follower", "priya", "on", "task", "12"]);
    expect(said("drop a comment on task 12")).toEqual(["comment", "on", "task", "12"]);
    expect(said("shut off subuser globex")).toEqual(["disable", "deactivate", "stop", "subuser", "globex"]);
    expect(said("have the bot say hello")).toEqual(["say", "hello"]);
  });
});

describe("requests as typed, ranked", () => {
  const operation = (id: number, method: string, path: string, operationId: string, summary: string, description = "") => ({
    id,
    method,
    path,
    operationId,
    summary,
    description,
    tags: "",
    parameters: "",
  });
  const index = new OperationSearchIndex([
    operation(0, "post", "/messages", "createMessage", "Send a message"),
    operation(1, "get", "/queues/{queue}/calls/{call}", "retrieveCallFromQueue", "Retrieve a call from a queue"),
    operation(2, "post", "/calls/{id}/actions/hangup", "callHangup", "Hangup call"),
    operation(3, "post", "/calls/{id}", "updateCall", "Update call", "Initiates a call redirect or terminates a call."),
    operation(4, "get", "/reports/profit", "getProfitReport", "Get profit and loss report"),
    operation(5, "get", "/contact_groups", "listContactGroups", "List contact groups"),
  ]);
  const first = (query: string) => index.search(query)[0]?.id;

  it("lets no phone number, amount or date outrank the words that say what to do", () => {
    expect(first("text +1 555 010 4477 saying I'm running late")).toBe(0);
    expect(first("hang up call CA1234567890abcdef")).toBe(2);
    expect(first("the profit report for Q1 2024")).toBe(4);
    expect(index.search("how profitable were we in Q1 2024?").map((hit) => hit.id)).not.toContain(5);
  });

  it("finds an operation by its description where the summary only repeats its name", () => {
    expect(first("terminate the call")).toBe(3);
  });
});
