/** Worker threads that render modules and run the types and README jobs beside the main thread. */

export { SideThread } from "./side-thread.js";
