// The import graph's rules (`npm run deps`, part of `npm test`): no cycle, scripts/ in the layer order of
// docs/develop/contributing.md ("Where the code is"), bench/ imported by nothing else, and the Worker's code free of
// Node's modules even through what it imports. CommonJS: dependency-cruiser loads its configuration with require.

/**
 * The layers of scripts/, lowest first: a folder imports only its own layer and those before it. A layer of several
 * names is one rank whose folders do not import each other; "spans" are the files at the root of scripts/.
 */
const LAYERS = [
  ["launcher"],
  ["cli"],
  ["schemas"],
  ["content"],
  ["model"],
  ["api"],
  ["render"],
  ["io"],
  ["net"],
  // the MCP server: the stdio command and the /mcp endpoint the Node server and the Worker embed
  ["mcp"],
  ["hosts", "mirror", "check-dist", "scaffold"],
  ["spans"],
  ["commands"],
];

/** Node's own modules, as dependency-cruiser names them (`node:fs/promises` is `fs/promises`). */
const NODE_MODULES = `^(${require("node:module").builtinModules.join("|")})$`;

/** A folder of scripts/ as a path pattern; "spans" is a file at the root of scripts/. */
const folder = (name) => (name === "spans" ? "^scripts/[^/]+$" : `^scripts/${name}/`);
const any = (names) => names.map(folder).join("|");

/** One rule a layer: none of its files imports a file of a layer above it, nor of another folder of its rank. */
const layerRules = LAYERS.flatMap((rank, i) =>
  rank.flatMap((name) => {
    const above = [...LAYERS.slice(i + 1).flat(), ...rank.filter((other) => other !== name)];
    if (above.length === 0) return [];
    return {
      name: `layer-order:${name}`,
      comment: `scripts/${name === "spans" ? "*.ts" : `${name}/`} imports only the layers below it (contributing.md)`,
      severity: "error",
      from: { path: folder(name) },
      to: { path: any(above) },
    };
  }),
);

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "no-circular",
      comment: "no two files import each other, directly or through others",
      severity: "error",
      from: {},
      to: { circular: true },
    },
    ...layerRules,
    {
      name: "bench-stands-alone",
      comment: "bench/ is above all of the product: nothing under scripts/ or test/ imports it",
      severity: "error",
      from: { path: "^(scripts|test)/" },
      to: { path: "^bench/" },
    },
    {
      name: "scripts-without-tests",
      comment: "what ships never imports the tests",
      severity: "error",
      from: { path: "^scripts/" },
      to: { path: "^test/" },
    },
    {
      name: "worker-web-apis-only",
      comment:
        "what runs in the Worker uses Web APIs only, also through the files it imports (Biome refuses a node: import " +
        "in its own folders)",
      severity: "error",
      from: { path: "^scripts/(api/runtime|hosts/cloudflare/worker)/" },
      to: { reachable: true, path: NODE_MODULES },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    // Type-only imports are imports too: a layer names no type of a layer above it.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    // .cjs files of the launcher and the schemas are required by the TypeScript that imports them.
    moduleSystems: ["es6", "cjs"],
    cache: { folder: "node_modules/.cache/dependency-cruiser", strategy: "content" },
  },
};
