// The slug rule on its own, without zod: the route table (and so the Cloudflare Worker bundle) needs only this.
export const SLUG_PATTERN = "^[a-z0-9]+(?:-[a-z0-9]+)*$";
