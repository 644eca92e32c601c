// "Plain nginx": the same dist/ served as static files (try_files $uri =404, no routing), the baseline the
// generated nginx config is compared with. Its config lives in a temporary prefix, never in dist/.
import { existsSync, readFileSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type HostProcess, startHostProcess } from "./process.ts";

/** Worker settings copied from the generated nginx.conf in dist/, so only the routing differs between the two. */
export function workerSettings(distDir: string): { processes: string; connections: string } {
  const main = join(distDir, "nginx", "nginx.conf");
  const text = existsSync(main) ? readFileSync(main, "utf8") : "";
  return {
    processes: /^\s*worker_processes\s+([^;\s]+);/m.exec(text)?.[1] ?? "auto",
    connections: /^\s*worker_connections\s+([^;\s]+);/m.exec(text)?.[1] ?? "1024",
  };
}

export function plainNginxConfig(prefix: string, distDir: string, port: number): string {
  const temp = (name: string) => join(prefix, name);
  const workers = workerSettings(distDir);
  return `worker_processes ${workers.processes};
daemon off;
${process.getuid?.() === 0 ? "user root;\n" : ""}pid ${temp("nginx.pid")};
error_log stderr warn;
events { worker_connections ${workers.connections}; }
http {
  access_log off;
  client_body_temp_path ${temp("client_body")};
  proxy_temp_path ${temp("proxy")};
  fastcgi_temp_path ${temp("fastcgi")};
  uwsgi_temp_path ${temp("uwsgi")};
  scgi_temp_path ${temp("scgi")};
  types { application/json json; }
  default_type application/json;
  server {
    listen 127.0.0.1:${port};
    root ${distDir};
    location / { try_files $uri =404; }
  }
}
`;
}

export async function startPlainNginx(distDir: string, port: number): Promise<HostProcess> {
  const prefix = await mkdtemp(join(tmpdir(), "bench-nginx-"));
  const conf = join(prefix, "nginx.conf");
  await writeFile(conf, plainNginxConfig(prefix, distDir, port));
  // startHostProcess removes the prefix whenever nginx stops, a failed start included
  return startHostProcess("nginx", ["-p", prefix, "-c", conf, "-e", "stderr"], port, {}, 20_000, () =>
    rm(prefix, { recursive: true, force: true }),
  );
}
