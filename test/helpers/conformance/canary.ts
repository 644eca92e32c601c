// Files planted in the built dist/ that no host may ever serve (P7): a dotfile and a config-looking file.
export const CANARY = "CONFORMANCE-CANARY-do-not-serve-5b1e";

/** paths below dist/ */
export const CANARY_FILES = [
  ".env",
  ".canary.json",
  "v1/.env",
  "v1/software/.canary.json",
  "v1/best/.canary.json",
  "v1/software/pages/all/.canary.json",
];
