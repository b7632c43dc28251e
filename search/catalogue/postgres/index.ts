/** The catalogue on PostgreSQL, shared by replicas. */

export { withoutSecrets } from "oapi-mcp-gen-runtime";
export { migrate } from "./migrations.js";
export { PostgresCatalogue } from "./postgres-catalogue.js";
