// The page writer thread when no bundle of page-worker.ts can be made (write-output.ts): worker threads do not inherit
// tsx's loader hooks (privatenumber/tsx#354), so register them, then run the TypeScript worker.
import { register } from "tsx/esm/api";

register();
await import("./page-writer-thread.ts");
