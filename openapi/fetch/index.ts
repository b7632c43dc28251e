/** Fetching a document by URL under the address policy, and the error details every stage reports with. */
export {
  type AddressPolicy,
  type AllowedHosts,
  allowedHostsFrom,
  hostAllowed,
  isRefusedAddress,
  mayConnect,
  parseAllowedHost,
  urlPort,
} from "./address-policy.js";
export { errorCode, errorMessage } from "./error-detail.js";
export { FetchError, type FetchLimits, fetchText, sendGuarded } from "./fetch-source.js";
