/** The catalogue on PostgreSQL, shared by replicas. */
export { migrate } from "./migrations.js";
export { PostgresCatalogue } from "./postgres-catalogue.js";
export { withoutSecrets } from "./store-url.js";
