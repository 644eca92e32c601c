// The real nginx over a built dist/, configured only by dist/nginx/*.conf (from the route table): `npm run start:nginx`
// (scripts/commands/start-nginx.ts) and the tests start it here.
// nginx runs in the foreground with a temporary prefix (pid, temp files, the copied config): nothing outside it and
// dist/ is touched, and the prefix is removed on exit.
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { accessSync, constants, existsSync, realpathSync, rmSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createConnection } from "node:net";
import { tmpdir } from "node:os";
import { delimiter, join, resolve } from "node:path";
import { freePort } from "../free-port.ts";
import {
  NGINX_JS_MODULE,
  NGINX_LIST_PAGES,
  NGINX_MAIN_CONF,
  NGINX_PID_FILE,
  NGINX_SERVER_CONF,
  NGINX_SITE_CONF,
} from "./adapter.ts";
import { quote } from "./conf.ts";

export interface NginxOptions {
  distDir: string;
  /** 0 picks a free port (nginx itself cannot listen on port 0) */
  port?: number;
  host?: string;
  /** where nginx's error log goes; collected (and shown on failure) when omitted */
  stderr?: "inherit";
  /** seconds: replaces the built config's client_header_timeout (tests wait for it to pass) */
  headerTimeout?: number;
}

export interface RunningNginx {
  /** origin, e.g. http://127.0.0.1:8080 */
  url: string;
  /** stops nginx (gracefully, then by force) and removes its prefix */
  close(): Promise<void>;
  /** settles when nginx exits, whoever stopped it */
  exited: Promise<void>;
}

const READY_TIMEOUT_MS = 10_000;
const STOP_TIMEOUT_MS = 5_000;

/** The nginx binary: $NGINX_BIN when set (and then only it), else /usr/sbin/nginx or nginx on PATH; undefined when none. */
export function findNginx(): string | undefined {
  const candidates = process.env.NGINX_BIN
    ? [process.env.NGINX_BIN]
    : ["/usr/sbin/nginx", ...(process.env.PATH ?? "").split(delimiter).map((d) => join(d, "nginx"))];
  for (const file of candidates) {
    try {
      accessSync(file, constants.X_OK);
      return file;
    } catch {
      // not this one
    }
  }
  return undefined;
}

const readable = (file: string) => {
  try {
    accessSync(file, constants.R_OK);
    return true;
  } catch {
    return false;
  }
};

/**
 * nginx's JavaScript module (ngx_http_js_module.so), which a runs build's list pages need: $NGINX_JS_MODULE when set
 * (and then only it), else in the modules path `nginx -V` names (Debian: /usr/lib/nginx/modules), else Debian's path;
 * undefined when none is there.
 */
export function findJsModule(nginx: string): string | undefined {
  if (process.env.NGINX_JS_MODULE)
    return readable(process.env.NGINX_JS_MODULE) ? process.env.NGINX_JS_MODULE : undefined;
  const configure = spawnSync(nginx, ["-V"], { encoding: "utf8" }).stderr ?? "";
  const dir =
    /--modules-path=(\S+)/.exec(configure)?.[1] ??
    (/--prefix=(\S+)/.exec(configure)?.[1] ?? "/usr/share/nginx").replace(/\/?$/, "/modules");
  return [join(dir, "ngx_http_js_module.so"), NGINX_JS_MODULE].find(readable);
}

const canConnect = (host: string, port: number) =>
  new Promise<boolean>((done) => {
    const socket = createConnection({ host, port });
    socket.once("connect", () => {
      socket.destroy();
      done(true);
    });
    socket.once("error", () => done(false));
  });

const exited = (child: ChildProcess) =>
  new Promise<void>((done) => {
    if (child.exitCode !== null || child.signalCode !== null) done();
    else child.once("exit", () => done());
  });

/** Ready once nginx wrote its pid file (it does so only after binding) and the port accepts connections. */
async function waitUntilListening(
  child: ChildProcess,
  prefix: string,
  host: string,
  port: number,
  log: () => string,
): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  const pidFile = join(prefix, NGINX_PID_FILE);
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(
        `nginx exited (${child.exitCode ?? child.signalCode}) before listening${log() ? `:\n${log()}` : " (its messages are above)"}`,
      );
    const pid = await readFile(pidFile, "utf8").catch(() => "");
    if (pid.trim() === String(child.pid) && (await canConnect(host, port))) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`nginx did not listen on ${host}:${port} within ${READY_TIMEOUT_MS} ms:\n${log()}`);
}

/** A listen address nginx accepts: IPv6 in brackets. */
const listenAddress = (host: string, port: number) => `${host.includes(":") ? `[${host}]` : host}:${port}`;

/** nginx.conf as built, loading the JavaScript module found here when it names Debian's (a runs build's). */
function withJsModule(mainConf: string, nginx: string): string {
  const line = `load_module ${NGINX_JS_MODULE};`;
  if (!mainConf.includes(line)) return mainConf;
  const module = findJsModule(nginx);
  if (!module)
    throw new Error(
      "this is a runs-layout build: nginx answers its list pages with its JavaScript module (njs), which is not installed: " +
        "apt-get install libnginx-mod-http-js, or set NGINX_JS_MODULE to its ngx_http_js_module.so",
    );
  return mainConf.replace(line, `load_module ${quote(module)};`);
}

/** What a prefix's config is made of: the build's nginx.conf, server.conf and list-page handler, as read. */
async function builtConfig(distDir: string): Promise<string> {
  const read = (file: string) => readFile(join(distDir, file), "utf8").catch(() => "");
  return (await Promise.all([NGINX_MAIN_CONF, NGINX_SERVER_CONF, NGINX_LIST_PAGES].map(read))).join("\0");
}

/** Writes the build's config into `prefix` (nginx.conf, server.conf, a runs build's handler); resolves with what it
 *  was made of. */
async function writeConfig(nginx: string, distDir: string, prefix: string, headerTimeout?: number): Promise<string> {
  const made = await builtConfig(distDir);
  const [mainConf, serverConf, listPages] = made.split("\0") as [string, string, string];
  await writeFile(join(prefix, "nginx.conf"), withJsModule(mainConf, nginx));
  const listPagesFile = join(prefix, NGINX_LIST_PAGES.slice("nginx/".length));
  if (listPages) await writeFile(listPagesFile, listPages);
  else await rm(listPagesFile, { force: true });
  const timed =
    headerTimeout === undefined
      ? serverConf
      : serverConf.replace(/client_header_timeout \S+;/, `client_header_timeout ${headerTimeout}s;`);
  await writeFile(join(prefix, "server.conf"), timed);
  return made;
}

/** A fresh prefix with the build's config and api-site.conf (listen, root) beside it; and what the config was made of. */
async function preparePrefix(
  nginx: string,
  distDir: string,
  host: string,
  port: number,
  headerTimeout?: number,
): Promise<{ prefix: string; made: string }> {
  const root = resolve(distDir);
  // nginx would read `$` in root as a variable
  if (root.includes("$"))
    throw new Error(`nginx: the dist path ${root} holds a $, which nginx's root directive reads as a variable`);
  const prefix = await mkdtemp(join(tmpdir(), "api-nginx-"));
  try {
    const made = await writeConfig(nginx, distDir, prefix, headerTimeout);
    await writeFile(join(prefix, NGINX_SITE_CONF), `listen ${listenAddress(host, port)};\nroot ${quote(root)};\n`);
    return { prefix, made };
  } catch (e) {
    await rm(prefix, { recursive: true, force: true });
    throw e;
  }
}

/** How often a running nginx looks for a publication that changed its config (another layout, route table or code). */
const FOLLOW_MS = 1000;

/**
 * Follows the publications of `distDir` that change nginx's config: once the `dist` link names another build whose
 * config differs (a switch between layouts, a new route table), the prefix gets it and nginx reloads (SIGHUP: new
 * workers, the old ones finish their requests). Content-only publications need nothing: root is the link.
 */
function followConfig(
  child: ChildProcess,
  nginx: string,
  distDir: string,
  prefix: string,
  made: string,
  headerTimeout?: number,
) {
  const target = () => {
    try {
      return realpathSync(distDir);
    } catch {
      return undefined;
    }
  };
  let seen = target();
  let busy = false;
  const timer = setInterval(() => {
    const now = target();
    if (busy || now === undefined || now === seen) return;
    busy = true;
    seen = now;
    builtConfig(distDir)
      .then(async (next) => {
        if (next === made) return;
        made = await writeConfig(nginx, distDir, prefix, headerTimeout);
        child.kill("SIGHUP");
      })
      // a config this machine cannot load (no JavaScript module): nginx keeps the one it has
      .catch(() => {})
      .finally(() => (busy = false));
  }, FOLLOW_MS);
  timer.unref();
  return () => clearInterval(timer);
}

/** The arguments that run one prefix in the foreground; workers run as root only when nginx is started as root. */
export function nginxArgs(prefix: string, testOnly = false): string[] {
  const globals = ["daemon off;", ...(process.getuid?.() === 0 ? ["user root;"] : [])].join(" ");
  return [
    "-p",
    `${prefix}/`,
    "-c",
    join(prefix, "nginx.conf"),
    "-e",
    "stderr",
    "-g",
    globals,
    ...(testOnly ? ["-t", "-q"] : []),
  ];
}

/** Checks the built config with `nginx -t` against a prefix like the one startNginx uses. Resolves with nginx's output. */
export async function testNginxConfig(distDir: string): Promise<{ ok: boolean; output: string }> {
  const nginx = findNginx();
  if (!nginx) throw new Error("nginx is not installed: install it (e.g. apt-get install nginx-light) or set NGINX_BIN");
  const { prefix } = await preparePrefix(nginx, distDir, "127.0.0.1", 8080);
  try {
    const child = spawn(nginx, nginxArgs(prefix, true), { stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout!.on("data", (d: Buffer) => (output += d.toString()));
    child.stderr!.on("data", (d: Buffer) => (output += d.toString()));
    const code = await new Promise<number | null>((done) => child.once("close", done));
    return { ok: code === 0, output };
  } finally {
    await rm(prefix, { recursive: true, force: true });
  }
}

export async function startNginx({
  distDir,
  port = 8080,
  host = "127.0.0.1",
  stderr,
  headerTimeout,
}: NginxOptions): Promise<RunningNginx> {
  const nginx = findNginx();
  if (!nginx)
    throw new Error(
      "nginx is not installed: install it (e.g. apt-get install nginx-light) or set NGINX_BIN to its path",
    );
  for (const file of [NGINX_MAIN_CONF, NGINX_SERVER_CONF, "routes.json"])
    if (!existsSync(join(distDir, file)))
      throw new Error(`${join(distDir, file)} is missing: run \`npm run build\` first`);
  // port 0: pick one; another process may take it first, so try a few times
  for (let attempt = 1; ; attempt++) {
    const chosen = port === 0 ? await freePort(host) : port;
    const { prefix, made } = await preparePrefix(nginx, distDir, host, chosen, headerTimeout);
    const child = spawn(nginx, nginxArgs(prefix), { stdio: ["ignore", "ignore", stderr ?? "pipe"] });
    let log = "";
    child.stderr?.on("data", (d: Buffer) => (log += d.toString()));
    // if this process ends without close(), nginx must not outlive it
    const killOnExit = () => {
      child.kill("SIGKILL");
      rmSync(prefix, { recursive: true, force: true });
    };
    process.once("exit", killOnExit);
    let unfollow = () => {};
    const stop = async () => {
      unfollow();
      process.off("exit", killOnExit);
      if (child.exitCode === null && child.signalCode === null) {
        child.kill("SIGQUIT"); // graceful: finish the requests in flight
        const timer = setTimeout(() => child.kill("SIGKILL"), STOP_TIMEOUT_MS);
        await exited(child);
        clearTimeout(timer);
      }
      await rm(prefix, { recursive: true, force: true });
    };
    try {
      await waitUntilListening(child, prefix, host, chosen, () => log);
    } catch (e) {
      await stop();
      if (port === 0 && attempt < 3 && /Address already in use/.test(log)) continue;
      throw e;
    }
    unfollow = followConfig(child, nginx, distDir, prefix, made, headerTimeout);
    return { url: `http://${listenAddress(host, chosen)}`, close: stop, exited: exited(child) };
  }
}
