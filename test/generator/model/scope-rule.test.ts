import { describe, expect, it } from "vitest";
import { type GeneratorConfig, resolveConfig } from "../../../generator/config/index.js";
import { buildTools } from "../../../generator/model/index.js";
import { selectOperations } from "../../../generator/select/index.js";
import { normalizeDocument, parseDocumentText } from "../../../openapi/document/index.js";
import { buildApiModel } from "../../../openapi/model/index.js";

/** A notes API: reads and writes, an admin area by path and by tag, and one operation the document secures itself. */
const DOCUMENT = `
openapi: 3.0.3
info: { title: Notes, version: "1" }
components:
  securitySchemes:
    oauth: { type: oauth2, flows: { clientCredentials: { tokenUrl: "https://login.example.com/token", scopes: { notes:export: export } } } }
    key: { type: apiKey, in: header, name: X-Key }
paths:
  /notes:
    get: { operationId: listNotes, responses: { "200": { description: ok } } }
    post: { operationId: createNote, responses: { "201": { description: ok } } }
  /notes/search:
    post: { operationId: searchNotes, summary: Search notes, responses: { "200": { description: ok } } }
  /notes/{id}:
    parameters: [{ name: id, in: path, required: true, schema: { type: string } }]
    delete: { operationId: deleteNote, responses: { "204": { description: gone } } }
  /notes/export:
    post:
      operationId: exportNotes
      security: [{ oauth: [notes:export] }, { key: [] }]
      responses: { "200": { description: ok } }
  /admin/users:
    get: { operationId: listUsers, responses: { "200": { description: ok } } }
  /audit:
    get: { operationId: readAudit, tags: [Audit], responses: { "200": { description: ok } } }
`;

type Rule = NonNullable<GeneratorConfig["auth"]>["scopes"];

async function toolsWith(scopes: Rule, overrides: GeneratorConfig["overrides"] = {}) {
  const { document } = await normalizeDocument(parseDocumentText(DOCUMENT, "yaml", "notes.yaml"));
  const model = buildApiModel(document);
  const config = resolveConfig({ server: { name: "notes" }, select: { all: true }, auth: { scopes }, overrides });
  const tools = buildTools(model, selectOperations(model, config), config);
  return {
    scopes: Object.fromEntries(tools.map((tool) => [tool.operationId, tool.scopes ?? []])),
    warnings: tools.flatMap((t) => t.warnings),
  };
}

describe("scopes by rule (auth.scopes)", () => {
  it("gives reads the read scope and writes the write scope, by the tools' own read-only hint", async () => {
    const { scopes } = await toolsWith({ read: "notes:read", write: ["notes:write"] });
    expect(scopes).toMatchObject({
      listNotes: ["notes:read"],
      // A POST that searches is a read, as its annotation says.
      searchNotes: ["notes:read"],
      createNote: ["notes:write"],
      deleteNote: ["notes:write"],
    });
  });

  it("needs every matching rule's scopes (read or write, tag, path, operation), and the document's own scopes win", async () => {
    const { scopes } = await toolsWith({
      read: "notes:read",
      write: "notes:write",
      paths: { "/admin/**": "notes:admin" },
      tags: { Audit: ["notes:audit"] },
      operations: { deleteNote: ["notes:admin"] },
    });
    expect(scopes).toMatchObject({
      listUsers: ["notes:read", "notes:admin"],
      readAudit: ["notes:read", "notes:audit"],
      // A rule adds to the write scope, never stands in for it.
      deleteNote: ["notes:write", "notes:admin"],
      // The document names notes:export for it (the API key beside it never stands in): the rule leaves it alone.
      exportNotes: [],
    });
  });

  it("adds an override's scopes to the rule's", async () => {
    const { scopes } = await toolsWith({ write: "notes:write" }, { createNote: { scopes: ["notes:create"] } });
    expect(scopes.createNote).toEqual(["notes:create", "notes:write"]);
  });

  it("refuses an operationId the document does not have, and warns of a tag or path that matches nothing selected", async () => {
    await expect(toolsWith({ operations: { deleteNotes: "x" } })).rejects.toThrow(
      'auth.scopes.operations: "deleteNotes" is not an operationId in the document (did you mean "deleteNote"?)',
    );
    const { warnings } = await toolsWith({ tags: { Billing: "x" }, paths: { "/billing/**": "x" } });
    expect(warnings).toContain('auth.scopes: tag "Billing", path "/billing/**" match no selected operation');
  });
});
