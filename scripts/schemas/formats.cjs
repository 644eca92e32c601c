// The string formats of the generated validators: ajv-formats' own ("full" mode), but "uri" first tries a short
// pattern for plain http(s) addresses. Every string it accepts is one ajv-formats' pattern accepts too (it is that
// pattern's own parts, narrowed: scheme http or https, no user info, a registered host name), so results are the
// same; ajv-formats' pattern alone is slow to compile, and a one-tool rebuild paid that for its first address.
// CommonJS, loaded by path from the cached validator modules (scripts/schemas/validators.ts).
const { fullFormats } = require("ajv-formats/dist/formats");

const PLAIN_HTTP_URI =
  /^https?:\/\/(?:[a-z0-9\-._~!$&'()*+,;=]|%[0-9a-f]{2})+(?::\d*)?(?:\/(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})*)*(?:\?(?:[a-z0-9\-._~!$&'()*+,;=:@/?]|%[0-9a-f]{2})*)?(?:#(?:[a-z0-9\-._~!$&'()*+,;=:@/?]|%[0-9a-f]{2})*)?$/i;

exports.PLAIN_HTTP_URI = PLAIN_HTTP_URI;
exports.formats = { ...fullFormats, uri: (str) => PLAIN_HTTP_URI.test(str) || fullFormats.uri(str) };
