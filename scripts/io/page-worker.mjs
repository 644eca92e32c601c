// Worker threads do not inherit tsx's loader hooks (privatenumber/tsx#354): register them, then run the TS worker.
import { register } from "tsx/esm/api";

register();
await import("./page-worker.ts");
