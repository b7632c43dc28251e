/**
 * The generated Memos server calling its upstream with `fetch` (the runtime's injectable sender) instead of its own
 * pooled `node:http` client: the same-run comparison for the tool-call bench. Run with PORT and API_BASE_URL.
 */
import { runServer } from "oapi-mcp-gen-runtime";
import { auth, serverIdentity, upstream } from "../generated/server-settings.js";

const tools = async () => (await import("../generated/index.js")).tools;
await runServer({ identity: serverIdentity, tools, upstream, auth, fetch });
