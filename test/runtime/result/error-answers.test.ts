import { readFileSync } from "node:fs";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningServer } from "../../../runtime/http/http-server.js";
import { httpErrorMessage } from "../../../runtime/result/result.js";
import { connectClient, startMemosServer } from "../../helpers/memos-server.js";
import { startUpstream } from "../../helpers/upstream.js";

/** Real APIs' and frameworks' answers to a bad request (test/fixtures/error-answers/README.md says where each is from). */
const ANSWERS: { source: string; status: number; contentType: string; body: string; expect: string[] }[] = JSON.parse(
  readFileSync(new URL("../../fixtures/error-answers/answers.json", import.meta.url), "utf8"),
);

describe("an upstream's own error details reach the model", () => {
  it.each(ANSWERS.map((answer) => [answer.source, answer] as const))("%s", (_, answer) => {
    const message = httpErrorMessage(answer.status, answer.body);
    for (const expected of answer.expect) expect(message).toContain(expected);
    expect(message.length).toBeLessThanOrEqual(2_600);
  });

  it("keeps the details bounded: ten entries, each cut, whatever the answer lists", () => {
    const huge = JSON.stringify({
      message: "Invalid",
      details: Array.from({ length: 5_000 }, (_, n) => ({ message: `${"x".repeat(1_000)}${n}` })),
    });
    const message = httpErrorMessage(400, huge);
    expect(message.split("; ")).toHaveLength(10);
    expect(message.length).toBeLessThanOrEqual(2_600);
  });
});

describe("through a generated server and the SDK client", () => {
  let answer = ANSWERS[0];
  let upstream: Awaited<ReturnType<typeof startUpstream>>;
  let server: RunningServer;
  let client: Client;
  beforeAll(async () => {
    upstream = await startUpstream((_, res) => {
      res.writeHead(answer?.status ?? 500, { "content-type": answer?.contentType ?? "text/plain" });
      res.end(answer?.body ?? "");
    });
    server = await startMemosServer(upstream.url);
    client = await connectClient(server.url);
  });
  afterAll(async () => {
    await client.close();
    await server.close();
    await upstream.close();
  });

  it("shows each recorded answer's details in the tool's error", async () => {
    for (const recorded of ANSWERS) {
      answer = recorded;
      const result = await client.callTool({ name: "memo_create_memo", arguments: { body: { content: "x" } } });
      expect(result.isError, recorded.source).toBe(true);
      const text = (result.content as { text: string }[])[0]?.text ?? "";
      expect(text, recorded.source).toContain(`Upstream API error ${recorded.status}`);
      for (const expected of recorded.expect) expect(text, recorded.source).toContain(expected);
    }
  });
});
