// Preloaded into a command under test (node --import): writes its peak resident set size in KiB, every thread
// included, to the file MAX_RSS_FILE names, as the process exits. A memory bound measured, not a timing.
import { writeFileSync } from "node:fs";

const file = process.env.MAX_RSS_FILE;
if (file) process.on("exit", () => writeFileSync(file, String(process.resourceUsage().maxRSS)));
