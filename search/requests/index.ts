/** Building a request from an operation and values, and calling an endpoint under the operator's policy. */
export { type CallPolicy, callEndpoint, readCallCredentials } from "./endpoint-call.js";
export { type BuiltRequest, buildRequest, curlCommand, fetchCode, httpMessage } from "./request-builder.js";
export { SampleBuilder, type Unresolved } from "./sample-value.js";
