import type { DiscoveryData, ToolDefinition } from "oapi-mcp-gen-runtime";
import { DiscoveryService, searchableOperation } from "oapi-mcp-gen-runtime/discovery";
import { OperationSearchIndex } from "oapi-mcp-gen-runtime/operation-index";
import { describe, expect, it } from "vitest";
import { registryTool as tool } from "../../helpers/registry-tool.js";

const TOOLS = [
  tool("meeting_create", "POST", "/users/{id}/meetings", "Create a meeting"),
  tool("meeting_delete", "DELETE", "/meetings/{id}", "Delete a meeting"),
  tool("meeting_status", "PUT", "/meetings/{id}/status", "Update meeting status"),
  tool("recording_get", "GET", "/meetings/{id}/recordings", "Get meeting recordings"),
  tool("user_get", "GET", "/users/{id}", "Get a user"),
];
const TAGS = [["Meetings"], ["Meetings"], ["Meetings"], ["Cloud Recording"], ["Users"]];

/** A discovery service over these tools and their tags, its index built as the generator builds it. */
function serviceOver(
  tools: readonly ToolDefinition[],
  tags: string[][],
  tagNotes: Record<string, string> = {},
  title = "Meetings API",
): DiscoveryService {
  const index = new OperationSearchIndex(tools.map((each, id) => searchableOperation(each, id, tags[id] ?? [])));
  const data: DiscoveryData = {
    alwaysList: [],
    tags,
    index: index.serialize(),
    tagNotes,
  };
  return new DiscoveryService(tools, data, title);
}

function service(): DiscoveryService {
  return serviceOver(TOOLS, TAGS, { Users: "People with an account." });
}

/** search_operations on a service: whether it failed, its text, and its structured result. */
async function searchOn(on: DiscoveryService, args: Record<string, unknown>) {
  const result = await on.call(undefined as never, "search_operations", args, {} as never);
  return {
    isError: result?.isError === true,
    text: (result?.content as { text: string }[] | undefined)?.[0]?.text ?? "",
    content: result?.structuredContent as { results: { name: string }[]; total: number; note?: string } | undefined,
  };
}

const search = (args: Record<string, unknown>) => searchOn(service(), args);

describe("search_operations within the API's parts", () => {
  it("takes its examples from the most central part", () => {
    const tools = [
      tool("user_get", "GET", "/users/{id}", "Get a user"),
      tool("meetings", "GET", "/users/{id}/meetings", "List meetings"),
      tool("meeting_create", "POST", "/users/{id}/meetings", "Create a meeting"),
      tool("meeting", "GET", "/meetings/{id}", "Get a meeting"),
    ];
    const meetings = serviceOver(tools, [["Users"], ["Meetings"], ["Meetings"], ["Meetings"]]);
    // The API's first read is Get a user; its most central part is Meetings.
    expect(meetings.listed[0]?.description).toContain('(e.g. "create a meeting", "list meetings")');
    // Summaries written as titles read as requests, acronyms kept (Linode's `Account Update`).
    const titled = serviceOver(
      [tool("account_update", "PUT", "/account", "Account Update"), tool("pdf", "GET", "/account/pdf", "Account PDF View")],
      [["Account"], ["Account"]],
    );
    expect(titled.listed[0]?.description).toContain('(e.g. "account update", "account PDF view")');
  });

  it("names the parts in its description, the most central first, with their notes", () => {
    // Four paths name meetings, two users, none a cloud recording.
    expect(service().listed[0]?.description).toContain(
      'Its parts (pass one as tag to search only there): "Meetings", "Users" (People with an account.), "Cloud Recording".',
    );
  });

  it("takes a tag in another case, with spaces around it, in the singular, or by the words it holds", async () => {
    for (const tag of ["meetings", " Meetings ", "meeting", "MEETING"]) expect((await search({ query: "", tag })).content?.total).toBe(3);
    expect((await search({ query: "", tag: "recordings" })).content?.results.map((hit) => hit.name)).toEqual(["recording_get"]);
    expect((await search({ query: "", tag: "" })).content?.total).toBe(5);
  });

  it("names the tags that share a word with an unknown one first", async () => {
    const unknown = await search({ query: "", tag: "Cloud Meetings Room" });
    expect(unknown.isError).toBe(true);
    expect(unknown.text).toMatch(
      /^search_operations: no operation has the tag "Cloud Meetings Room"\. Did you mean "Meetings", "Cloud Recording"/,
    );
  });

  it("lists the whole part, matches first, and says so, the method filter included", async () => {
    const ended = await search({
      query: "end the meeting",
      tag: "Meetings",
      method: "put",
    });
    expect(ended.content?.results.map((hit) => hit.name)).toEqual(["meeting_status"]);
    const created = await search({
      query: "create a meeting",
      tag: "Meetings",
    });
    expect(created.content?.results[0]?.name).toBe("meeting_create");
    expect(created.content?.total).toBe(3);
    expect(created.content?.note).toMatch(
      /^The results are the 3 operations tagged "Meetings": the (one that matches|\d that match) the query first, then the rest\.$/,
    );
    const none = await search({
      query: "create",
      tag: "Users",
      method: "POST",
    });
    expect(none.content).toMatchObject({
      results: [],
      total: 0,
      note: 'No operation is tagged "Users" with method POST.',
    });
  });

  it("says what a missing query is", async () => {
    expect((await search({ tag: "Meetings" })).text).toBe(
      'search_operations: query is required (a request in words, or "" to list operations)',
    );
  });

  it("takes a tag by its words as the search reads them, the one holding the fewest others, and says so", async () => {
    const tools = [
      tool("add_worklog", "POST", "/issue/{id}/worklog", "Add worklog"),
      tool("set_worklog_property", "PUT", "/issue/{id}/worklog/{w}/properties/{key}", "Set worklog property"),
      tool("trashed_file", "GET", "/files/{id}/trash", "Get trashed file"),
      tool("trashed_folder", "GET", "/folders/{id}/trash", "Get trashed folder"),
      tool("priorities", "GET", "/priority", "Get priorities"),
    ];
    const tags = [["Issue worklogs"], ["Issue worklog properties"], ["Trashed files"], ["Trashed folders"], ["Issue priorities"]];
    const jira = serviceOver(tools, tags, {}, "Jira");
    const ask = async (tag: string) => {
      const { text, content } = await searchOn(jira, { query: "", tag });
      return {
        names: content?.results.map((hit) => hit.name),
        note: content?.note,
        text,
      };
    };
    expect(await ask("worklogs")).toMatchObject({
      names: ["add_worklog"],
      note: 'The tag "worklogs" is taken as "Issue worklogs".',
    });
    expect(await ask("priority")).toMatchObject({
      names: ["priorities"],
      note: 'The tag "priority" is taken as "Issue priorities".',
    });
    expect((await ask("Issue worklogs")).note).toBeUndefined();
    expect((await ask("trash")).text).toBe(
      'search_operations: several tags hold "trash": "Trashed files", "Trashed folders"; pass one of them.',
    );
  });

  it("takes an operation whose argument accepts `me` for the caller as the answer to who am I", async () => {
    const getUsers = {
      ...tool("get_users", "GET", "/users", "Get multiple users"),
      description: "Returns the user records for all users accessible to the authenticated user.",
    };
    const getUser = (description?: string) => ({
      ...tool("get_user", "GET", "/users/{user_gid}", "Get a user"),
      inputSchema: { type: "object", properties: { user_gid: { type: "string", description } } },
    });
    const first = async (description?: string) => {
      const tools = [getUsers, getUser(description)] as ToolDefinition[];
      const { content } = await searchOn(serviceOver(tools, [["Users"], ["Users"]]), { query: "who am I logged in as?" });
      return content?.results[0]?.name;
    };
    expect(await first('A string identifying a user: the string "me", an email, or the gid of a user.')).toBe("get_user");
    expect(await first("Pass the `me` value for the signed-in user.")).toBe("get_user");
    expect(await first("The gid of a user.")).toBe("get_users");
  });
});
