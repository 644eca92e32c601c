// Hostile input on nginx over the generated config, over real sockets: the cases every host answers the same way
// (test/helpers/hosts/hostile-input.ts; the Node server: test/integration/hosts/node/hostile-input.test.ts).
import { startNginx } from "../../../../scripts/hosts/nginx/start.ts";
import { builtSite } from "../../../helpers/build/built-site.ts";
import { describeHostileInput, HEADER_TIMEOUT_S } from "../../../helpers/hosts/hostile-input.ts";

const site = builtSite();

describeHostileInput("nginx", async () => {
  const nginx = await startNginx({ distDir: site.dist, port: 0, headerTimeout: HEADER_TIMEOUT_S });
  return { origin: nginx.url, stop: () => nginx.close() };
});
