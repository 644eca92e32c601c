// The http-level `map`s of the nginx config: the route table's decision (method, path, query → what answers) as
// lazily evaluated variables, plus the per-status header values. Every regex reads the raw request line ($request):
// it survives error_page redirects and parse errors, where $request_method and $request_uri do not.
import { RETRY_AFTER_SECONDS, type Route, type RouteTable } from "../../api/runtime/route-table.ts";
import { type MapBlock, variable } from "./conf.ts";
import {
  DECODABLE_SEGMENT,
  encodedLiteral,
  encodedSegmentPattern,
  escapeRegex,
  queryPresent,
  queryRepeated,
  queryValue,
  unsafeForDecodedUri,
} from "./regex.ts";

/** `{name}` in a path or file template */
const PLACEHOLDER = /^\{(\w+)\}$/;

/** nginx compares a map's plain keys case-insensitively: a case-sensitive exact key is a regex. */
const exactly = (text: string) => `~^${escapeRegex(text)}$`;

/** Named captures become nginx variables and PCRE limits their names to 32 characters: number them. */
function captures() {
  let n = 0;
  return () => variable(`c${++n}`);
}

/** The route value (and named location @api_<name>) of the i-th asset. */
export const assetName = (i: number) => `asset_${i}`;

/** The variable holding a route's template variable `{name}` (path parameter, query parameter or var). */
export const routeVar = (route: Route, name: string) => variable(route.operation, name);

/** A dist/ file template with each `{name}` replaced by its nginx variable. */
export function fileTemplate(route: Route, template: string): string {
  const known = new Set([...Object.keys(route.params), ...route.query.map((q) => q.name), ...Object.keys(route.vars)]);
  return template.replace(/\{(\w+)\}/g, (_, name: string) => {
    if (!known.has(name))
      throw new Error(
        `nginx adapter: ${route.operation}: template ${template} uses {${name}}, which the route does not define`,
      );
    return `\${${routeVar(route, name)}}`;
  });
}

const segmentsOf = (path: string) => path.split("/").slice(1);

/** The raw path regexes of a route: `valid` when every parameter passes, `matched` when only the shape matches. */
function rawPathRegexes(table: RouteTable, route: Route): { valid: string; matched: string } {
  const base = segmentsOf(table.basePath).map(encodedLiteral);
  const parts = segmentsOf(route.path).map((segment) => {
    const param = PLACEHOLDER.exec(segment)?.[1];
    if (!param) return { valid: encodedLiteral(segment), matched: encodedLiteral(segment) };
    const pattern = route.params[param];
    if (pattern === undefined)
      throw new Error(`nginx adapter: ${route.operation}: {${param}} has no pattern in params`);
    const unsafe = unsafeForDecodedUri(pattern);
    if (unsafe) throw new Error(`nginx adapter: ${route.operation}: pattern of {${param}} ${unsafe}`);
    return { valid: encodedSegmentPattern(pattern), matched: DECODABLE_SEGMENT };
  });
  const join = (key: "valid" | "matched") => `^/${[...base, ...parts.map((p) => p[key])].join("/")}/?$`; // P2: one trailing slash
  return { valid: join("valid"), matched: join("matched") };
}

/** Path parameters, decoded: read from $uri, which equals the decoded path once the raw path matched `valid`. */
function pathParamMaps(table: RouteTable, route: Route, capture: () => string): MapBlock[] {
  const segments = [...segmentsOf(table.basePath), ...segmentsOf(route.path)];
  return Object.keys(route.params).map((param) => {
    const name = capture();
    const regex = segments.map((s) =>
      PLACEHOLDER.exec(s)?.[1] === param ? `(?<${name}>[^/]+)` : PLACEHOLDER.test(s) ? "[^/]+" : escapeRegex(s),
    );
    return {
      comment: `${route.operation}: {${param}}, decoded`,
      source: "$uri",
      target: routeVar(route, param),
      entries: [[`~^/${regex.join("/")}/?$`, `$${name}`]],
      default: "",
    };
  });
}

/** Q1–Q3, Q6–Q8 for one route: per parameter its count, raw value (or default) and state; then the first failure. */
function queryMaps(route: Route, capture: () => string): MapBlock[] {
  if (route.query.length === 0) return [];
  const v = (...parts: string[]) => routeVar(route, parts.join("_"));
  const maps: MapBlock[] = [];
  for (const q of route.query) {
    const value = capture();
    maps.push(
      {
        comment: `${route.operation}: how often ${q.name} is given (exact name, raw query)`,
        source: "$api_query",
        target: v(q.name, "count"),
        entries: [
          [`~${queryRepeated(q.name)}`, "2"],
          [`~${queryPresent(q.name)}`, "1"],
        ],
        default: "0",
      },
      {
        comment: `${route.operation}: ${q.name} as sent, never decoded; ${q.default === null ? "empty" : q.default} when absent`,
        source: "$api_query",
        target: v(q.name),
        entries: [[`~${queryValue(q.name, value)}`, `$${value}`]],
        default: q.default ?? "",
      },
      {
        source: `$${v(q.name)}`,
        target: v(q.name, "valid"),
        entries: [[`~${q.pattern}`, "1"]],
        default: "0",
      },
      {
        comment: `${route.operation}: ${q.name} ${q.absentError ? "valid" : "absent or valid"} → ok`,
        source: `$${v(q.name, "count")}$${v(q.name, "valid")}`,
        target: v(q.name, "state"),
        entries: [
          ["00", q.absentError ? "absent" : "ok"],
          ["01", q.absentError ? "absent" : "ok"],
          ["10", "invalid"],
          ["11", "ok"],
          ["20", "repeated"],
          ["21", "repeated"],
        ],
      },
    );
  }
  const states = route.query.map((q) => `$${v(q.name, "state")} `).join("");
  maps.push({
    comment: `${route.operation}: the first parameter that fails, in declared order (Q8)`,
    source: states,
    target: v("query_error"),
    entries: route.query.flatMap((q, i): [string, string][] => [
      [`~^${"ok ".repeat(i)}repeated `, q.repeatedError],
      [`~^${"ok ".repeat(i)}invalid `, q.error],
      ...(q.absentError ? [[`~^${"ok ".repeat(i)}absent `, q.absentError] as [string, string]] : []),
    ]),
    default: "",
  });
  for (const [name, spec] of Object.entries(route.vars)) {
    const param = route.query.find((q) => q.name === spec.param);
    if (!param)
      throw new Error(
        `nginx adapter: ${route.operation}: var ${name} reads ${spec.param}, which is no query parameter`,
      );
    const present = spec.present.replace(/\{(\w+)\}/g, (_, p: string) => `\${${routeVar(route, p)}}`);
    maps.push({
      comment: `${route.operation}: {${name}}`,
      source: `$${v(spec.param, "count")}`,
      target: routeVar(route, name),
      // a parameter with a default is never absent
      entries: param.default === null ? [["0", spec.absent]] : [],
      default: present,
    });
  }
  return maps;
}

/** Every map of the request's decision: $api_action names the named location that answers. */
export function decisionMaps(table: RouteTable): MapBlock[] {
  const capture = captures();
  const [method, target, path, query, asset, routeError, paramError, routeOk] = Array.from({ length: 8 }, capture);
  const served = table.methods.filter((m) => m !== "OPTIONS");
  const maps: MapBlock[] = [
    {
      comment:
        "the raw request line, only when it is METHOD SP target SP HTTP/x.y (no HTTP/0.9, no spaces in the target)",
      source: "$request",
      target: "api_method",
      entries: [[`~^(?<${method}>[^ ]+) [^ ]+ HTTP/[0-9]\\.[0-9]$`, `$${method}`]],
      default: "",
    },
    {
      comment: "origin-form or absolute-form target, exactly as sent",
      source: "$request",
      target: "api_target",
      entries: [[`~^[^ ]+ (?:[Hh][Tt][Tt][Pp][Ss]?://[^/?#]*)?(?<${target}>/[^ ]*) HTTP/[0-9]\\.[0-9]$`, `$${target}`]],
      default: "",
    },
    { source: "$api_target", target: "api_path", entries: [[`~^(?<${path}>[^?]*)`, `$${path}`]], default: "" },
    { source: "$api_target", target: "api_query", entries: [[`~\\?(?<${query}>.*)$`, `$${query}`]], default: "" },
    {
      comment: "P4–P6: the method decides first",
      source: "$api_method",
      target: "api_method_kind",
      entries: [
        ...served.map((m): [string, string] => [exactly(m), "serve"]),
        ...(table.methods.includes("OPTIONS") ? [[exactly("OPTIONS"), "preflight"] as [string, string]] : []),
        // any other token, known or not, in any case: 405 (nginx itself refuses lower case and TRACE first)
        ["~.", "disallowed"],
      ],
      // no usable request line at all
      default: "invalid",
    },
    {
      comment:
        "the docs assets at their exact raw path, then P1–P3, P7: the raw path against each route; `!id` = the error that answers",
      source: "$api_path",
      target: "api_route",
      entries: [
        ...table.assets.map((asset, i): [string, string] => [exactly(asset.path), assetName(i)]),
        ...table.routes.flatMap((route) => {
          const { valid, matched } = rawPathRegexes(table, route);
          return valid === matched
            ? [[`~${valid}`, route.operation] as [string, string]]
            : [
                [`~${valid}`, route.operation] as [string, string],
                [`~${matched}`, `!${route.fallback}`] as [string, string],
              ];
        }),
      ],
      default: "!not_found",
    },
  ];
  for (const route of table.routes) maps.push(...pathParamMaps(table, route, capture), ...queryMaps(route, capture));
  const withQuery = table.routes.filter((r) => r.query.length > 0);
  maps.push(
    {
      source: "$api_route",
      target: "api_query_error",
      entries: withQuery.map((r): [string, string] => [exactly(r.operation), `$${routeVar(r, "query_error")}`]),
      default: "",
    },
    {
      comment: "what answers: a named location @api_<action>",
      source: "$api_method_kind $api_route $api_query_error",
      target: "api_action",
      entries: [
        ["~^invalid ", "error_not_found"],
        ["~^preflight ", "preflight"],
        ["~^disallowed ", "error_method_not_allowed"],
        [`~^serve (?<${asset}>asset_[0-9]+) `, `$${asset}`],
        [`~^serve !(?<${routeError}>\\S+)`, `error_$${routeError}`],
        [`~^serve \\S+ (?<${paramError}>\\S+)$`, `error_$${paramError}`],
        [`~^serve (?<${routeOk}>\\S+) $`, `route_$${routeOk}`],
      ],
      default: "error_not_found",
    },
    {
      comment: "a refused request that announced a body (any Transfer-Encoding): its framing could not be read",
      source: "$http_transfer_encoding",
      target: "api_rejected_framing",
      entries: [["~.", "framing "]],
      default: "",
    },
    {
      comment:
        "a request nginx refused (400, 501, or 405 for TRACE): bad framing is a 400; else the method decides first; a " +
        "path it could not decode (empty $request_uri) is routed as usual; anything else (bad headers, no Host) is not_found",
      source: "$api_rejected_framing$api_method_kind $request_uri",
      target: "api_rejected_action",
      entries: [
        ["~^framing ", "bad_request"],
        ["~^disallowed ", "error_method_not_allowed"],
        ["~^\\S+ $", "$api_action"],
      ],
      default: "error_not_found",
    },
  );
  return maps;
}

/** Header values by final status; empty means the header is left out (add_header skips empty values). */
export function headerMaps(table: RouteTable): { header: string; variable: string; map: MapBlock }[] {
  const out: { header: string; variable: string; map: MapBlock }[] = [];
  const byStatus = (header: string, name: string, statuses: string[], value: string, comment?: string) =>
    out.push({
      header,
      variable: name,
      map: {
        comment,
        source: "$status",
        target: name,
        volatile: true,
        entries: statuses.map((s): [string, string] => [s, value]),
        default: "",
      },
    });
  const contentType = Object.entries(table.headers.all).find(([k]) => k.toLowerCase() === "content-type");
  if (contentType)
    byStatus(
      contentType[0],
      "api_bodyless_content_type",
      ["204"],
      contentType[1],
      "H1: nginx drops Content-Type from a 204; put it back (a 304 has none)",
    );
  Object.entries(table.headers.success).forEach(([header, value], i) => {
    byStatus(
      header,
      variable("success", String(i)),
      ["200", "304"],
      value,
      `H3: ${header} on successful responses only`,
    );
  });
  Object.entries(table.headers.preflight).forEach(([header, value], i) => {
    byStatus(header, variable("preflight", String(i)), ["204"], value, `P5: ${header} on the preflight answer`);
  });
  out.push({
    header: "Access-Control-Allow-Headers",
    variable: "api_allow_headers",
    map: {
      comment: "P5: echo the preflight's Access-Control-Request-Headers, or *",
      source: "$status:$http_access_control_request_headers",
      target: "api_allow_headers",
      volatile: true,
      entries: [
        ["204:", "*"],
        ["~^204:(?<api_requested_headers>.+)$", "$api_requested_headers"],
      ],
      default: "",
    },
  });
  byStatus("Allow", "api_allow", ["405"], table.methods.join(", "), "P6");
  byStatus(
    "Retry-After",
    "api_retry_after",
    ["503"],
    String(RETRY_AFTER_SECONDS),
    "H7: a body that cannot be read now",
  );
  byStatus("Cache-Control", "api_unavailable_cache", ["503"], "no-store", "H7: and no cache keeps that answer");
  for (const { header } of out)
    if (!/^[A-Za-z0-9-]+$/.test(header)) throw new Error(`nginx adapter: header name ${header} is not a token`);
  return out;
}
