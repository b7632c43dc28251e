import { describe, expect, it } from "vitest";
import { clientLimitProblems } from "../../helpers/client-limits.js";
import { connectClient, startMemosServer } from "../../helpers/memos-server.js";
import { startSearch } from "../../helpers/search-server.js";
import { startUpstream } from "../../helpers/upstream.js";

describe("tools/list passes strict client checks", () => {
  it("for the generated Memos server", async () => {
    const upstream = await startUpstream();
    const server = await startMemosServer(upstream.url);
    const client = await connectClient(server.url);
    try {
      const { tools } = await client.listTools();
      expect(clientLimitProblems(tools)).toEqual([]);
    } finally {
      await client.close();
      await server.close();
      await upstream.close();
    }
  });

  it("for the search server", async () => {
    const server = await startSearch(["--memory"]);
    const client = await connectClient(server.url);
    try {
      const { tools } = await client.listTools();
      expect(tools).toHaveLength(13);
      expect(clientLimitProblems(tools)).toEqual([]);
    } finally {
      await client.close();
      await server.close();
    }
  });
});
